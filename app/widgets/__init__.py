"""Small widgets and Qt helpers that know nothing of the document: an eliding label, the busy
indicator, long work off the interface thread."""
