"""The shell steps' side of the one lock (termeval/core/lock.py), for utils/termeval_lib.sh te_lock:

    python -m termeval.run.lock take <dir> <pid> [<dir as shown>]   exit 0: taken for <pid>
    python -m termeval.run.lock release <dir> <pid>                   removes it if <pid>'s

On failure the one error line's message (without the program name: the shell step prints it
as its own `<step>: error: ...`) is written on stderr, exit status 1.
"""
from __future__ import annotations

import sys
from typing import Sequence

from termeval.core import lock
from termeval.core.errors import InputError

USAGE = "usage: python -m termeval.run.lock take|release <dir> <pid> [<dir as shown>]"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) not in (3, 4) or argv[0] not in ("take", "release") or not argv[2].isdigit():
        print(USAGE, file=sys.stderr)
        return 2
    what, directory, pid = argv[0], argv[1], int(argv[2])
    try:
        if what == "take":
            lock.take(directory, pid, argv[3] if len(argv) > 3 else directory, host_shown=True)
        else:
            lock.release(directory, pid)
    except InputError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{directory}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
