"""details/per_file.tsv and per_speaker.tsv of a zrc2020 run (termeval/tde/tables.py: the layout)."""
from __future__ import annotations

from termeval.tde.tables import COUNTS, write_tables
from termeval.tde.zrc2020.units import tables


# termeval.tde.zrc2020.units FILE_COLUMNS -> the generic count columns
ZRC2020_COLUMNS = ("cov_hit", "cov_n", "tok_hit", "tok_n", "tok_gold", "type_hit", "type_seen", "type_gold",
                   "bnd_hit", "bnd_disc", "bnd_hit", "bnd_gold")


def zrc2020_tables(details_dir: str, corpus, shards, parts: dict, counts: dict) -> None:
    """The two tables of a zrc2020 run from the merge's intermediate arrays (the unit tables
    of termeval.tde.zrc2020.units, by file and by speaker); TOTAL's metrics are computed from the
    corpus counts (equal to the reported scores: tests/test_tde_tables.py)."""
    out = []
    for unit in ("file", "speaker"):
        t = tables(corpus, shards, parts, unit)[1]
        idx = [t.columns.index(c) for c in ZRC2020_COLUMNS]
        out.append((t.ids, t.X[:, idx]))
    X = out[0][1]
    total = dict(zip(COUNTS, X.sum(axis=0).tolist()))
    total.update(type_hit=counts["type_hits"], type_discovered=counts["types_seen"], type_gold=counts["gold_types"])
    write_tables(details_dir, out[0], out[1], total)
