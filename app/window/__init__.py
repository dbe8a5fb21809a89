"""The studio window and its plug-ins: the shell they talk to, the view state, undo, the
timeline, the canvas controls, presentation, compare mode, the menus and dialogs (Qt)."""
