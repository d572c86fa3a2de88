"""The parsed gold data dir of a zrc2020 run, kept as one binary file under <exp-dir>/tde.

tde_stats parses the text data dir (the expensive part of reading it) and leaves the arrays in
<exp-dir>/tde/gold.npz; tde_merge loads them instead of parsing the text again. The file
records the path, size and modification time of the data dir's files and is used only when
they all still match, so an edited or different data dir is always parsed afresh.
"""
from __future__ import annotations

import json
import os

import numpy as np

from termeval.data import Gold, Tier, load_gold
from termeval.textio import atomic_write

FILES = ("phones", "words", "reco2dur", "utt2spk")


def stamp(data_dir: str) -> str:
    """Identity of a data dir for the cache: real path, then size and mtime of each file."""
    parts = [os.path.realpath(data_dir)]
    for name in FILES:
        st = os.stat(os.path.join(data_dir, name))
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return json.dumps(parts)


def save(gold: Gold, path: str) -> None:
    arrays = {"stamp": np.array(stamp(gold.path)), "files": np.array(gold.files, dtype=str),
              "speaker": np.array(gold.speaker, dtype=str), "duration": gold.duration}
    for tier in ("phones", "words"):
        t = getattr(gold, tier)
        arrays.update({f"{tier}_{k}": getattr(t, k) for k in ("file", "onset", "offset", "label", "starts")})
        arrays[f"{tier}_labels"] = np.array(t.labels, dtype=str)
    with atomic_write(path, "wb") as f:
        np.savez(f, **arrays)


def load(data_dir: str, path: str) -> tuple[Gold, bool]:
    """(the gold of `data_dir`, whether it came from the cache at `path`): cached arrays when
    the cache matches the data dir, else the parsed text."""
    if os.path.isfile(path):
        with np.load(path, allow_pickle=False) as z:
            if str(z["stamp"]) == stamp(data_dir):
                files = z["files"].tolist()
                tiers = {tier: Tier(file=z[f"{tier}_file"], onset=z[f"{tier}_onset"],
                                    offset=z[f"{tier}_offset"], label=z[f"{tier}_label"],
                                    labels=z[f"{tier}_labels"].tolist(), starts=z[f"{tier}_starts"])
                         for tier in ("phones", "words")}
                return Gold(files=files, file_index={f: i for i, f in enumerate(files)},
                            phones=tiers["phones"], words=tiers["words"],
                            speaker=z["speaker"].tolist(), duration=z["duration"],
                            path=data_dir), True
    return load_gold(data_dir), False
