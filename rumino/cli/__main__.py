import sys

from rumino.cli import main

sys.exit(main())
