"""`python -m termeval <step> ...`: the termeval command (termeval/command.py)."""
import sys

from termeval.command import main

sys.exit(main())
