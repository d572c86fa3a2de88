"""The plots of report.html, drawn by termeval itself as inline SVG (no matplotlib): lines
(tolerance sweeps, TWV against the threshold; DET curves on probit axes), bars (per speaker,
per file, per term), forest plots (values with their intervals) and heatmaps (a confusion
matrix of probabilities).

Every function returns one `<svg>` element (a string) with a viewBox, so that it scales with
the page; every mark carries a `<title>` (its value, shown on hover).
"""
from __future__ import annotations

import math
from html import escape
from typing import Sequence

import numpy as np

W, H = 640, 340
LEFT, RIGHT, TOP, BOTTOM = 62, 18, 30, 48
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
PROBIT_TICKS = (0.001, 0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99)
PROBIT_CLIP = (5e-4, 0.9995)
MAX_BARS = 80     # a bar chart shows at most this many bars (the first ones; the caption says so)


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _finite(x) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


class Axis:
    """A linear or probit axis from data values to pixels."""

    def __init__(self, lo: float, hi: float, a: float, b: float, scale: str = "linear") -> None:
        self.scale = scale
        if scale == "probit":
            lo, hi = (_probit(min(max(x, PROBIT_CLIP[0]), PROBIT_CLIP[1])) for x in (lo, hi))
        if not hi > lo:
            lo, hi = lo - 0.5, hi + 0.5
        self.lo, self.hi, self.a, self.b = lo, hi, a, b

    def __call__(self, x: float) -> float:
        if self.scale == "probit":
            x = _probit(min(max(x, PROBIT_CLIP[0]), PROBIT_CLIP[1]))
        return self.a + (x - self.lo) / (self.hi - self.lo) * (self.b - self.a)

    def ticks(self) -> list[tuple[float, str]]:
        if self.scale == "probit":
            return [(t, f"{t * 100:g}") for t in PROBIT_TICKS if self.lo <= _probit(t) <= self.hi]
        return [(t, f"{t:g}") for t in nice_ticks(self.lo, self.hi)]


def _probit(p: float) -> float:
    from statistics import NormalDist    # statistics (random, fractions, decimal): only for a DET plot
    return NormalDist().inv_cdf(p)


def nice_ticks(lo: float, hi: float, n: int = 6) -> list[float]:
    """About n round values between lo and hi."""
    if not hi > lo:
        return [lo]
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    return [round(first + i * step, 12) for i in range(int((hi - first) / step + 1e-9) + 1)]


def _frame(title: str, xlabel: str, ylabel: str, x: Axis, y: Axis, xticks=None) -> list[str]:
    out = [f'<svg class="te-plot" viewBox="0 0 {W} {H}" xmlns="http://www.w3.org/2000/svg" role="img">',
           f"<title>{escape(title)}</title>",
           f'<text x="{W / 2}" y="18" class="te-ptitle" text-anchor="middle">{escape(title)}</text>']
    x0, x1, y0, y1 = LEFT, W - RIGHT, H - BOTTOM, TOP
    for v, text in (xticks if xticks is not None else x.ticks()):
        px = x(v)
        out.append(f'<line x1="{_f(px)}" y1="{y0}" x2="{_f(px)}" y2="{y1}" class="te-grid"/>'
                   f'<text x="{_f(px)}" y="{y0 + 14}" text-anchor="middle" class="te-tick">{escape(text)}</text>')
    for v, text in y.ticks():
        py = y(v)
        out.append(f'<line x1="{x0}" y1="{_f(py)}" x2="{x1}" y2="{_f(py)}" class="te-grid"/>'
                   f'<text x="{x0 - 5}" y="{_f(py + 4)}" text-anchor="end" class="te-tick">{escape(text)}</text>')
    out.append(f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" class="te-axes"/>')
    out.append(f'<text x="{(x0 + x1) / 2}" y="{H - 10}" text-anchor="middle" class="te-alabel">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(14 {(y0 + y1) / 2}) rotate(-90)" text-anchor="middle" '
               f'class="te-alabel">{escape(ylabel)}</text>')
    return out


def _legend(names: Sequence[str]) -> list[str]:
    out = []
    for i, name in enumerate(names):
        y = TOP + 8 + 14 * i
        out.append(f'<rect x="{W - RIGHT - 150}" y="{y - 8}" width="10" height="10" fill="{PALETTE[i % len(PALETTE)]}"/>'
                   f'<text x="{W - RIGHT - 136}" y="{y + 1}" class="te-tick">{escape(name)}</text>')
    return out


def lines(series: Sequence[dict], title: str, xlabel: str, ylabel: str, xscale: str = "linear",
          yscale: str = "linear", marks: Sequence[dict] = ()) -> str:
    """Curves: series [{"name", "x": [...], "y": [...]}]; marks [{"name", "x", "y"}] drawn as
    dots (an operating point). Probit axes (a DET plot) take probabilities."""
    pts = [(x, y) for s in series for x, y in zip(s["x"], s["y"]) if _finite(x) and _finite(y)]
    pts += [(m["x"], m["y"]) for m in marks if _finite(m.get("x")) and _finite(m.get("y"))]
    if not pts:
        return ""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x = Axis(min(xs), max(xs), LEFT, W - RIGHT, xscale)
    lo, hi = min(ys), max(ys)
    if yscale == "linear" and 0.0 <= lo and hi <= 1.0:      # a fraction: from 0 to 1
        lo, hi = 0.0, 1.0
    y = Axis(lo, hi, H - BOTTOM, TOP, yscale)
    out = _frame(title, xlabel, ylabel, x, y)
    for i, s in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        xy = [(a, b) for a, b in zip(s["x"], s["y"]) if _finite(a) and _finite(b)]
        if not xy:
            continue
        path = " ".join(f"{_f(x(a))},{_f(y(b))}" for a, b in xy)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.8" class="te-line">'
                   f"<title>{escape(s['name'])}</title></polyline>")
        if len(xy) <= 60:
            for a, b in xy:
                out.append(f'<circle cx="{_f(x(a))}" cy="{_f(y(b))}" r="2.5" fill="{colour}">'
                           f"<title>{escape(s['name'])}: {a:g}, {b:g}</title></circle>")
    for i, m in enumerate(marks):
        if _finite(m.get("x")) and _finite(m.get("y")):
            out.append(f'<circle cx="{_f(x(m["x"]))}" cy="{_f(y(m["y"]))}" r="5" class="te-mark" '
                       f'fill="{PALETTE[(len(series) + i) % len(PALETTE)]}"><title>{escape(m["name"])}: '
                       f'{m["x"]:g}, {m["y"]:g}</title></circle>')
    out += _legend([s["name"] for s in series] + [m["name"] for m in marks if _finite(m.get("x"))])
    return "".join(out) + "</svg>"


def bars(labels: Sequence[str], series: dict[str, Sequence[float | None]], title: str, ylabel: str) -> str:
    """Grouped vertical bars: one group per label (the first MAX_BARS / len(series)), one bar per
    series; undefined values leave a gap."""
    per = max(1, MAX_BARS // max(1, len(series)))
    labels = list(labels)[:per]
    vals = [v for s in series.values() for v in list(s)[:per] if _finite(v)]
    if not labels or not vals:
        return ""
    y = Axis(min(0.0, min(vals)), max(1.0, max(vals)) if max(vals) <= 1.0 else max(vals), H - BOTTOM, TOP)
    x = Axis(0, len(labels), LEFT, W - RIGHT)
    step = len(labels) / 12 if len(labels) > 12 else 1
    xticks = [(i + 0.5, labels[i]) for i in range(0, len(labels), max(1, round(step)))]
    out = _frame(title, "", ylabel, x, y, xticks)
    width = (x(1) - x(0)) * 0.8 / len(series)
    for k, (name, values) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        for i, v in enumerate(list(values)[:per]):
            if not _finite(v):
                continue
            top, base = y(max(v, 0.0)), y(min(v, 0.0))
            out.append(f'<rect x="{_f(x(i) + (x(1) - x(0)) * 0.1 + k * width)}" y="{_f(top)}" width="{_f(width)}" '
                       f'height="{_f(max(base - top, 0.5))}" fill="{colour}" class="te-bar">'
                       f"<title>{escape(labels[i])} {escape(name)}: {v:g}</title></rect>")
    if len(series) > 1:
        out += _legend(list(series))
    return "".join(out) + "</svg>"


def forest(rows: Sequence[tuple[str, float, float | None, float | None]], title: str, xlabel: str = "",
           zero: bool = False) -> str:
    """One row per (name, value, lo, hi): the value as a dot, the interval as a line (a line at
    0 with zero=True: paired differences)."""
    rows = [r for r in rows if _finite(r[1])]
    if not rows:
        return ""
    vals = [v for r in rows for v in r[1:] if _finite(v)] + ([0.0] if zero else [])
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.05 or 0.05
    height = TOP + 22 * len(rows) + BOTTOM
    left = 20 + 7 * max(len(r[0]) for r in rows)
    x = Axis(lo - pad, hi + pad, left, W - RIGHT)
    out = [f'<svg class="te-plot" viewBox="0 0 {W} {height}" xmlns="http://www.w3.org/2000/svg" role="img">',
           f"<title>{escape(title)}</title>",
           f'<text x="{W / 2}" y="18" class="te-ptitle" text-anchor="middle">{escape(title)}</text>']
    y0 = height - BOTTOM
    for v, text in x.ticks():
        out.append(f'<line x1="{_f(x(v))}" y1="{TOP}" x2="{_f(x(v))}" y2="{y0}" class="te-grid"/>'
                   f'<text x="{_f(x(v))}" y="{y0 + 14}" text-anchor="middle" class="te-tick">{escape(text)}</text>')
    if zero:
        out.append(f'<line x1="{_f(x(0))}" y1="{TOP}" x2="{_f(x(0))}" y2="{y0}" class="te-zero"/>')
    for i, (name, v, a, b) in enumerate(rows):
        cy = TOP + 22 * i + 11
        out.append(f'<text x="{left - 8}" y="{cy + 4}" text-anchor="end" class="te-tick">{escape(name)}</text>')
        tip = f"{name} {v:g}" + (f" [{a:g}, {b:g}]" if _finite(a) and _finite(b) else "")
        if _finite(a) and _finite(b):
            out.append(f'<line x1="{_f(x(a))}" y1="{cy}" x2="{_f(x(b))}" y2="{cy}" class="te-ci">'
                       f"<title>{escape(tip)}</title></line>")
        out.append(f'<circle cx="{_f(x(v))}" cy="{cy}" r="4" class="te-dot"><title>{escape(tip)}</title></circle>')
    out.append(f'<text x="{(left + W - RIGHT) / 2}" y="{height - 10}" text-anchor="middle" '
               f'class="te-alabel">{escape(xlabel)}</text>')
    return "".join(out) + "</svg>"


# a sequential scale from light to dark (ColorBrewer Blues, 9 classes, then its darkest): 10 levels of 0.1
HEAT = ("#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b", "#062455",
        "#041a40")
HEAT_ROW = 10         # px per row (fewer for more rows)
HEAT_TOP_COLUMNS = 5  # columns named in a row's hover text


def heatmap(values, rows: Sequence[str], columns: Sequence[str], title: str, xlabel: str = "", ylabel: str = "",
            floor: float = 0.005) -> str:
    """A matrix of values in [0, 1] (rows x columns) as cells coloured in 10 levels of 0.1;
    cells below `floor` are left blank. Cells of one level are one path (a row's run of equal
    levels one rectangle), so the size grows with the cells drawn, not with the matrix; each
    row's hover text names its largest columns."""
    v = np.nan_to_num(np.asarray(values, dtype=np.float64), nan=0.0)
    if v.ndim != 2 or not v.size:
        return ""
    nr, nc = v.shape
    row_h = HEAT_ROW if nr <= 60 else max(2.0, 600.0 / nr)
    left = min(20 + 6.5 * max(len(r) for r in rows), 140)
    x0, x1 = left, W - RIGHT - 46
    height = TOP + nr * row_h + BOTTOM
    level = np.where(v >= floor, np.minimum((v * 10).astype(np.int64), 9), -1)
    paths: list[list[str]] = [[] for _ in HEAT]
    for r in range(nr):
        lv = level[r]
        cut = np.flatnonzero(np.r_[True, lv[1:] != lv[:-1]])
        for a, b in zip(cut.tolist(), cut[1:].tolist() + [nc]):
            if lv[a] >= 0:
                paths[int(lv[a])].append(f"M{a} {r}h{b - a}v1h-{b - a}z")
    out = [f'<svg class="te-plot te-heatmap" viewBox="0 0 {W} {_f(height)}" xmlns="http://www.w3.org/2000/svg" '
           f'role="img" data-rows="{nr}" data-columns="{nc}" data-cells="{int((level >= 0).sum())}">',
           f"<title>{escape(title)}</title>",
           f'<text x="{W / 2}" y="18" class="te-ptitle" text-anchor="middle">{escape(title)}</text>',
           f'<rect x="{_f(x0)}" y="{TOP}" width="{_f(x1 - x0)}" height="{_f(nr * row_h)}" class="te-axes"/>',
           f'<g transform="translate({_f(x0)} {TOP}) scale({(x1 - x0) / nc:.6g} {row_h:.6g})" '
           'shape-rendering="crispEdges">']
    out += [f'<path fill="{HEAT[k]}" d="{"".join(p)}"/>' for k, p in enumerate(paths) if p]
    out.append("</g>")
    step = max(1, int(np.ceil(9.0 / row_h)))          # a label every `step` rows: 9 px apart at least
    for r in range(nr):
        y = TOP + r * row_h
        top = np.argsort(-v[r], kind="stable")[:HEAT_TOP_COLUMNS]
        tip = f"{rows[r]}: " + ", ".join(f"{columns[c]} {v[r, c]:.2f}" for c in top.tolist() if v[r, c] >= floor)
        out.append(f'<rect x="{_f(x0)}" y="{_f(y)}" width="{_f(x1 - x0)}" height="{_f(row_h)}" fill="transparent">'
                   f"<title>{escape(tip)}</title></rect>")
        if r % step == 0:
            out.append(f'<text x="{_f(x0 - 4)}" y="{_f(y + row_h / 2 + 3.5)}" text-anchor="end" '
                       f'class="te-tick">{escape(rows[r])}</text>')
    for k, colour in enumerate(HEAT):                 # the scale: 10 swatches, 0 at the bottom
        y = TOP + (9 - k) * 14
        out.append(f'<rect x="{W - RIGHT - 36}" y="{y}" width="12" height="14" fill="{colour}"/>')
    out += [f'<text x="{W - RIGHT - 20}" y="{TOP + 10 * 14}" class="te-tick">0</text>',
            f'<text x="{W - RIGHT - 20}" y="{TOP + 9}" class="te-tick">1</text>',
            f'<text x="{_f((x0 + x1) / 2)}" y="{_f(height - 10)}" text-anchor="middle" class="te-alabel">'
            f"{escape(xlabel)}</text>",
            f'<text transform="translate(12 {_f(TOP + nr * row_h / 2)}) rotate(-90)" text-anchor="middle" '
            f'class="te-alabel">{escape(ylabel)}</text>']
    return "".join(out) + "</svg>"
