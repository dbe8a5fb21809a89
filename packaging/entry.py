"""Entry script of the frozen build: the same ``main`` as the ``qkv-studio`` console script."""

import multiprocessing
import sys

from app.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # big documents are read in a spawned process
    sys.exit(main())
