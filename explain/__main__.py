"""``python -m explain``: see :mod:`explain.cli`."""

import sys

try:
    from explain.cli import main
except KeyboardInterrupt:  # Ctrl-C while the libraries load: nothing has started yet
    print("interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
