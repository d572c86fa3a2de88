"""Kaldi's results post-processing, as egs/mini_librispeech/s5/local/kws/score.sh runs it
(Kaldi f4007661; rules in docs/std-kaldi-compat.md, "Kaldi's KWS scoring path"):

* `normalize_kst`: normalize_results_kst.pl --trials T --ntrue-scale s. Per block of
  consecutive lines with the same KWID: p = exp(-cost); ntrue = s * sum(p) (summed in line
  order); thr = beta*ntrue / (T + ntrue*(beta - 1)); thr >= 0.9999 drops the whole block; thr
  exactly 0 becomes 0.001; p' = p ** (log(0.5) / log(thr)), printed as Perl prints a number
  (%.15g); the other four fields pass through as written.
* `filter_nbest`: filter_kws_results.pl --probs --nbest N (--duptime 50). Per block of
  consecutive lines with the same KWID: sort by utterance (string order), then start frame when
  the starts are >= 50 frames apart, else by score (descending; compared only when the score
  texts differ), else by end frame (descending); keep a line unless its utterance equals the
  last kept line's and its start is < 50 frames from that line's start; stable sort by score,
  descending; print the first N, fields as written. The sorts are Perl's own merge sort
  (termeval.std.perlsort): the duplicate comparator is not transitive, so which pairs get
  compared decides which duplicate survives.

Rows are 5-tuples of the fields' text, so the numbers compute-atwv reads afterwards are the
very texts the Perl scripts would have printed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from termeval.core.errors import InputError
from termeval.std.perlsort import perl_sort
from termeval.std.xmlsafe import clip
from termeval.core.textio import iter_lines

Row = tuple  # (kwid, utt, start, end, score) as text
KST_BETA = 999.9
DROP_THRESHOLD = 0.9999
DUPTIME = 50


@dataclass
class KstResult:
    rows: list
    dropped: list[str] = field(default_factory=list)   # keywords whose threshold was >= 0.9999
    thresholds: dict = field(default_factory=dict)     # first block of each keyword: its thr


def read_results(path: str) -> list[Row]:
    """Kaldi results `kwid utt start-frame end-frame cost`; numbers must be finite."""
    rows = []
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) != 5:
            raise InputError(f"expected 'kwid utt start-frame end-frame cost' (5 fields), got {len(f)}",
                             path, lineno)
        for k, what in ((2, "start frame"), (3, "end frame"), (4, "score")):
            try:
                v = float(f[k])
            except ValueError:
                raise InputError(f"{what} '{clip(f[k])}' is not a number", path, lineno) from None
            if not math.isfinite(v):
                raise InputError(f"{what} '{clip(f[k])}' is not a finite number", path, lineno)
        rows.append((f[0], f[1], f[2], f[3], f[4], lineno))
    return rows


def perl_num(x: float) -> str:
    """How Perl prints a floating-point number (%.15g; Inf/NaN as Perl spells them)."""
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if math.isnan(x):
        return "NaN"
    return "%.15g" % x


def _blocks(rows: Iterable[Row]):
    """Runs of consecutive rows with the same KWID (the scripts never sort by KWID)."""
    cur: list = []
    for r in rows:
        if cur and r[0] != cur[0][0]:
            yield cur
            cur = []
        cur.append(r)
    if cur:
        yield cur


def normalize_kst(rows: list[Row], trials: float, ntrue_scale: float, beta: float = KST_BETA,
                  threshold: float = 0.5, probs: bool = False, path: str = "") -> KstResult:
    """normalize_results_kst.pl (module doc). Rows keep a 6th field (line number) if given."""
    if not (ntrue_scale > 0 and math.isfinite(ntrue_scale)):
        raise InputError(f"--ntrue-scale must be a number > 0, got {ntrue_scale}")
    if not (trials > 0 and math.isfinite(trials)):
        raise InputError(f"the number of trials must be > 0, got {trials}")
    out: list = []
    res = KstResult(out)
    log_t = math.log(threshold)
    for block in _blocks(rows):
        p = [float(r[4]) if probs else math.exp(-float(r[4])) for r in block]
        ntrue = 0.0
        for v in p:
            ntrue += v
        ntrue = ntrue * ntrue_scale
        thr = beta * ntrue / (trials + ntrue * (beta - 1))
        res.thresholds.setdefault(block[0][0], thr)
        if not thr < DROP_THRESHOLD:
            res.dropped.append(block[0][0])
            continue
        if thr == 0:
            thr = 0.001
        q = log_t / math.log(thr)
        for r, v in zip(block, p):
            s = math.pow(v, q)
            if s > 1.0:
                raise InputError(f"score '{clip(r[4])}' gives a posterior above 1 (a negative cost?): "
                                 "normalize_results_kst.pl stops here", path, r[5] if len(r) > 5 else None)
            out.append((r[0], r[1], r[2], r[3], perl_num(s)) + tuple(r[5:6]))
    return res


def _cmp(a: float, b: float) -> int:
    return (a > b) - (a < b)


def filter_nbest(rows: list[Row], nbest: int | None, duptime: int = DUPTIME) -> list[Row]:
    """filter_kws_results.pl --probs [--nbest N] (module doc); nbest None = no limit."""
    if nbest is not None and nbest < 1:
        raise InputError(f"--nbest must be >= 1, got {nbest}")

    def dup_cmp(a, b) -> int:
        if a[1] != b[1]:
            return _cmp(a[1], b[1])
        sa, sb = float(a[2]), float(b[2])
        if abs(sa - sb) >= duptime:
            return _cmp(sa, sb)
        if a[4] != b[4]:
            return _cmp(float(b[4]), float(a[4]))
        return _cmp(float(b[3]), float(a[3]))

    out: list = []
    for block in _blocks(rows):
        kept: list = []
        order = sorted(block, key=lambda r: (r[1], float(r[2])))
        close = any(a[1] == b[1] and float(b[2]) - float(a[2]) < duptime for a, b in zip(order, order[1:]))
        # no two hits of an utterance within duptime: the comparator is a total order (utterance,
        # start) and any sort gives Perl's result; otherwise Perl's own merge sort decides
        for r in (perl_sort(block, dup_cmp) if close else order):
            if kept and r[1] == kept[-1][1] and abs(float(kept[-1][2]) - float(r[2])) < duptime:
                continue
            kept.append(r)
        kept.sort(key=lambda r: -float(r[4]))   # a consistent order: Perl's stable sort agrees
        out.extend(kept if nbest is None else kept[:nbest])
    return out
