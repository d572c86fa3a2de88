"""The one way termeval draws and saves a figure (DET/TWV plots, tolerance sweeps, forest
plots): a matplotlib Figure on the Agg canvas, without pyplot (pyplot and its backend
machinery cost about 0.15 CPU-s to import and change no pixel), saved as <base>.png and
<base>.pdf atomically.
"""
from __future__ import annotations

import os
from typing import Any

from termeval.textio import atomic_write


def new_figure(figsize: tuple[float, float], nrows: int = 1, ncols: int = 1, **subplots: Any):
    """(figure, axes) as `matplotlib.pyplot.subplots(nrows, ncols, figsize=...)` makes them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **subplots)


def tight_layout(fig) -> None:
    """What fig.tight_layout() does, without the placeholder layout engine it leaves on the
    figure, which makes every savefig lay the figure out again (one more draw per file) for a
    layout that changes nothing."""
    from matplotlib.layout_engine import TightLayoutEngine
    TightLayoutEngine().execute(fig)


def save_figure(fig, out_base: str, dpi: float | None = None) -> list[str]:
    """<out_base>.png and <out_base>.pdf (dpi: matplotlib's savefig.dpi when None); a run
    killed mid-way leaves the previous files. Returns the paths."""
    paths = []
    for ext in ("png", "pdf"):
        path = f"{out_base}.{ext}"
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with atomic_write(path, "wb") as f:
            fig.savefig(f, format=ext, **({} if dpi is None else {"dpi": dpi}))
        paths.append(path)
    return paths
