"""fairseq's `measure_teacher_quality.py` table: one header line, a dashed line and one row
(`tabulate(..., floatfmt=".4f")` in tabulate's "simple" format), written as it prints it."""
from __future__ import annotations

COLUMNS = ("ref pur", "hyp pur", "H(ref)", "H(hyp)", "MI", "MI/H(ref)", "ref segL", "hyp segL", "p_xy shape",
           "frm tot", "frm diff", "utt tot", "utt miss")


def cells(fs: dict) -> list[str]:
    """The row's texts: floats with 4 decimals, counts as integers, the shape as a tuple."""
    floats = [fs["ref_purity"], fs["hyp_purity"], fs["ref_entropy"], fs["hyp_entropy"], fs["mutual_information"],
              fs["pnmi"], fs["ref_segment_length"], fs["hyp_segment_length"]]
    return [format(float(x), ".4f") for x in floats] + [str(tuple(int(n) for n in fs["shape"]))] + \
        [str(int(fs[k])) for k in ("frames", "frames_diff", "utterances", "utterances_missing")]


def table(fs: dict) -> str:
    """The three lines (numbers right-aligned, the shape left-aligned; each column as wide as
    its header + 2 or its value, two spaces between columns)."""
    row = cells(fs)
    head, dash, line = [], [], []
    for name, text in zip(COLUMNS, row):
        width = max(len(name) + 2, len(text))
        left = name == "p_xy shape"
        head.append(name.ljust(width) if left else name.rjust(width))
        dash.append("-" * width)
        line.append(text.ljust(width) if left else text.rjust(width))
    return "\n".join("  ".join(x) for x in (head, dash, line)) + "\n"
