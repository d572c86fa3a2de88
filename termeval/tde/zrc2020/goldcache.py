"""The parsed gold data dir of a zrc2020 run: parsed once per process, kept on disk per exp dir.

Parsing the text data dir is the expensive part of reading it. `load` keeps
  * a process-level memo (the Python API scoring many systems against the same gold in one
    process parses it once), and
  * <exp-dir>/tde/gold.npz (the arrays, for later runs and for --nj jobs), and
  * the user's store <cache>/gold/<key>-<code>.npz (termeval.core.usercache; the STORE_ENTRIES
    newest kept): a new exp dir scored against a gold parsed before (many systems, one gold)
    reads the arrays; <code> is a digest of the parsing code, so other code makes other entries,
all keyed on a digest of the CONTENTS of the data dir's files (termeval.core.digest.content_digest),
never on paths or modification times: an edited data dir is always parsed afresh, even when
rewritten with the same size within the same second. A saved file records a digest of its
arrays: one with the right key that fails it, or whose counts and shapes disagree, is not
used (a `note:` line; the data dir is parsed again). The store removes only its own entries
(`<key>-<code>.npz`), never another file of its directory.
"""
from __future__ import annotations

import os
import re
import shutil
import zipfile

import numpy as np

from termeval.core import usercache
from termeval.core.arraydir import array_digest
from termeval.core.datadir import Gold, Tier, empty_tier, load_gold
from termeval.core.digest import content_digest
from termeval.core.textio import atomic_write
from termeval.core.warn import note

FILES = ("phones", "words", "reco2dur", "utt2spk")
MEMO_SIZE = 4
STORE = "gold"          # usercache.root(STORE)
STORE_ENTRIES = 4
STORE_NAME = re.compile(r"[0-9a-f]{32}-[0-9a-f]{16}\.npz")     # <key>-<code>.npz: all the store ever removes
_memo: dict[str, Gold] = {}


def stamp(data_dir: str) -> str:
    """Identity of a data dir's contents."""
    return content_digest([os.path.join(data_dir, name) for name in FILES])


TIER_ARRAYS = ("file", "onset", "offset", "label", "starts")


def save(gold: Gold, path: str, key: str | None = None) -> None:
    arrays = {"files": np.array(gold.files, dtype=str), "speaker": np.array(gold.speaker, dtype=str),
              "duration": np.asarray(gold.duration)}
    for tier in ("phones", "words"):
        t = getattr(gold, tier)
        arrays.update({f"{tier}_{k}": np.asarray(getattr(t, k)) for k in TIER_ARRAYS})
        arrays[f"{tier}_labels"] = np.array(t.labels, dtype=str)
    arrays.update(stamp=np.array(key or stamp(gold.path)), digest=np.array(array_digest(arrays)))
    with atomic_write(path, "wb") as f:
        np.savez(f, **arrays)


def _consistent(a: dict) -> str | None:
    """What is wrong with the arrays of a saved gold (None: nothing): every count and shape."""
    n = len(a["files"])
    if a["files"].ndim != 1 or a["speaker"].shape != (n,) or a["duration"].shape != (n,):
        return "files, speakers and durations differ in number"
    for tier in ("phones", "words"):
        t = {k: a[f"{tier}_{k}"] for k in TIER_ARRAYS}
        m = len(t["file"])
        if any(t[k].shape != (m,) for k in ("file", "onset", "offset", "label")) or t["starts"].shape != (n + 1,):
            return f"the {tier} arrays differ in length"
        if m and (t["file"].min() < 0 or t["file"].max() >= n or t["label"].min() < 0
                  or t["label"].max() >= len(a[f"{tier}_labels"])):
            return f"the {tier} index a file or label that does not exist"
        if t["starts"][0] != 0 or t["starts"][-1] != m or np.any(np.diff(t["starts"]) < 0):
            return f"the {tier} file boundaries do not cover the intervals"
    return None


def _read(path: str, key: str, data_dir: str, words: bool = True) -> Gold | None:
    """The gold saved at `path` for the content `key`; None when it was saved for other
    content or by an older termeval (silently), or fails its check (truncated, other shapes,
    not the digest it was saved with: a `note:` line): then the caller parses the data dir."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if str(z["stamp"]) != key:
                return None
            if "digest" not in z.files:
                return None                   # written by an older termeval: made again
            a = {k: z[k] for k in z.files if k not in ("stamp", "digest")}
            why = ("not the arrays it was saved with" if array_digest(a) != str(z["digest"])
                   else _consistent(a))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        why = f"unreadable ({type(e).__name__})"
    if why is not None:
        note(None, f"{path}: saved parsed gold fails its check ({why}): parsed again")
        return None
    files = a["files"].tolist()
    tiers = {tier: Tier(file=a[f"{tier}_file"], onset=a[f"{tier}_onset"], offset=a[f"{tier}_offset"],
                        label=a[f"{tier}_label"], labels=a[f"{tier}_labels"].tolist(), starts=a[f"{tier}_starts"])
             for tier in ("phones", "words") if tier == "phones" or words}
    tiers.setdefault("words", empty_tier(len(files)))
    return Gold(files=files, file_index={f: i for i, f in enumerate(files)}, phones=tiers["phones"],
                words=tiers["words"], speaker=a["speaker"].tolist(), duration=a["duration"], path=data_dir)


def load(data_dir: str, path: str | None, words: bool = True) -> tuple[Gold, str, bool]:
    """(the gold of `data_dir`, its content key, whether it was parsed from text now). `path`:
    the exp dir's cache file (None: no cache on disk, the memo only). words=False: the words
    tier may be left empty when read from the cache (a zrc2020 job transcribes, nothing more;
    such a gold is not memoised)."""
    key = stamp(data_dir)
    gold = _memo.get(key)
    if gold is not None:
        return gold, key, False
    gold = _read(path, key, data_dir, words) if path and os.path.isfile(path) else None
    store = _store_path(key)
    if gold is None and store is not None and os.path.isfile(store):
        gold = _read(store, key, data_dir, words)
        if gold is not None and path:           # the exp dir's copy, as a parse would have left
            _copy(store, path)
    if gold is not None and not words:
        return gold, key, False
    parsed = gold is None
    if parsed:
        gold = load_gold(data_dir)
        if store is not None:
            _keep(gold, store, key)
    while len(_memo) >= MEMO_SIZE:
        _memo.pop(next(iter(_memo)))
    _memo[key] = gold
    return gold, key, parsed


def forget(gold: Gold) -> None:
    """Drop `gold` from the process memo (a lean merge is about to empty some of its arrays)."""
    for k in [k for k, v in _memo.items() if v is gold]:
        del _memo[k]


def _store_path(key: str) -> str | None:
    root = usercache.root(STORE)
    return None if root is None else os.path.join(root, f"{key}-{usercache.code_key('core', 'tde/zrc2020')[:16]}.npz")


def _copy(src: str, dest: str) -> None:
    """A copy of a cache file (written whole or not at all; a failure leaves no copy)."""
    try:
        with open(src, "rb") as f, atomic_write(dest, "wb") as g:
            shutil.copyfileobj(f, g)
    except OSError:
        pass


def _keep(gold: Gold, store: str, key: str) -> None:
    """`gold` into the user's store (nothing when it cannot be written: only a cache)."""
    try:
        save(gold, store, key)
    except OSError:
        return
    usercache.prune(os.path.dirname(store), STORE_NAME, STORE_ENTRIES)
