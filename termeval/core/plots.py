"""The one way termeval draws and saves a figure (DET/TWV plots, tolerance sweeps, forest
plots): a matplotlib Figure on the Agg canvas, without pyplot (pyplot and its backend
machinery cost about 0.15 CPU-s to import and change no pixel), saved as <base>.png and
<base>.pdf all or none (a failure is one line naming the plot file).

matplotlib is optional (`pip install 'termeval[plots]'`). Its absence is handled here and only
here: every plot function is decorated with `@drawing`, which draws nothing and returns [] when
matplotlib is not installed, after one `<step>: note: plots skipped ...` line per run on stderr
(a note, not a warning: scores.json and every score and details file stay byte-identical).
"""
from __future__ import annotations

import functools
import importlib.util
import os
import sys
import threading
from typing import Any, Callable, TypeVar

from termeval.core.errors import InputError
from termeval.core import publish
from termeval.core.warn import note

SKIPPED = "plots skipped (matplotlib is not installed; pip install 'termeval[plots]')"

_noted = threading.Event()   # the note was printed in this run (new_run clears it)
F = TypeVar("F", bound=Callable[..., list])


def available() -> bool:
    """True when matplotlib can be imported. Only matplotlib itself missing counts: an installed
    matplotlib that fails to import (a broken dependency) is an error, not a skipped plot."""
    try:
        import matplotlib  # noqa: F401  matplotlib: optional (termeval[plots]), only when a plot is drawn
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] != "matplotlib":
            raise
        return False
    return True


def new_run() -> None:
    """A new run begins (termeval.run.driver): its first skipped plot prints the note again."""
    _noted.clear()


def drawing(fn: F) -> F:
    """A plot function: without matplotlib it draws nothing and returns [] (no file), and the
    first skipped plot of the run prints the note."""
    @functools.wraps(fn)
    def draw(*args: Any, **kwargs: Any) -> list:
        if available():
            return fn(*args, **kwargs)
        if not _noted.is_set():
            _noted.set()
            note(None, SKIPPED)
        return []
    return draw  # type: ignore[return-value]


def new_figure(figsize: tuple[float, float], nrows: int = 1, ncols: int = 1, **subplots: Any):
    """(figure, axes) as `matplotlib.pyplot.subplots(nrows, ncols, figsize=...)` makes them."""
    canvas, figure = _matplotlib()
    fig = figure(figsize=figsize)
    canvas(fig)
    return fig, fig.subplots(nrows, ncols, **subplots)


def _matplotlib():
    """(FigureCanvasAgg, Figure), the PDF backend's font subsetter made lazy first."""
    _lazy_font_subsetting()
    from matplotlib.backends.backend_agg import FigureCanvasAgg   # matplotlib: heavy, only when a plot is drawn
    from matplotlib.figure import Figure                          # matplotlib: heavy, only when a plot is drawn
    return FigureCanvasAgg, Figure


def _lazy_font_subsetting() -> None:
    """matplotlib's PDF backend imports fontTools.subset (about 0.06 CPU-s) for the Type 42
    fonts and PostScript; the Type 3 fonts of its PDFs (the default) never use it. Before the
    backend's first import, fontTools.subset becomes a lazy module (importlib.util.LazyLoader):
    the same module, executed on its first use."""
    if "fontTools.subset" in sys.modules or "matplotlib.backends._backend_pdf_ps" in sys.modules:
        return
    try:
        spec = importlib.util.find_spec("fontTools.subset")     # (imports the package fontTools)
    except ImportError:
        return
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["fontTools.subset"] = module
    spec.loader.exec_module(module)
    setattr(sys.modules["fontTools"], "subset", module)


def legend(ax, **kwargs: Any) -> None:
    """The axes' legend, when some artist has a label (matplotlib would warn about an empty one)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kwargs)


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
