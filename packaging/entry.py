"""Entry script of the frozen build: the same ``main`` as the ``qkv-studio`` console script."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
