"""``python -m explain``: see :mod:`explain.cli`."""

import sys

from explain.cli import main

sys.exit(main())
