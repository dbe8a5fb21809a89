"""A document's ``exercises``: predict hidden numbers, or say how a watched number moves when one
input cell grows.

- :mod:`engine.exercises.document` reads and writes them (:class:`Exercise`);
- :mod:`engine.exercises.fit` checks them against a trace and gives the hidden cells;
- :mod:`engine.exercises.answers` answers and checks them (``answer``, ``check``).

This package imports none of them itself: reading a document needs only the first, and the
others need the trace, which needs the reading.
"""
