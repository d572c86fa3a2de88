"""The speed tables that `local/bench_steps.sh --update-docs true` writes: one block between
<!-- speed-table --> and <!-- /speed-table --> in docs/speed.md (the bench's full table) and in
the README (its step, end-to-end, kernel and ratio columns of each step's first measured row)."""
from __future__ import annotations

import os

OPEN, CLOSE = "<!-- speed-table -->", "<!-- /speed-table -->"


def block(root: str, name: str) -> list[str]:
    with open(os.path.join(root, name), encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert lines.count(OPEN) == 1 and lines.count(CLOSE) == 1, name
    a, b = lines.index(OPEN), lines.index(CLOSE)
    assert a < b, name
    return lines[a + 1:b]


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_readme_table_is_the_compact_speed_md_table(root):
    full = [cells(x) for x in block(root, "docs/speed.md") if x.startswith("|")]
    compact = [cells(x) for x in block(root, "README.md") if x.startswith("|")]
    if not full:                      # not measured yet: both empty
        assert not compact
        return
    assert full[0] == ["step", "input", "end-to-end CPU-s", "kernel CPU-s", "ratio", "start-up CPU-s",
                       "read CPU-s", "write CPU-s", "peak MB", "target <= 2"]
    firsts, seen = [], set()          # each step's first measured row, its gold not cached
    for r in full:
        step = r[0].removesuffix(", gold cached")
        if r[2] != "-" and step not in seen:
            seen.add(step)
            firsts.append([r[0], r[2], r[3], r[4]])
    assert compact == firsts
    assert all(len(r) == len(full[0]) for r in full)


def test_bench_names_the_markers(root):
    with open(os.path.join(root, "local", "bench_steps.sh"), encoding="utf-8") as f:
        text = f.read()
    assert OPEN in text and CLOSE in text and "--update-docs" in text
