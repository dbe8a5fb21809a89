"""Exporters: the canvas's frames as PNG, SVG, PDF, GIF, MP4, PowerPoint and the clipboard.

Modules, one job each:

- :mod:`~app.export.settings` what an export asks for (formats, steps, size, names); no Qt.
- :mod:`~app.export.safe` writes that leave no partial file; no Qt.
- :mod:`~app.export.words` step titles, captions and notes in a language; no Qt.
- :mod:`~app.export.render` a frame → QImage, PNG bytes, SVG bytes, PDF pages, all of one size.
- :mod:`~app.export.animation` GIF (Pillow) and MP4 (ffmpeg from imageio-ffmpeg).
- :mod:`~app.export.slides` a frame as a slide: native tables, connectors, text boxes, pictures.
- :mod:`~app.export.deck` PowerPoint (python-pptx) from those shapes; no Qt.
- :mod:`~app.export.clipboard` copy one frame as PNG and SVG.
- :mod:`~app.export.job` a multi-step export with progress and cancel.
- :mod:`~app.export.cli` ``qkv-studio export``; :mod:`~app.export.dialog` the export dialog.

Importing this package loads no Qt module (the command line imports it before choosing the
offscreen platform).
"""

from app.export.settings import FORMATS, ExportRequest, parse_steps

__all__ = ["FORMATS", "ExportRequest", "parse_steps"]
