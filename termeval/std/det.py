"""DET points (term-weighted mean Pmiss/Pfa at every threshold) and matplotlib plots:
det.png/det.pdf on probit (normal deviate) axes with the actual-decision and maximum-TWV
points marked, and twv.png/twv.pdf (TWV against threshold). docs/std.md §3.7.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.core.numbers import fmt_column
from termeval.core.plots import drawing, legend, new_figure, save_figure, tight_layout
from termeval.core.textio import atomic_write

EPS = 2.2204e-16
TICKS = [0.0001, 0.001, 0.01, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 40, 60, 80, 90, 95, 98, 99]


def probit(p) -> np.ndarray:
    """Normal deviate Phi^-1(p), p clamped to [eps, 1-eps] (the standard library's
    NormalDist.inv_cdf, Wichura's AS 241: within 1e-15 of scipy's ndtri, whose import costs
    ten times more than the few thousand points of a plot; only the plots' axes use it, no
    written value)."""
    from statistics import NormalDist   # statistics: only when a DET plot is drawn
    q = np.clip(np.asarray(p, dtype=np.float64), EPS, 1 - EPS)
    inv = NormalDist().inv_cdf
    return np.fromiter(map(inv, q.ravel().tolist()), dtype=np.float64, count=q.size).reshape(q.shape)


def write_det_points(path: str, thr, pmiss, pfa, twv) -> None:
    """TSV `threshold mean_pmiss mean_pfa twv`, thresholds decreasing (the one number format,
    core.numbers)."""
    cols = [fmt_column(c) for c in (thr, pmiss, pfa, twv)]
    with atomic_write(path) as f:
        f.write("threshold\tmean_pmiss\tmean_pfa\ttwv\n")
        f.writelines("\t".join(row) + "\n" for row in zip(*cols))


def _thin(n: int, max_points: int = 4000) -> np.ndarray:
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.r_[np.linspace(0, n - 1, max_points).astype(np.int64), n - 1])


@drawing
def plot_det(out_prefix: str, pmiss, pfa, beta: float, act: tuple | None, best: tuple | None,
             title: str = "", formats: tuple[str, ...] = ("png", "pdf")) -> list[str]:
    """det.png / det.pdf; act/best = (pfa, pmiss) points or None. Returns the paths."""
    fig, ax = new_figure((6, 6))
    # Probabilities outside the axes (P_fa = 0 above all) have no place on a probit scale; they
    # are drawn on the nearest edge instead of silently vanishing.
    x_lim, y_lim = (1e-6, 0.4), (0.05, 0.98)

    def xy(fa, pm):
        return probit(np.clip(fa, *x_lim)), probit(np.clip(pm, *y_lim))

    k = _thin(len(pfa))
    if len(k):
        ax.plot(*xy(np.asarray(pfa)[k], np.asarray(pmiss)[k]), "-", lw=1.2, label="DET")
    # iso-TWV line at 0.3 (as KWSEval), sampled since it is curved on probit axes
    fa = np.logspace(-8, math.log10(0.4), 400)
    pm = 1 - 0.3 - beta * fa
    ok = (pm > 0) & (pm < 1)
    if ok.any():
        ax.plot(probit(fa[ok]), probit(pm[ok]), ":", color="grey", lw=0.8, label="TWV = 0.3")
    for point, style, name in ((act, dict(marker="o", color="red"), "actual decisions"),
                               (best, dict(marker="*", ms=12, color="green"), "maximum TWV")):
        if point is None or None in point:
            continue
        edge = not (x_lim[0] <= point[0] <= x_lim[1] and y_lim[0] <= point[1] <= y_lim[1])
        label = f"{name} (P_fa {100 * point[0]:.3g}%, P_miss {100 * point[1]:.3g}%{', on the edge' if edge else ''})"
        ax.plot(*xy(point[0], point[1]), linestyle="none", clip_on=False, label=label, **style)
    t = np.asarray(TICKS) / 100
    ax.set_xticks(probit(t))
    ax.set_xticklabels([f"{v:g}" for v in TICKS], rotation=90, fontsize=7)
    ax.set_yticks(probit(t))
    ax.set_yticklabels([f"{v:g}" for v in TICKS], fontsize=7)
    ax.set_xlim(*probit(x_lim))
    ax.set_ylim(*probit(y_lim))
    ax.set_xlabel("False alarm probability (%)")
    ax.set_ylabel("Miss probability (%)")
    ax.grid(True, lw=0.3)
    legend(ax, loc="upper right", fontsize=8)
    ax.set_title(title or "Term-weighted DET")
    tight_layout(fig)
    return save_figure(fig, out_prefix, dpi=120, formats=formats)


@drawing
def plot_twv(out_prefix: str, thr, twv, act: tuple | None, best: tuple | None, title: str = "",
             formats: tuple[str, ...] = ("png", "pdf")) -> list[str]:
    """twv.png / twv.pdf: TWV against the decision threshold."""
    fig, ax = new_figure((7, 4.5))
    k = _thin(len(thr))
    if len(k):
        ax.plot(np.asarray(thr)[k], np.asarray(twv)[k], "-", lw=1.2, label="TWV(threshold)")
        lo = max(float(np.min(twv)), -1.0)
        ax.set_ylim(lo - 0.05, 1.0)
    if act is not None and None not in act:
        ax.axvline(act[0], color="red", ls="--", lw=0.8)
        ax.plot(act[0], act[1], "o", color="red", label=f"actual (ATWV {act[1]:.4f})")
    if best is not None and None not in best:
        ax.plot(best[0], best[1], "*", ms=12, color="green", label=f"maximum (MTWV {best[1]:.4f})")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("decision threshold (score)")
    ax.set_ylabel("TWV")
    ax.grid(True, lw=0.3)
    legend(ax, fontsize=8)
    ax.set_title(title or "TWV against threshold")
    tight_layout(fig)
    return save_figure(fig, out_prefix, dpi=120, formats=formats)


def articulated(thr, cum_pmiss, cum_pfa) -> np.ndarray:
    """Indices of the DET points that end a run of target-only or non-target-only thresholds
    (F4DE -a): the points in between are collinear, so the curve drawn is the same."""
    n = len(thr)
    if n <= 2:
        return np.arange(n)
    dm = np.diff(np.r_[1.0, np.asarray(cum_pmiss)]) != 0
    df = np.diff(np.r_[0.0, np.asarray(cum_pfa)]) != 0
    kind = dm.astype(np.int8) + 2 * df.astype(np.int8)
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    keep[:-1] |= kind[:-1] != kind[1:]
    keep[1:] |= kind[1:] != kind[:-1]
    keep |= kind == 3
    return np.flatnonzero(keep)
