"""Per-unit statistics of the zrc2020 (tdev2) metrics, for termeval.bootstrap.

Two tables (docs/uncertainty.md):
  class   (discovered classes; pairs live inside classes): NED sum and pairs, and the grouping
          counts of the class members (F: in a class of >= 2, I: has a same-string
          non-overlapping partner in the class, G: has one anywhere).
  file / speaker (recordings or their speakers): coverage, token, type and boundary counts,
          and NED and grouping allocated to files (used as the paired unit by
          steps/compare_systems.sh, since classes differ between systems).
Exactly decomposable: NED per class, coverage, token and boundary counts per file/speaker, NED
pairs per file. Surrogates (the interval is centred on the exact value, engine docstring):
grouping counts members instead of distinct token keys; type counts distinct strings per
unit, so the summed type denominators exceed the corpus-wide distinct counts; NED per file
gives each file a share of the class NED sum proportional to its members.

Shards emit the per-class arrays and the kept fragments (class key, file, times, I flag); the
merge orders them by class key (the class order), so the tables do not depend on --nj.
"""
from __future__ import annotations

import numpy as np

from termeval.bootstrap.engine import UnitStats, bootstrap_ci
from termeval.bootstrap.units import save_units, units_path
from termeval.core.distinct import distinct, distinct_per_group
from termeval.tde.zrc2020.coverage import covered_mask, speech_mask

CLASS_COLUMNS = ["ned_sum", "ned_pairs", "grp_F", "grp_I", "grp_G"]
FILE_COLUMNS = ["cov_hit", "cov_n", "tok_hit", "tok_n", "tok_gold", "type_hit", "type_seen",
                "type_gold", "bnd_hit", "bnd_disc", "bnd_gold"] + CLASS_COLUMNS
GROUPING = {"grouping_precision": ("ratio", "grp_I", "grp_F"),
            "grouping_recall": ("ratio", "grp_I", "grp_G"),
            "grouping_fscore": ("fscore", "grouping_precision", "grouping_recall")}
CLASS_METRICS = {"ned": ("ratio", "ned_sum", "ned_pairs"), **GROUPING}
FILE_METRICS = {
    "coverage": ("ratio", "cov_hit", "cov_n"),
    "type_precision": ("ratio", "type_hit", "type_seen"), "type_recall": ("ratio", "type_hit", "type_gold"),
    "type_fscore": ("fscore", "type_precision", "type_recall"),
    "token_precision": ("ratio", "tok_hit", "tok_n"), "token_recall": ("ratio", "tok_hit", "tok_gold"),
    "token_fscore": ("fscore", "token_precision", "token_recall"),
    "boundary_precision": ("ratio", "bnd_hit", "bnd_disc"), "boundary_recall": ("ratio", "bnd_hit", "bnd_gold"),
    "boundary_fscore": ("fscore", "boundary_precision", "boundary_recall"),
    **CLASS_METRICS}
SHARD_FIELDS = ("key", "ned_sum", "n_kept", "k_cls", "k_row", "k_I")
# file columns that are counts (exact in float64 whatever the order): a speaker's is the sum
# of its files'; the others (NED shares, distinct types) are computed per unit
ADDITIVE = [c for c in FILE_COLUMNS if c not in ("ned_sum", "type_hit", "type_seen", "type_gold")]


def shard_units(keys: list[str], ned_per_cluster: np.ndarray, n_c: np.ndarray, kc: np.ndarray,
                row: np.ndarray, I: np.ndarray) -> dict:
    """What a shard keeps for the tables: per class (key, NED sum, kept members) and per kept
    fragment (class index in the shard, row in the shard's distinct fragment table, I flag)."""
    return {"key": np.asarray(keys, dtype=str), "ned_sum": np.asarray(ned_per_cluster, np.float64),
            "n_kept": np.asarray(n_c, np.int64), "k_cls": kc.astype(np.int32 if len(n_c) < 2 ** 31 else np.int64),
            "k_row": row.astype(np.int32 if len(row) < 2 ** 31 else np.int64), "k_I": I.astype(bool)}


def merged_rows(shards, sizes: list[int], rows: np.ndarray) -> np.ndarray:
    """Row in the merged distinct fragment table of each kept fragment of the shards (in shard
    order), from each shard's rows in its own table (`sizes`: rows of each shard's table) and
    `rows` (stats.dedupe_fragments' inverse: the merged row of each row of the shard tables
    concatenated)."""
    out, base = [], 0
    for s, n in zip(shards, sizes):
        if s.units:
            out.append(rows[base + s.units["k_row"].astype(np.int64)])
        base += n
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def _per_file(ph, mask: np.ndarray) -> np.ndarray:
    """Per file, the number of phones where `mask` is set (phones are in file order)."""
    return np.array([np.count_nonzero(mask[a:b]) for a, b in zip(ph.starts[:-1].tolist(), ph.starts[1:].tolist())],
                    dtype=np.float64)


def all_tables(corpus, shards, parts: dict) -> dict:
    """The class, file and speaker tables (UnitStats by unit name) from the shards and the
    merge's intermediate arrays, sharing what the units have in common."""
    gold, ph = corpus.gold, corpus.phones
    sh = [s.units for s in shards if s.units]
    offs = np.cumsum([0] + [len(s["key"]) for s in sh])
    keys = np.concatenate([s["key"] for s in sh]) if sh else np.zeros(0, dtype=str)
    ned_sum, n_kept = (np.concatenate([s[k] for s in sh]) if sh else np.zeros(0) for k in ("ned_sum", "n_kept"))
    kc = np.concatenate([s["k_cls"].astype(np.int64) + o for s, o in zip(sh, offs)]) if sh else np.zeros(0, np.int64)
    kI = np.concatenate([s["k_I"] for s in sh]) if sh else np.zeros(0, bool)
    nc = len(keys)
    u, G, row = parts["u"], parts["G"], parts["row"]
    kG = G[row] if len(row) else np.zeros(0, bool)
    n_c = n_kept.astype(np.float64)
    kF = n_c[kc] >= 2
    pairs = n_c * (n_c - 1) / 2
    cls_X = np.c_[ned_sum, pairs, np.bincount(kc, weights=kF, minlength=nc),
                  np.bincount(kc, weights=kI.astype(float), minlength=nc),
                  np.bincount(kc, weights=kG.astype(float), minlength=nc)]
    del kF, kI, kG
    order = np.argsort(keys, kind="stable")       # class keys sort in class order
    out = {"class": UnitStats("class", keys[order].tolist(), CLASS_COLUMNS, cls_X[order], dict(CLASS_METRICS))}

    nf = len(gold.files)
    kf = u["file"][row].astype(np.int64) if len(row) else np.zeros(0, np.int64)
    ned_share, pair_share = (ned_sum / np.maximum(n_c, 1))[kc], ((n_c - 1) / 2)[kc]
    del kc

    def per(file_idx, w=None):
        return np.bincount(file_idx, weights=w, minlength=nf).astype(np.float64)

    speech = speech_mask(ph)
    cov = covered_mask(len(ph), u["k0"], u["k1"]) & speech
    nid, hit, file = parts["nid"], parts["hit"], u["file"]
    wfile = parts["word_file"].astype(np.int64)
    counts = {"cov_hit": _per_file(ph, cov), "cov_n": _per_file(ph, speech),
              "tok_hit": parts["tok_hit"], "tok_n": per(file), "tok_gold": per(wfile),
              "bnd_hit": parts["bnd_hit"], "bnd_disc": parts["bnd_disc"], "bnd_gold": parts["bnd_gold"],
              "ned_pairs": per(kf, pair_share),
              "grp_F": per(file, u["F"].astype(float)), "grp_I": per(file, u["I"].astype(float)),
              "grp_G": per(file, G.astype(float))}
    del cov, speech, pair_share
    spk_ids, spk_of = np.unique(np.asarray(gold.speaker, dtype=str), return_inverse=True)
    for unit, ids, fu in (("file", list(gold.files), np.arange(nf)), ("speaker", spk_ids.tolist(), spk_of.ravel())):
        fu = np.asarray(fu, np.int64)
        nu = len(ids)
        ff = fu[file] if len(file) else np.zeros(0, np.int64)
        cols = {"ned_sum": np.bincount(fu[kf], weights=ned_share, minlength=nu).astype(np.float64),
                "type_hit": distinct_per_group(ff[hit], nid[hit], nu), "type_seen": distinct_per_group(ff, nid, nu),
                "type_gold": distinct_per_group(fu[wfile], parts["word_label"], nu)}
        del ff
        for c in ADDITIVE:
            cols[c] = counts[c] if unit == "file" else np.bincount(fu, weights=counts[c], minlength=nu)
        X = np.column_stack([np.asarray(cols[c], np.float64) for c in FILE_COLUMNS]) if nu else np.zeros((0, len(FILE_COLUMNS)))
        out[unit] = UnitStats(unit, ids, FILE_COLUMNS, X, dict(FILE_METRICS))
    return out


def tables(corpus, shards, parts: dict, unit: str = "file") -> tuple[UnitStats, UnitStats]:
    """(class table, file or speaker table) from the shards and the merge's intermediate arrays
    (or the tables the merge already built: parts["tables"])."""
    if "tables" not in parts:
        parts["tables"] = all_tables(corpus, shards, parts)
    return parts["tables"]["class"], parts["tables"][unit]


def save_and_bootstrap(exp_dir: str, corpus, shards, parts: dict, scores: dict, n: int, seed: int,
                       level: float, unit: str = "file") -> dict:
    """Write units/units.tde_class.npz and units.tde_file.npz (and units.tde_speaker.npz for
    --bootstrap-unit speaker); return the CIs (empty without resampling): NED and grouping
    over classes, the other metrics over files or speakers."""
    cls, files = tables(corpus, shards, parts, "file")
    used = files
    if unit == "speaker":
        used = tables(corpus, shards, parts, "speaker")[1]
    for t in {id(cls): cls, id(files): files, id(used): used}.values():
        t.exact = {k: scores.get(k) for k in t.metrics}
        save_units(units_path(exp_dir, "tde_" + t.unit), t)
    if n <= 0:
        return {}
    ci = {k: v for k, v in bootstrap_ci(used, n, seed, level).items() if k not in CLASS_METRICS}
    ci.update(bootstrap_ci(cls, n, seed, level))
    return ci
