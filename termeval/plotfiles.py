"""Writing matplotlib figures as files: every format of a figure or none of them.

matplotlib's writers report a full disk in many shapes (OSError from the file object, but also
AttributeError or ValueError from deep inside a backend once a write has failed). A plot is
not worth a traceback: any failure becomes one InputError naming the plot file, the other
formats already drawn are not renamed into place, and no temporary file is left behind.
"""
from __future__ import annotations

import contextlib
import os
import tempfile

from termeval.errors import InputError
from termeval.textio import file_mode


def save_figures(fig, out_base: str, formats: tuple[str, ...] = ("png", "pdf"), **savefig_kwargs) -> list[str]:
    """fig -> <out_base>.<fmt> for every format (temp files renamed at the end); closes fig.
    Returns the written paths."""
    import matplotlib.pyplot as plt
    directory = os.path.dirname(os.path.abspath(out_base))
    done: list[tuple[str, str]] = []
    path = f"{out_base}.{formats[0]}"
    try:
        os.makedirs(directory, exist_ok=True)
        for fmt in formats:
            path = f"{out_base}.{fmt}"
            fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
            done.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                fig.savefig(f, format=fmt, **savefig_kwargs)
        for tmp, final in done:
            os.chmod(tmp, file_mode())
            os.replace(tmp, final)
        done = []
    except (KeyboardInterrupt, MemoryError):
        raise
    except Exception as e:  # noqa: BLE001 -- see the module doc: any writer failure is this plot's
        raise InputError(f"cannot write this plot ({type(e).__name__}: {e}); is the disk full?", path) from None
    finally:
        for tmp, _ in done:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        plt.close(fig)
    return [f"{out_base}.{fmt}" for fmt in formats]
