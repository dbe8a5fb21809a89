"""Documents that never lose work: saving, recent files, recovery copies, session, imports.

The Qt-free parts (:mod:`app.files.matrix_text`) are usable from the command line and tests
without a display; the rest attaches to a :class:`~app.window.studio.StudioWindow`.
"""
