"""``python -m rumino.cli``: the same command as ``rumino`` (see :mod:`rumino.cli`)."""

import sys

try:
    from rumino.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command itself loads: the same one line as later
    sys.stderr.write("rumino: interrupted\n")
    sys.exit(130)

sys.exit(main())
