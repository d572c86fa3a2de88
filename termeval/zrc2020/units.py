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

from termeval.bootstrap.engine import UnitStats
from termeval.zrc2020.coverage import covered_mask, speech_mask

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
SHARD_FIELDS = ("key", "ned_sum", "n_kept", "k_cls", "k_file", "k_on", "k_off", "k_I")


def shard_units(keys: list[str], ned_per_cluster: np.ndarray, n_c: np.ndarray, kc: np.ndarray,
                kf: np.ndarray, ka: np.ndarray, kb: np.ndarray, I: np.ndarray) -> dict:
    """What a shard keeps for the tables: per class (key, NED sum, kept members) and per kept
    fragment (class index in the shard, file, onset, offset, I flag)."""
    return {"key": np.asarray(keys, dtype=str), "ned_sum": np.asarray(ned_per_cluster, np.float64),
            "n_kept": np.asarray(n_c, np.int64), "k_cls": kc.astype(np.int64), "k_file": kf.astype(np.int64),
            "k_on": ka, "k_off": kb, "k_I": I.astype(bool)}


def _locate(uf, ua, ub, f, a, b) -> np.ndarray:
    """Row of each (f, a, b) in the distinct table (uf, ua, ub), sorted by (file, onset,
    offset) as dedupe_fragments leaves it, which contains all of them."""
    n = len(uf)
    tag = np.r_[np.zeros(n, np.int8), np.ones(len(f), np.int8)]
    order = np.lexsort((tag, np.r_[ub, b], np.r_[ua, a], np.r_[uf, f]))
    row = np.cumsum(order < n) - 1       # table rows so far = index of the equal table row
    out = np.empty(len(f), dtype=np.int64)
    q = order >= n
    out[order[q] - n] = row[q]
    return out


def _distinct_per_unit(unit: np.ndarray, key: np.ndarray, n_units: int) -> np.ndarray:
    """Number of distinct keys per unit."""
    if not len(key):
        return np.zeros(n_units)
    pairs = np.unique(unit.astype(np.int64) * (int(key.max()) + 1) + key)
    return np.bincount(pairs // (int(key.max()) + 1), minlength=n_units).astype(np.float64)


def tables(corpus, shards, parts: dict, unit: str = "file") -> tuple[UnitStats, UnitStats]:
    """(class table, file or speaker table) from the shards and the merge's intermediate arrays."""
    gold, ph = corpus.gold, corpus.phones
    sh = [s.units for s in shards if s.units]
    cat = {k: [s[k] for s in sh] for k in SHARD_FIELDS}
    offs = np.cumsum([0] + [len(k) for k in cat["key"]])
    keys = np.concatenate(cat["key"]) if sh else np.zeros(0, dtype=str)
    ned_sum, n_kept = (np.concatenate(cat[k]) if sh else np.zeros(0) for k in ("ned_sum", "n_kept"))
    kc = np.concatenate([c + o for c, o in zip(cat["k_cls"], offs)]) if sh else np.zeros(0, np.int64)
    kf, ka, kb, kI = (np.concatenate(cat[k]) if sh else np.zeros(0) for k in ("k_file", "k_on", "k_off", "k_I"))
    kf = kf.astype(np.int64)
    nc = len(keys)
    u, G = parts["u"], parts["G"]
    row = _locate(u["file"].astype(np.int64), u["onset"], u["offset"], kf, ka, kb)
    kG = G[row] if len(row) else np.zeros(0, bool)
    n_c = n_kept.astype(np.float64)
    kF = n_c[kc] >= 2
    pairs = n_c * (n_c - 1) / 2
    cls_X = np.c_[ned_sum, pairs, np.bincount(kc, weights=kF, minlength=nc),
                  np.bincount(kc, weights=kI.astype(float), minlength=nc),
                  np.bincount(kc, weights=kG.astype(float), minlength=nc)]
    order = np.argsort(keys, kind="stable")       # class keys sort in class order
    cls = UnitStats("class", keys[order].tolist(), CLASS_COLUMNS, cls_X[order], dict(CLASS_METRICS))

    # file -> unit index
    if unit == "speaker":
        ids, fu = np.unique(np.asarray(gold.speaker, dtype=str), return_inverse=True)
    else:
        ids, fu = np.asarray(gold.files, dtype=str), np.arange(len(gold.files))
    ids, fu, nu = ids.tolist(), np.asarray(fu, np.int64), len(ids)

    def per(file_idx, w=None):
        return np.bincount(fu[np.asarray(file_idx, np.int64)], weights=w, minlength=nu).astype(np.float64)

    speech = speech_mask(ph)
    cov = covered_mask(len(ph), parts["k0"], parts["k1"]) & speech
    words, tt, nid = parts["words"], parts["tt"], parts["nid"]
    file = u["file"].astype(np.int64)
    hit, chosen = tt["hit"], tt["chosen"]
    hw = np.unique(chosen[hit])
    pf, disc, goldp, bhit = parts["boundary_points"]
    fufile = fu[file] if len(file) else np.zeros(0, np.int64)
    X = np.c_[per(ph.file, cov.astype(float)), per(ph.file, speech.astype(float)),
              per(words.file[hw]), per(file), per(words.file),
              _distinct_per_unit(fufile[hit], nid[hit], nu), _distinct_per_unit(fufile, nid, nu),
              _distinct_per_unit(fu[words.file.astype(np.int64)], words.label.astype(np.int64), nu),
              per(pf, bhit.astype(float)), per(pf, disc.astype(float)), per(pf, goldp.astype(float)),
              per(kf, (ned_sum / np.maximum(n_c, 1))[kc]), per(kf, ((n_c - 1) / 2)[kc]),
              per(file, u["F"].astype(float)), per(file, u["I"].astype(float)), per(file, G.astype(float))]
    return cls, UnitStats(unit, ids, FILE_COLUMNS, X, dict(FILE_METRICS))


def save_and_bootstrap(exp_dir: str, corpus, shards, parts: dict, scores: dict, n: int, seed: int,
                       level: float, unit: str = "file") -> dict:
    """Write units/units.tde_class.npz and units.tde_file.npz (and units.tde_speaker.npz for
    --bootstrap-unit speaker); return the CIs (empty without resampling): NED and grouping
    over classes, the other metrics over files or speakers."""
    from termeval.bootstrap.engine import bootstrap_ci
    from termeval.bootstrap.units import save_units, units_path

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
