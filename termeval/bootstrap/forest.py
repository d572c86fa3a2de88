"""Forest plot of a paired comparison: for every headline metric, each system's difference with
the baseline and its paired interval (the numbers of scores/compare), around a line at zero."""
from __future__ import annotations

from termeval.core.plots import drawing, new_figure, save_figure, tight_layout


def p_text(r: dict, fmt: str, sep: str = " ") -> str:
    """A result's p-value: `0.0123`, or its bound `< 0.002` (sep '': `<0.002`, one field)
    when no replicate reached 0; `-` when undefined."""
    if r.get("p") is None:
        return "-"
    return f"<{sep}{fmt.format(r['p'])}" if r.get("p_upper_bound") else fmt.format(r["p"])


def forest_rows(res: dict, headline: tuple[str, ...]) -> list[tuple[str, list[tuple[str, float | None, float | None, float | None, str]]]]:
    """[(metric, [(system, diff, lo, hi, p), ...]), ...]: what the plot draws, from
    compare()'s "diffs" (the headline metrics present, else the first six); p as shown
    (p_text: `0.0123`, `< 0.002`, `-`)."""
    diffs = res["diffs"]
    first = next(iter(diffs.values()))
    metrics = [m for m in headline if m in first] or list(first)[:6]
    return [(m, [(s, d[m]["diff"], d[m]["lo"], d[m]["hi"], p_text(d[m], "{:.3g}")) for s, d in diffs.items()])
            for m in metrics]


@drawing
def forest_plot(res: dict, headline: tuple[str, ...], out_base: str) -> list[str]:
    """<out_base>.png and .pdf: one panel per headline metric, one row per compared system:
    its paired difference (system - baseline) with the percentile interval of the paired
    resampling, the p-value beside it. Returns the written paths."""
    rows = forest_rows(res, headline)
    n_sys = len(rows[0][1])
    fig, axes = new_figure((6.5, 0.5 * n_sys * len(rows) + 0.9 * len(rows) + 0.4), len(rows), 1, squeeze=False)
    base = res["baseline"]
    for ax, (m, items) in zip(axes[:, 0], rows):
        unit = ""
        for i, (s, d, lo, hi, p) in enumerate(items):
            y = n_sys - 1 - i
            if d is None:
                ax.text(0.5, y, "undefined", transform=ax.get_yaxis_transform(), va="center", fontsize=8)
                continue
            if lo is not None and hi is not None:
                ax.plot([lo, hi], [y, y], color="C0", lw=2)
            ax.plot([d], [y], "o", color="C0")
            if p != "-":
                ax.text(1.01, y, f"p {p}", transform=ax.get_yaxis_transform(), va="center", fontsize=7)
        for s in res["diffs"]:
            unit = res["diffs"][s][m].get("unit", unit)
        ax.axvline(0.0, color="grey", lw=0.8, ls="--")
        ax.set_yticks(range(n_sys))
        ax.set_yticklabels([f"{s} - {base}" for s, *_ in reversed(items)], fontsize=8)
        ax.set_ylim(-0.7, n_sys - 0.3)
        ax.set_title(f"{m}: paired difference ({100 * res['level']:g}% CI, {res['n']} "
                     f"{res['test']} resamples of {unit}s)", fontsize=9)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    tight_layout(fig)
    return save_figure(fig, out_base, dpi=120)
