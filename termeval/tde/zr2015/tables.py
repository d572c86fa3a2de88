"""details/per_file.tsv and per_speaker.tsv of a zr2015 / zr2017 run (termeval/tde/tables.py: the layout)."""
from __future__ import annotations

import os

import numpy as np

from termeval.core.textio import atomic_write
from termeval.tde.tables import COUNTS, metrics, table_text
from termeval.tde.zr2015.units import COLUMNS, SETS, build


ZR2015_COLUMNS = ("cov_num", "cov_den", "tok_hit", "tok_disc", "tok_gold", "type_hit", "type_seen", "type_gold",
                  "bnd_dhit", "bnd_disc", "bnd_ghit", "bnd_gold")


def zr2015_tables(details_dir: str, info: dict, packed_units: dict, values: dict, benchmark: str) -> None:
    """The tables of a zr2015/zr2017 run from its fold statistics (`info`: the prepared run's
    unit_ids and nfolds; `packed_units[set][fold]`: termeval.tde.zr2015.units.pack of each fold):
    counts of each file summed over the folds of the set; per_file.tsv/per_speaker.tsv for the
    cross-speaker folds, per_file_within.tsv/per_speaker_within.tsv for the within-speaker ones.
    The scores are means of per-fold values, so TOTAL shows the reported `cross_`/`within_`
    scores next to the summed counts (with one fold, --folds none, they are the ratios of the
    counts)."""
    ui = info.get("unit_ids")
    if ui is None:
        return
    cols = [COLUMNS["file"].index(c) for c in ZR2015_COLUMNS]
    files = list(ui["files"])
    spk_ids, owner = np.unique(np.asarray(ui["speakers"], dtype=str), return_inverse=True)
    for s in SETS:
        packed = [(packed_units[s].get(i) or {}).get("file") for i in range(info["nfolds"][s])]
        t = build("file", "file", files, np.arange(len(files)), {s: packed}, benchmark)
        X = t.X[s].sum(axis=1)[:, cols]                     # files x columns, summed over folds
        S = np.zeros((len(spk_ids), X.shape[1]))
        np.add.at(S, owner.ravel(), X)
        total = dict(zip(COUNTS, X.sum(axis=0).tolist()))
        scores = {k: values.get(f"{s}_{k}") for k in metrics(total)}
        suffix = "" if s == "cross" else "_within"
        for name, key, ids, M in ((f"per_file{suffix}.tsv", "file", files, X),
                                  (f"per_speaker{suffix}.tsv", "speaker", spk_ids.tolist(), S)):
            with atomic_write(os.path.join(details_dir, name)) as f:
                f.write(table_text(key, ids, M, total, scores))
