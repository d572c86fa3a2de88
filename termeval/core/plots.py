"""The one way termeval draws and saves a figure (DET/TWV plots, tolerance sweeps, forest
plots): a matplotlib Figure on the Agg canvas, without pyplot (pyplot and its backend
machinery cost about 0.15 CPU-s to import and change no pixel), saved as <base>.png and
<base>.pdf all or none (a failure is one line naming the plot file).
"""
from __future__ import annotations

import os
from typing import Any

from termeval.core.errors import InputError
from termeval.core import publish


def new_figure(figsize: tuple[float, float], nrows: int = 1, ncols: int = 1, **subplots: Any):
    """(figure, axes) as `matplotlib.pyplot.subplots(nrows, ncols, figsize=...)` makes them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg   # matplotlib: heavy, only when a plot is drawn
    from matplotlib.figure import Figure                          # matplotlib: heavy, only when a plot is drawn
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **subplots)


def tight_layout(fig) -> None:
    """What fig.tight_layout() does, without the placeholder layout engine it leaves on the
    figure, which makes every savefig lay the figure out again (one more draw per file) for a
    layout that changes nothing."""
    from matplotlib.layout_engine import TightLayoutEngine   # matplotlib: heavy, only when a plot is drawn
    TightLayoutEngine().execute(fig)


def save_figure(fig, out_base: str, dpi: float | None = None, formats: tuple[str, ...] = ("png", "pdf")) -> list[str]:
    """<out_base>.<fmt> for every format, or none of them (dpi: matplotlib's savefig.dpi when
    None). Each is drawn into a temp file beside it and all are renamed at the end, so a run
    killed mid-way leaves the previous files. matplotlib's writers report a full disk in many
    shapes (OSError, but also AttributeError or ValueError from deep inside a backend): any
    failure is one InputError naming the plot file, no temp file is left. Returns the paths."""
    directory = os.path.dirname(os.path.abspath(out_base))
    base = os.path.basename(out_base)
    path = f"{out_base}.{formats[0]}"
    try:
        with publish.files(directory, [f"{base}.{fmt}" for fmt in formats]) as tmps:
            for fmt in formats:
                path = f"{out_base}.{fmt}"
                with open(tmps[f"{base}.{fmt}"], "wb") as f:
                    fig.savefig(f, format=fmt, **({} if dpi is None else {"dpi": dpi}))
    except (KeyboardInterrupt, MemoryError):
        raise
    except Exception as e:  # noqa: BLE001 -- any writer failure is this plot's
        raise InputError(f"cannot write this plot ({type(e).__name__}: {e}); is the disk full?", path) from None
    return [f"{out_base}.{fmt}" for fmt in formats]
