"""`score_std --compat kaldi`: Kaldi's KWS scoring path as egs/mini_librispeech/s5/local/kws/
score.sh runs it (Kaldi f4007661), on one results file (docs/std-kaldi-compat.md):

  results --(--kst true: normalize_results_kst.pl --trials T --ntrue-scale s)--
          --(--nbest N: filter_kws_results.pl --probs --nbest N)-- compute-atwv

`--ntrue-scale auto` runs score.sh's stage 0: scales 1 + (k-1)/5, k = 1..21 (1, 1.2, ..., 5),
each through KST + nbest (N = --nbest, 200 by default) + compute-atwv into scoring/score.k.txt;
the k of the highest printed ATWV (ties: the smallest k in C-locale string order of
`score.k.txt`, as `grep | sort -k2,2nr -t= | head -1` under LC_ALL=C picks it), its scale in
details/ntrue (k in details/ntrue_raw); then stage 1: KST at that scale, *without* the nbest
filter, into details/results, scored by compute-atwv into details/score.txt and
details/alignment.csv (the reported figures). metrics.txt: kws_oracle_threshold.pl over that
alignment (termeval.std.oracle); details/per-category-score.txt: per_category_stats.pl
(termeval.std.kaldi.category_stats) with --breakdown categories:FILE or the kws dir's `categories`.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from termeval.core.errors import InputError
from termeval.std.kaldi import atwv as ka
from termeval.std import kst
from termeval.core.textio import iter_lines
from termeval.std.termlist import read_keywords_txt, read_termlist

DEFAULT_SWEEP_NBEST = 200
FRAMES_PER_SEC = 100.0  # compute-atwv --frames-per-sec (its alignment CSV), not the frame length


def scale_sweep() -> list[tuple[int, str]]:
    """score.sh's NTRUE=1:21 and `perl -e 'print 1+(NTRUE-1)/5.0'`."""
    return [(k, kst.perl_num(1 + (k - 1) / 5.0)) for k in range(1, 22)]


def pick_scale(atwv_text: dict[int, str]) -> int:
    """The k whose score.k.txt `grep ATWV ... | sort -k2,2nr -t '=' | head -n 1` selects: the
    largest printed ATWV, then (sort's last-resort comparison of whole lines, LC_ALL=C) the
    smallest `k.txt:...` in byte order."""
    def key(k: int):
        line = f"{k}.txt:aproximate ATWV = {atwv_text[k]}"
        return (-float(atwv_text[k]), line.encode("utf-8"))
    return min(atwv_text, key=key)


def rows_to_terms(rows, vocab: dict[str, int], utt_ids: Optional[dict[str, int]], path: str = "") -> ka.KwsTerms:
    """compute-atwv's reading of text lines (as kaldi_atwv.read_archive reads a file)."""
    kw, utt, st, en, sc = [], [], [], [], []
    for r in rows:
        line = r[5] if len(r) > 5 else None
        kw.append(vocab.setdefault(r[0], len(vocab)))
        u = utt_ids.get(r[1]) if utt_ids else None
        utt.append(u if u is not None else ka._to_int(r[1], path, line, "utterance id"))
        st.append(ka._to_int(r[2], path, line, "start frame"))
        en.append(ka._to_int(r[3], path, line, "end frame"))
        sc.append(float(r[4]))
    score = np.asarray(sc, dtype=np.float64).astype(np.float32)
    return ka.KwsTerms(list(vocab), np.asarray(kw, np.int64), np.asarray(utt, np.int64),
                       np.asarray(st, np.int64), np.asarray(en, np.int64), score, path)


def alignment_csv(ref: ka.KwsTerms, hyp: ka.KwsTerms, hyp_ref: np.ndarray, fps: float = FRAMES_PER_SEC) -> list[str]:
    """compute-atwv's alignment CSV (KwsAlignment::WriteCsv): hypotheses in input order, then
    the unused references (Kaldi: hash order; here hitlist order). Floats as `ostream <<` (%g)."""
    f = np.float32(fps)

    def t(frames: int) -> str:
        return "%g" % float(np.float32(frames) / f)

    out = ["language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment"]
    used = np.zeros(len(ref), bool)
    for i in range(len(hyp)):
        j = int(hyp_ref[i])
        kwid = hyp.kw_ids[int(hyp.kw[i])]
        s = float(hyp.score[i])
        yes = hyp.score[i] >= np.float32(0.5)
        hyp_part = f"{t(int(hyp.start[i]))},{t(int(hyp.end[i]))},{'%g' % s},{'YES' if yes else 'NO'},"
        if j >= 0:
            used[j] = True
            out.append(f",{int(ref.utt[j])},1,{kwid},{kwid},{t(int(ref.start[j]))},{t(int(ref.end[j]))},"
                       + hyp_part + ("CORR" if yes else "MISS"))
        else:
            out.append(f",{int(hyp.utt[i])},1,{kwid},{kwid},,," + hyp_part + ("FA" if yes else "CORR!DET"))
    for j in np.flatnonzero(~used).tolist():
        kwid = ref.kw_ids[int(ref.kw[j])]
        out.append(f",{int(ref.utt[j])},1,{kwid},{kwid},{t(int(ref.start[j]))},{t(int(ref.end[j]))},,,,,MISS")
    return out


@dataclass
class RecipeRun:
    twv: ka.KaldiTwv
    rows: list                      # the scored results (details/results)
    csv: list[str]
    trials_text: str
    trials: float                   # compute-atwv's float32 <nof-trials>
    ntrue: Optional[str] = None     # the scale used (text), None without KST
    ntrue_raw: Optional[int] = None
    sweep: list = field(default_factory=list)   # (k, scale, KaldiTwv) with --ntrue-scale auto
    dropped: list[str] = field(default_factory=list)
    ref: Optional[ka.KwsTerms] = None
    hyp: Optional[ka.KwsTerms] = None   # the scored results, aligned by twv.hyp_ref (report.html's timeline)


def _trials_text(kws_dir: str) -> str:
    p = os.path.join(kws_dir, "trials")
    if os.path.exists(p):
        for _, line in iter_lines(p):
            if line.split():
                return line.split()[0]
    raise InputError("--kst true needs the kws dir's 'trials' file (normalize_results_kst.pl --trials)", kws_dir)


def score_recipe(kws_dir: str, results: str, kst_on: bool = False, ntrue_scale: str = "1.0",
                 nbest: Optional[int] = None, beta: float = ka.beta_kaldi(), score_threshold: float = 0.5,
                 max_distance: int = 50) -> RecipeRun:
    """The whole path (module doc); raw compute-atwv when kst_on is False and nbest None."""
    hitlist = os.path.join(kws_dir, "hitlist")
    if not os.path.exists(hitlist):
        raise InputError("--compat kaldi scores a Kaldi kws dir: 'hitlist' not found", kws_dir)
    um = os.path.join(kws_dir, "utt.map")
    utt_ids = ka.read_utt_ids(um) if os.path.exists(um) else None
    vocab: dict[str, int] = {}
    ref = ka.read_archive(hitlist, vocab, utt_ids)
    duration, _ = ka.read_duration(kws_dir)

    def score(rows):
        hyp = rows_to_terms(rows, dict(vocab), utt_ids, results)
        r = ka.compute_atwv(ref, hyp, duration, beta, score_threshold, max_distance)
        return r, hyp

    if nbest is not None and nbest < 1:
        raise InputError(f"--nbest must be >= 1, got {nbest}")
    if not kst_on and nbest is None:   # plain compute-atwv: its own reader
        hyp = ka.read_archive(results, dict(vocab), utt_ids)
        twv = ka.compute_atwv(ref, hyp, duration, beta, score_threshold, max_distance)
        return RecipeRun(twv, [], alignment_csv(ref, hyp, twv.hyp_ref), "", duration, ref=ref, hyp=hyp)
    rows = kst.read_results(results)
    if not kst_on:
        final = kst.filter_nbest(rows, nbest) if nbest is not None else rows
        twv, hyp = score(final)
        run = RecipeRun(twv, final, [], "", duration)
    else:
        text = _trials_text(kws_dir)
        T = float(text)
        if ntrue_scale == "auto":
            sweep = []
            for k, s in scale_sweep():
                norm = kst.normalize_kst(rows, T, float(s), path=results)
                r, _ = score(kst.filter_nbest(norm.rows, nbest or DEFAULT_SWEEP_NBEST))
                sweep.append((k, s, r))
            k_best = pick_scale({k: f"{r.atwv:.4f}" for k, _, r in sweep})
            scale, raw = dict((k, s) for k, s, _ in sweep)[k_best], k_best
            norm = kst.normalize_kst(rows, T, float(scale), path=results)
            final = norm.rows
        else:
            try:
                value = float(ntrue_scale)
            except ValueError:
                raise InputError(f"--ntrue-scale must be a number > 0 or 'auto', got '{ntrue_scale}'") from None
            if not (value > 0 and math.isfinite(value)):
                raise InputError(f"--ntrue-scale must be a number > 0 or 'auto', got '{ntrue_scale}'")
            sweep, scale, raw = [], ntrue_scale, None
            norm = kst.normalize_kst(rows, T, value, path=results)
            final = kst.filter_nbest(norm.rows, nbest) if nbest is not None else norm.rows
        twv, hyp = score(final)
        run = RecipeRun(twv, final, [], text, duration, scale, raw, sweep, norm.dropped)
    run.csv = alignment_csv(ref, hyp, run.twv.hyp_ref)
    run.ref, run.hyp = ref, hyp
    return run


def known_keywords(kws_dir: str, ref: ka.KwsTerms, rows) -> list[str]:
    """Keyword ids of the kws dir (keywords.txt/kwlist.xml), else of the hitlist and results."""
    for name in ("keywords.txt", "kwlist.xml", "tlist.xml"):
        p = os.path.join(kws_dir, name)
        if os.path.exists(p):
            ids = (read_keywords_txt(p) if name == "keywords.txt" else read_termlist(p)).ids
            return list(dict.fromkeys(list(ids) + list(ref.kw_ids)))
    return list(dict.fromkeys(list(ref.kw_ids) + [r[0] for r in rows]))


def check_options(args) -> tuple[bool, str, Optional[int]]:
    """(kst, ntrue scale text, nbest) from --kst/--ntrue-scale/--nbest, validated."""
    scale = (args.ntrue_scale or "").strip()
    if scale and not args.kst:
        raise InputError("--ntrue-scale applies with --kst true (normalize_results_kst.pl)")
    if scale and scale != "auto":
        try:
            v = float(scale)
        except ValueError:
            v = float("nan")
        if not (v > 0 and math.isfinite(v)):
            raise InputError(f"--ntrue-scale must be a number > 0 or 'auto', got '{scale}'")
    nbest = None
    if args.nbest not in (None, ""):
        try:
            nbest = int(args.nbest)
        except ValueError:
            raise InputError(f"--nbest must be an integer >= 1, got '{args.nbest}'") from None
        if nbest < 1:
            raise InputError(f"--nbest must be >= 1 (filter_kws_results.pl --nbest), got {nbest}")
    return bool(args.kst), scale or "1.0", nbest


def _trials_or_none(kws_dir: str) -> Optional[str]:
    try:
        return _trials_text(kws_dir)
    except InputError:
        return None
