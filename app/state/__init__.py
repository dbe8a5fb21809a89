"""The open document's own floor: its state, undo history and worker, with no window (the
Qt-free session and its small Qt adapter), and the protocol the window's plug-ins talk to."""
