"""``python -m amreval``: the command line (as the ``amreval`` command)."""

import sys

from amreval.cli import main

if __name__ == "__main__":
    sys.exit(main())
