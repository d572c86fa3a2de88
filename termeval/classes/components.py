"""`--pairs-clustering components` (004 section 5: "a standard graph clustering"): the pairs of
a pairs file (termeval.classes.parse, two-member classes) merged into connected components, one
class per component, for systems that output pairs."""
from __future__ import annotations

import numpy as np

from termeval.classes.parse import PreparedClasses
from termeval.core.datadir import file_starts
from termeval.core.errors import InputError

from termeval.classes.options import PAIRS_CLUSTERINGS  # noqa: E402,F401  (declared with the options)


def pairs_to_components(prep: PreparedClasses) -> PreparedClasses:
    """`--pairs-clustering components` (004 §5: "a standard graph clustering"): the pairs of a
    pairs file merged into connected components, one class per component. A fragment is
    identified by its exact (file, onset, offset) and is listed once in its component. Classes
    come in the order of their first pair, fragments in order of first appearance; a class is
    named after the line of its first pair."""
    if prep.fmt != "pairs":
        raise InputError("--pairs-clustering components: the input is a class file, not a pairs file")
    n = len(prep.onset)
    ids: dict[tuple[str, float, float], int] = {}
    node = np.array([ids.setdefault((f, a, b), len(ids)) for f, a, b in
                     zip(prep.file, prep.onset.tolist(), prep.offset.tolist())], dtype=np.int64)
    parent = list(range(len(ids)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    cls = np.repeat(np.arange(len(prep.starts) - 1), np.diff(prep.starts))
    for c in range(len(prep.starts) - 1):
        members = node[prep.starts[c]:prep.starts[c + 1]].tolist()
        for m in members[1:]:
            ra, rb = find(members[0]), find(m)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    root = np.array([find(x) for x in range(len(ids))], dtype=np.int64)
    first = np.full(len(ids), n, dtype=np.int64)               # first row of each fragment
    np.minimum.at(first, node, np.arange(n))
    keep = first[node] == np.arange(n)                         # each fragment once
    comp_first = np.full(len(ids), n, dtype=np.int64)          # first row of each component
    np.minimum.at(comp_first, root[node], np.arange(n))
    rows = np.flatnonzero(keep)
    comp = comp_first[root[node[rows]]]
    order = rows[np.lexsort((rows, comp))]
    comp_sorted = comp_first[root[node[order]]]
    _, new_cls = np.unique(comp_sorted, return_inverse=True)
    new_cls = new_cls.reshape(-1)
    starts = file_starts(new_cls, int(new_cls.max()) + 1 if len(new_cls) else 0)
    heads = order[starts[:-1]]
    counts = dict(prep.counts)
    counts["classes_written"] = len(starts) - 1
    counts["fragments_written"] = len(order)
    counts["classes_singleton"] = int((np.diff(starts) == 1).sum())   # a self-pair's component
    counts["fragments_duplicate_in_class"] = 0
    notes = prep.notes + [f"--pairs-clustering components: {int(cls.max()) + 1 if n else 0} pairs -> "
                          f"{len(starts) - 1} classes of {len(order)} distinct fragments"]
    return PreparedClasses(names=[prep.names[cls[h]] for h in heads.tolist()], starts=starts,
                           file=[prep.file[i] for i in order.tolist()], onset=prep.onset[order],
                           offset=prep.offset[order], line=prep.line[order], fmt=prep.fmt, counts=counts,
                           discarded=prep.discarded, notes=notes)
