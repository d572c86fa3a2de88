"""Forest plot: the headline metrics of the compared systems with their intervals."""
from __future__ import annotations


def forest_plot(res: dict, headline: tuple[str, ...], out_base: str) -> list[str]:
    """<out_base>.png and .pdf: one panel per headline metric, one row per system (value and
    percentile interval of the paired tables' units). Returns the written paths."""
    from termeval.plots import new_figure, save_figure, tight_layout

    systems = res["systems"]
    first = res["intervals"][systems[0]]
    metrics = [m for m in headline if m in first] or list(first)[:6]
    fig, axes = new_figure((6.5, 0.55 * len(systems) * len(metrics) + 1.2), len(metrics), 1, squeeze=False)
    base = res["baseline"]
    for ax, m in zip(axes[:, 0], metrics):
        for i, s in enumerate(systems):
            v = res["diffs"][s][m]["a"] if s in res["diffs"] else res["diffs"][systems[1]][m]["b"]
            ci = res["intervals"][s][m]
            y = len(systems) - 1 - i
            if v is None:
                ax.text(0.5, y, "undefined", transform=ax.get_yaxis_transform(), va="center", fontsize=8)
                continue
            if ci["lo"] is not None:
                ax.plot([ci["lo"], ci["hi"]], [y, y], color="C0", lw=2)
            ax.plot([v], [y], "o", color="C3" if s == base else "C0")
        ax.set_yticks(range(len(systems)))
        ax.set_yticklabels(list(reversed(systems)), fontsize=8)
        ax.set_ylim(-0.7, len(systems) - 0.3)
        ax.set_title(f"{m} ({100 * res['level']:g}% CI, {res['n']} resamples of "
                     f"{first[m]['unit']}s)", fontsize=9)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    tight_layout(fig)
    return save_figure(fig, out_base, dpi=120)
