"""``python -m rumino``: the same command as ``rumino`` (see :mod:`rumino.cli`)."""

import sys

from rumino.cli import main

sys.exit(main())
