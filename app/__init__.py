"""QKV Studio's desktop application (Qt). Importing this package loads no Qt module."""

import os

__version__ = "0.1.0"

APP_NAME = "QKV Studio"
"""The application and organisation name: settings, recovery copies, file metadata."""

# numpy asks the kernel for huge pages for every large array; where Linux compacts memory for
# such requests (transparent_hugepage/defrag = madvise, the common default), a fresh 19 MB copy
# of a GPT-2 layer's W1 on a one-cell edit took 24 ms instead of 9 (docs/limits.md). Set before
# numpy is first imported; an explicit choice in the environment wins.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
