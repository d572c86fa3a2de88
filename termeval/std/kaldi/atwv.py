"""`--compat kaldi`: the numbers of Kaldi's `compute-atwv` (src/kws/kws-scoring.cc,
src/kwsbin/compute-atwv.cc), reproduced from its source (docs/std-kaldi-compat.md).

* Inputs are its two text archives, `KWID utt start-frame end-frame score` (the kws dir's
  `hitlist`, the system's results), plus its <nof-trials> argument (the kws dir's `trials`).
  The four numbers are read as doubles, then utt/start/end are truncated to int and the
  score rounded to float32, as `KwsTerm` does.
* Alignment: hypotheses in input order; each takes the unused reference of the same
  (utt, KWID) whose integer frame centre ((start + end) / 2, C division) is within
  `max_distance` frames of its own and whose overlap/union (float32) is strictly largest,
  the first one on ties. Greedy, not maximum cardinality.
* Decisions: YES iff score >= score_threshold (float32); YES/NO of the input is ignored.
* TWV per keyword with targets, in float32: P_miss = 1 - corr/targets,
  P_fa = fa / (duration - targets), TWV = 1 - P_miss - beta * P_fa; ATWV/STWV/OTWV are running
  means (float32 result, double intermediate), MTWV the best of the per-threshold running
  means (double) over the float32 grid 0, 0.05, ..., 0.95 (the loop `i <= 1` stops before
  1.0000001).
Keywords are averaged in order of their first event (compute-atwv iterates an
unordered_map: only the last float32 digit can depend on that order).
"""
from __future__ import annotations

import math
import os
import struct
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import iter_lines
from termeval.std import kaldi_refs as kaldi
from termeval.std.score import PRESETS
from termeval.std.xmlsafe import sniff_root

INT32_MAX = 2 ** 31 - 1


def f32(x: float) -> float:
    """Round a double to float32 (correct after one double operation on float32 operands:
    double rounding is innocuous for +, -, *, / since 53 >= 2 * 24 + 2)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def parse_f32(text: str) -> float:
    """C++ `istream >> float` (strtof): the decimal correctly rounded to float32, without the
    double rounding of float32(float(text)). Overflow gives +-inf."""
    d = float(text)
    if not math.isfinite(d) or abs(d) >= 3.4028235677973366e38:  # half-way to 2**128
        return math.copysign(math.inf, d) if not math.isnan(d) else d
    r = f32(d)
    if r != d:
        # d may sit exactly half-way between two float32s only because it was rounded once
        other = float(np.nextafter(np.float32(r), np.float32(math.copysign(np.inf, d - r))))
        if Fraction(d) == (Fraction(r) + Fraction(other)) / 2:
            try:
                exact = Fraction(text.strip())
            except ValueError:
                return r
            if abs(exact - Fraction(other)) < abs(exact - Fraction(r)):
                r = other
    return r


def beta_kaldi(cost_fa: float = 0.1, value_corr: float = 1.0, prior: float = 1e-4) -> float:
    """TwvMetricsOptions::beta(): (float cost/value) * (1.0/prior - 1) in double, as float32."""
    return f32(f32(f32(cost_fa) / f32(value_corr)) * (1.0 / f32(prior) - 1))


def sweep_grid(step: float = 0.05) -> np.ndarray:
    """`for (float i = 0.0; i <= 1; i += step)` in float32: 20 values for step 0.05."""
    out, i, s = [], np.float32(0.0), np.float32(step)
    while i <= 1:
        out.append(i)
        i = np.float32(i + s)
    return np.asarray(out, dtype=np.float32)


@dataclass
class KwsTerms:
    """Rows of a Kaldi archive: kw (codes into kw_ids), utt/start/end (int), score (float32)."""
    kw_ids: list[str]
    kw: np.ndarray
    utt: np.ndarray
    start: np.ndarray
    end: np.ndarray
    score: np.ndarray
    path: str = ""

    def __len__(self) -> int:
        return len(self.kw)


def _to_int(text: str, path: str, lineno: int, what: str) -> int:
    try:
        v = float(text)
    except ValueError:
        raise InputError(f"{what} '{text[:40]}' is not a number", path, lineno) from None
    if not math.isfinite(v) or abs(v) >= INT32_MAX + 1:
        raise InputError(f"{what} '{text[:40]}' is not a finite number in the int32 range", path, lineno)
    return int(v)  # C++ double -> int truncates toward zero


def read_archive(path: str, kw_vocab: dict[str, int], utt_ids: Optional[dict[str, int]] = None) -> KwsTerms:
    """A compute-atwv text archive; `utt_ids` (utt.map: name -> number) turns utterance names
    into the numbers compute-atwv expects; anything else must be a number."""
    kw, utt, st, en, sc = [], [], [], [], []
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) != 5:
            raise InputError(f"expected 'KWID utt start-frame end-frame score' (4 numbers after the "
                             f"key), got {len(f) - 1}", path, lineno)
        kw.append(kw_vocab.setdefault(f[0], len(kw_vocab)))
        u = utt_ids.get(f[1]) if utt_ids else None
        utt.append(u if u is not None else _to_int(f[1], path, lineno, "utterance id"))
        st.append(_to_int(f[2], path, lineno, "start frame"))
        en.append(_to_int(f[3], path, lineno, "end frame"))
        try:
            s = float(f[4])
        except ValueError:
            raise InputError(f"score '{f[4][:40]}' is not a number", path, lineno) from None
        if not math.isfinite(s):
            raise InputError(f"score '{f[4][:40]}' is not a finite number", path, lineno)
        sc.append(s)
    with np.errstate(over="ignore"):
        score = np.asarray(sc, dtype=np.float64).astype(np.float32)  # double -> float, as set_score
    return KwsTerms(list(kw_vocab), np.asarray(kw, np.int64), np.asarray(utt, np.int64),
                    np.asarray(st, np.int64), np.asarray(en, np.int64), score, path)


def read_utt_ids(path: str) -> dict[str, int]:
    """utt.map `utt-name N` -> {name: N}."""
    out: dict[str, int] = {}
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) != 2:
            raise InputError("expected 'utt-name number'", path, lineno)
        out[f[0]] = _to_int(f[1], path, lineno, "utterance number")
    return out


def _centre(s: int, e: int) -> float:
    q = abs(s + e) // 2  # C integer division truncates toward zero
    return f32(float(q if s + e >= 0 else -q))


def align(ref: KwsTerms, hyp: KwsTerms, max_distance: int = 50) -> np.ndarray:
    """KwsTermsAligner::AlignTerms: for each hypothesis (input order) the index of its
    reference or -1. Both archives must share the keyword vocabulary."""
    groups: dict[tuple[int, int], list[int]] = {}
    for j, key in enumerate(zip(ref.utt.tolist(), ref.kw.tolist())):
        groups.setdefault(key, []).append(j)
    rs, re_ = ref.start.tolist(), ref.end.tolist()
    rc = [_centre(s, e) for s, e in zip(rs, re_)]
    used = bytearray(len(ref))
    out = np.full(len(hyp), -1, dtype=np.int64)
    for i, (u, k, hs, he) in enumerate(zip(hyp.utt.tolist(), hyp.kw.tolist(), hyp.start.tolist(),
                                         hyp.end.tolist())):
        cand = groups.get((u, k))
        if not cand:
            continue
        hc = _centre(hs, he)
        best, best_score = -1, -math.inf
        for j in cand:
            if abs(f32(rc[j] - hc)) > max_distance or used[j]:
                continue
            overlap = f32(float(min(re_[j], he) - max(rs[j], hs)))
            join = f32(float(max(re_[j], he) - min(rs[j], hs)))
            if join == 0:
                continue  # 0/0 is NaN in C++, and NaN > best is false
            score = f32(overlap / join)
            if score > best_score:
                best, best_score = j, score
        if best >= 0:
            used[best] = 1
            out[i] = best
    return out


def running_mean_f32(values) -> float:
    """`m = m * k / (k + 1.0) + v / (k + 1.0)` with float m and v (float32 product, double
    division and sum, float32 result)."""
    m = 0.0
    for k, v in enumerate(values):
        m = f32(f32(m * k) / (k + 1.0) + float(v) / (k + 1.0))
    return m


def twv_f32(corr: np.ndarray, fa: np.ndarray, targets: np.ndarray, duration: float, beta: float) -> np.ndarray:
    """Per keyword TWV in float32: 1 - (1 - corr/targets) - beta * fa/(duration - targets)."""
    nt = targets.astype(np.float32)
    pmiss = np.float32(1) - corr.astype(np.float32) / nt
    pfa = fa.astype(np.float32) / (np.float32(duration) - nt)
    return (np.float32(1) - pmiss) - np.float32(beta) * pfa


@dataclass
class KaldiTwv:
    atwv: float
    stwv: float
    mtwv: float
    mtwv_threshold: float
    otwv: float
    n_keywords: int
    n_targets: int
    n_hyps: int
    n_corr: int
    n_fa: int
    n_miss: int
    n_unseen: int
    beta: float
    duration: float
    hyp_ref: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    def lines(self) -> list[str]:
        """compute-atwv's stdout (std::fixed, setprecision(4), its spelling)."""
        return [f"aproximate ATWV = {self.atwv:.4f}", f"aproximate STWV = {self.stwv:.4f}",
                f"aproximate MTWV = {self.mtwv:.4f}", f"aproximate MTWV threshold = {self.mtwv_threshold:.4f}",
                f"aproximate OTWV = {self.otwv:.4f}"]


def compute_atwv(ref: KwsTerms, hyp: KwsTerms, duration: float, beta: float = beta_kaldi(),
                 score_threshold: float = 0.5, max_distance: int = 50, sweep_step: float = 0.05) -> KaldiTwv:
    """TwvMetrics over KwsTermsAligner's alignment (see the module doc)."""
    if not duration > 0:
        raise InputError(f"the duration (number of trials) must be > 0, got {duration}")
    hr = align(ref, hyp, max_distance)
    K = len(ref.kw_ids if len(ref.kw_ids) >= len(hyp.kw_ids) else hyp.kw_ids)
    matched = hr >= 0
    thr = np.float32(score_threshold)
    yes = hyp.score >= thr
    targets = np.bincount(ref.kw, minlength=K)
    seen = np.bincount(hyp.kw[matched], minlength=K)
    corr = np.bincount(hyp.kw[matched & yes], minlength=K)
    fa = np.bincount(hyp.kw[~matched & yes], minlength=K)
    # keyword order: first event (hypotheses in input order, then unmatched references)
    used = np.zeros(len(ref), bool)
    used[hr[matched]] = True
    first = np.r_[hyp.kw, ref.kw[~used]]
    _, pos = np.unique(first, return_index=True)
    order = first[np.sort(pos)]
    order = order[targets[order] > 0]
    twv = twv_f32(corr[order], fa[order], targets[order], duration, beta)
    nt = targets[order].astype(np.float32)
    recall = np.float32(1) - (targets[order] - seen[order]).astype(np.float32) / nt
    grid = sweep_grid(sweep_step)
    # per (keyword, threshold) counts: hypotheses with score >= threshold
    sweep = np.empty((len(order), len(grid)), dtype=np.float32)
    sweep_mean = np.zeros(len(grid))
    otwv_vals = []
    rank = np.full(K, -1)
    rank[order] = np.arange(len(order))
    ge = hyp.score[:, None] >= grid[None, :]
    kr = rank[hyp.kw]
    ok = kr >= 0
    c_sw = np.zeros((len(order), len(grid)), np.int64)
    f_sw = np.zeros((len(order), len(grid)), np.int64)
    np.add.at(c_sw, kr[ok & matched], ge[ok & matched])
    np.add.at(f_sw, kr[ok & ~matched], ge[ok & ~matched])
    for q in range(len(order)):
        sweep[q] = twv_f32(c_sw[q], f_sw[q], np.full(len(grid), targets[order[q]]), duration, beta)
        best = np.float32(-9999)
        for v in sweep[q]:
            if v > best:  # strictly greater: the lowest threshold wins ties
                best = v
        otwv_vals.append(best)
        sweep_mean = sweep[q].astype(np.float64) / (q + 1.0) + sweep_mean * q / (q + 1.0)
    mtwv, mthr = f32(-9999.0), -1.0
    for t, v in zip(grid, sweep_mean):
        if v > mtwv:
            mtwv, mthr = f32(float(v)), float(t)
    n_corr = int(corr[order].sum())
    n_targets = int(targets[order].sum())
    return KaldiTwv(running_mean_f32(twv), running_mean_f32(recall), mtwv, mthr, running_mean_f32(otwv_vals),
                    len(order), n_targets, len(hyp), n_corr, int(fa.sum()), n_targets - n_corr,
                    int((targets - seen)[order].sum()), float(beta), float(duration), hr)


def read_duration(kws_dir: str) -> tuple[float, str]:
    """compute-atwv's <nof-trials>: the kws dir's `trials` (read as a float, like
    ConvertStringToReal), else the sum of utt2dur/reco2dur rounded to float32."""
    p = os.path.join(kws_dir, "trials")
    if os.path.exists(p):
        for lineno, line in iter_lines(p):
            if line.strip():
                tok = line.split()[0]
                try:
                    v = parse_f32(tok)
                except ValueError:
                    raise InputError(f"'{tok[:40]}' is not a number", p, lineno) from None
                if not (math.isfinite(v) and v > 0):
                    raise InputError(f"the number of trials must be a finite number > 0, got '{tok[:40]}'", p, lineno)
                return v, p
        raise InputError("empty trials file", p)
    for name in ("utt2dur", "reco2dur"):
        p = os.path.join(kws_dir, name)
        if os.path.exists(p):
            try:
                total = math.fsum(kaldi.read_durations(p).values())
            except OverflowError:    # every value finite, their sum beyond float
                total = math.inf
            v = f32(total) if math.isfinite(total) and abs(total) < 3.4028234663852886e38 else math.inf
            if not (math.isfinite(v) and v > 0):
                raise InputError(f"the total duration must be a finite number > 0 within float32 "
                                 f"(compute-atwv's), got {total:g}", p)
            return v, p
    raise InputError("--compat kaldi needs the number of trials: a 'trials' file or utt2dur", kws_dir)


def score_kaldi_dir(kws_dir: str, results: str, cost_fa: Optional[float] = None,
                    value_corr: Optional[float] = None, prior: Optional[float] = None,
                    score_threshold: float = 0.5, tolerance: float = 0.5) -> KaldiTwv:
    """compute-atwv <trials> ark:<kws_dir>/hitlist ark:<results> with its defaults, unless
    given: --cost-fa (c_fa), --value-corr (c_miss), --prior-kw-probability (p_target);
    max_distance = tolerance / frame_length frames (50)."""
    hitlist = os.path.join(kws_dir, "hitlist")
    if not os.path.exists(hitlist):
        raise InputError("--compat kaldi scores a Kaldi kws dir: 'hitlist' not found", kws_dir)
    if sniff_root(results) is not None:
        raise InputError("--compat kaldi reads Kaldi results 'KWID utt start-frame end-frame score', "
                         "not XML", results)
    um = os.path.join(kws_dir, "utt.map")
    utt_ids = read_utt_ids(um) if os.path.exists(um) else None
    vocab: dict[str, int] = {}
    ref = read_archive(hitlist, vocab, utt_ids)
    hyp = read_archive(results, vocab, utt_ids)
    duration, _ = read_duration(kws_dir)
    frames = int(round(tolerance / kaldi.read_frame_length(kws_dir)))
    beta = beta_kaldi(0.1 if cost_fa is None else cost_fa, 1.0 if value_corr is None else value_corr,
                      1e-4 if prior is None else prior)
    return compute_atwv(ref, hyp, duration, beta, score_threshold, frames)


def kaldi_costs(preset: Optional[str], p_target: Optional[float], c_miss: Optional[float],
                c_fa: Optional[float]) -> tuple[Optional[float], Optional[float], Optional[float]]:
    """compute-atwv's (--cost-fa, --value-corr, --prior-kw-probability) for --compat kaldi.
    Its beta (cost_fa / value_corr) (1/prior - 1) is F4DE's (C_fa / C_miss) (1/P_target - 1),
    so a preset maps to cost_fa = C_fa, value_corr = C_miss, prior = P_target (sws2013: 1, 100,
    0.00015, beta 66.66). Without a --preset, compute-atwv's own defaults (0.1, 1, 1e-4: beta
    999.9) stay; --c-fa/--c-miss/--p-target override either. sws2012 derives P_target from the
    reference count, which compute-atwv cannot: refused (already when the options are checked:
    termeval.std.options.StdOptions.check_combination). None = compute-atwv's default."""
    costs: list[Optional[float]] = [None, None, None]
    if preset is not None:
        pt, cm, cf = PRESETS[preset]
        if pt is None and p_target is None:
            raise InputError(f"--preset {preset} with --compat kaldi: compute-atwv has no prior derived "
                             "from the reference count; give --p-target (its --prior-kw-probability)")
        costs = [cf, cm, pt]
    for i, given in enumerate((c_fa, c_miss, p_target)):
        if given is not None:
            costs[i] = given
    return costs[0], costs[1], costs[2]

