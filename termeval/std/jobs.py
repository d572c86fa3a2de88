"""Splitting STD and QUESST scoring into jobs (score_std.sh / score_quesst.sh --nj N).

The expensive per-unit work is independent per term (STD: the alignment of each (term, file,
channel) group) or per query (QUESST: the maximum score of each (query, document) pair), so
job J of N handles one contiguous range of terms/queries and writes its result to
`<exp>/<stage>/<name>.J.npz`; the merge step re-reads the inputs, loads the N job files and
runs the rest of the scoring exactly as a single process does. The ranges depend only on
the inputs, so every job and the merge compute the same split, and the merge refuses job
files written for another split or other inputs (stale files of an earlier run).
"""
from __future__ import annotations

import json
import os

import numpy as np

from termeval.errors import InputError
from termeval.textio import atomic_write


def balanced_ranges(cost: np.ndarray, nj: int) -> list[tuple[int, int]]:
    """nj contiguous ranges [lo, hi) of the units 0..len(cost)-1 with about equal total cost
    (some ranges are empty when there are fewer units than jobs)."""
    if nj < 1:
        raise InputError(f"--nj must be >= 1, got {nj}")
    n = len(cost)
    cum = np.cumsum(np.asarray(cost, np.float64) + 1.0)  # + 1: a unit costs something anyway
    cuts = np.searchsorted(cum, cum[-1] * np.arange(1, nj) / nj, side="left") + 1 if n else np.zeros(nj - 1, np.int64)
    bounds = np.maximum.accumulate(np.r_[0, np.minimum(cuts, n), n].astype(np.int64))
    return [(int(lo), int(hi)) for lo, hi in zip(bounds[:-1], bounds[1:])]


def job_path(exp_dir: str, stage: str, name: str, job: int) -> str:
    return os.path.join(exp_dir, stage, f"{name}.{job}.npz")


def save_job(path: str, meta: dict, arrays: dict[str, np.ndarray]) -> None:
    """One job's result: arrays + the metadata the merge checks (split, range, input sizes)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with atomic_write(path, "wb") as f:
        np.savez(f, meta=np.asarray(json.dumps(meta)), **arrays)  # key order kept (stats)


def load_job(path: str, expect: dict) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of a job file whose metadata agrees with `expect` (key by key)."""
    if not os.path.isfile(path):
        raise InputError("job output not found (did the job run? see its log)", path)
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            arrays = {k: z[k] for k in z.files if k != "meta"}
    except (OSError, ValueError, KeyError) as e:
        raise InputError(f"unreadable job output ({e})", path) from None
    for k, v in expect.items():
        if meta.get(k) != v:
            raise InputError(f"job output of another run ({k} = {meta.get(k)!r}, expected {v!r}); "
                             "re-run the jobs", path)
    return meta, arrays


# ----------------------------------------------------------------------------- STD

def std_ranges(prep, nj: int) -> list[tuple[int, int]]:
    """Term ranges balanced by scored detections + references (termeval.std.score.Prepared)."""
    Q = prep.n_terms
    cost = np.bincount(prep.dterm[prep.di], minlength=Q) + np.bincount(prep.kws.occ.term[prep.ri], minlength=Q)
    return balanced_ranges(cost, nj)


def _std_expect(prep, nj: int) -> dict:
    return {"stage": "std", "nj": nj, "n_terms": prep.n_terms, "n_scored_detections": int(len(prep.di)),
            "n_scored_references": int(len(prep.ri)), "align": prep.params.align,
            "tolerance": prep.params.tolerance}


def run_std_job(prep, exp_dir: str, nj: int, job: int) -> str:
    """Align job `job`'s term range; write <exp>/std/align.<job>.npz (global detection and
    reference indices of the aligned pairs, solver stats). Returns the path."""
    from termeval.std.score import align_terms
    if not 1 <= job <= nj:
        raise InputError(f"--job must lie in 1..{nj}, got {job}")
    lo, hi = std_ranges(prep, nj)[job - 1]
    ali = align_terms(prep, lo, hi)
    path = job_path(exp_dir, "std", "align", job)
    meta = {**_std_expect(prep, nj), "job": job, "lo": lo, "hi": hi, "stats": ali.stats}
    save_job(path, meta, {"det": ali.det, "ref": ali.ref})
    return path


def merge_std_jobs(prep, exp_dir: str, nj: int):
    """The alignment of all terms from the nj job files: pairs concatenated in job (= term)
    order, stats summed (`hungarian_max_size`: the maximum), as one process finds them."""
    from termeval.std.score import Alignment
    det, ref, stats = [], [], {}
    for job, (lo, hi) in enumerate(std_ranges(prep, nj), 1):
        meta, a = load_job(job_path(exp_dir, "std", "align", job),
                           {**_std_expect(prep, nj), "job": job, "lo": lo, "hi": hi})
        det.append(a["det"])
        ref.append(a["ref"])
        for k, v in meta["stats"].items():
            stats[k] = max(stats.get(k, 0), v) if k.endswith("_max_size") else stats.get(k, 0) + v
    return Alignment(np.concatenate(det).astype(np.int64), np.concatenate(ref).astype(np.int64), stats)


# ----------------------------------------------------------------------------- QUESST

def quesst_ranges(ref, m, nj: int) -> list[tuple[int, int]]:
    """Reference query ranges balanced by detections (quesst_io.Reference, quesst_io.Mapped)."""
    return balanced_ranges(np.bincount(m.query, minlength=len(ref.query_ids)), nj)


def _quesst_expect(ref, m, nj: int) -> dict:
    return {"stage": "quesst", "nj": nj, "n_queries": len(ref.query_ids), "n_documents": len(ref.doc_ids),
            "n_detections": int(len(m.query))}


def run_quesst_job(ref, m, exp_dir: str, nj: int, job: int) -> str:
    """Reduce job `job`'s queries to one (max) score per (query, document) pair; write
    <exp>/quesst/pairs.<job>.npz. Returns the path."""
    from termeval.quesst.quesst_io import reduce_queries
    if not 1 <= job <= nj:
        raise InputError(f"--job must lie in 1..{nj}, got {job}")
    lo, hi = quesst_ranges(ref, m, nj)[job - 1]
    keys, sc, dc = reduce_queries(m, len(ref.doc_ids), lo, hi)
    path = job_path(exp_dir, "quesst", "pairs", job)
    save_job(path, {**_quesst_expect(ref, m, nj), "job": job, "lo": lo, "hi": hi},
             {"keys": keys, "score": sc, "decision": dc})
    return path


def merge_quesst_jobs(ref, m, exp_dir: str, nj: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reduced pairs of all queries: the jobs' in job order (keys stay ascending)."""
    parts = [load_job(job_path(exp_dir, "quesst", "pairs", job),
                      {**_quesst_expect(ref, m, nj), "job": job, "lo": lo, "hi": hi})[1]
             for job, (lo, hi) in enumerate(quesst_ranges(ref, m, nj), 1)]
    return (np.concatenate([a["keys"] for a in parts]).astype(np.int64),
            np.concatenate([a["score"] for a in parts]).astype(np.float64),
            np.concatenate([a["decision"] for a in parts]).astype(bool))
