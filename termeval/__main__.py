"""`python -m termeval <step> ...`: the termeval command (termeval/run/command.py)."""
import sys

from termeval.run.command import main

sys.exit(main())
