"""STD scoring pipeline: load a kws data dir and a detection list, align, and compute the
TWV family, DET points and Cnxe (docs/std.md §1-§4). Pure functions over numpy arrays; the command
line wrapper is python -m termeval.bin.score_std.

Three steps, so that the alignment can be split into jobs over term ranges (score_std.sh
--nj): prepare() (inputs -> scored detections/references, counts, operating point),
align_terms() (one term range), finish() (every figure from the merged alignment).
score_std() chains them over all terms; termeval.std.stage splits and merges (termeval.run.driver).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Optional

import numpy as np

from termeval.core.errors import InputError
from termeval.std import cnxe
from termeval.std import segalign, textnorm
from termeval.std.align import align_f4de, align_kaldi, f4de_mid
from termeval.std.detections import UNSET, YES, Detections
from termeval.std.ecf import in_ecf
from termeval.std.kwsdir import KwsData
from termeval.std.rttm import Occurrences
from termeval.std.termlist import TermList, compile_term_regex
from termeval.std.userregex import UserRegex
from termeval.std.twv import TwvResult, beta_from, compute_twv, detection_cost, trials_per_term

PRESETS = {
    # name: (p_target, c_miss, c_fa)
    "sws2013": (0.00015, 100.0, 1.0),
    "nist2006": (0.0001, 10.0, 1.0),
    "quesst": (0.0008, 100.0, 1.0),
    "sws2012": (None, 1.0, 1.0),   # P_target = Ntrue_total / N (seed eq. 17-18)
}


@dataclass
class Params:
    preset: str = "sws2013"
    p_target: Optional[float] = None
    c_miss: Optional[float] = None
    c_fa: Optional[float] = None
    trials_per_sec: float = 1.0
    include_notarget_terms: bool = False
    align: str = "f4de"               # f4de | kaldi
    tolerance: float = 0.5
    compat_f4de: bool = False
    cmin: str = "newton"              # newton | pav
    default_score: Optional[float] = None
    decision_threshold: float = 0.5   # for detections without YES/NO (Kaldi text)
    find_threshold: float = 0.5       # max gap between the words of a multi-word term
    term_attr: Optional[tuple[str, str]] = None   # (attribute, regex), F4DE -q
    source_types: Optional[list[str]] = None      # ECF source_type filter, F4DE -Y
    alignment: str = "occurrence"     # occurrence | segment (F4DE -g, termeval.std.segalign)
    term_values: Optional[tuple[str, str]] = None  # (attribute, value): one F4DE -q condition
    term_normalization: str = ""      # F4DE -x, applied when loading (kwsdir); kept for its warnings
    just_system_terms: bool = False   # F4DE -j: only the terms with a block in the detections
    file_channels: Optional[list[str]] = None     # F4DE -N: FILE/CHAN regexes (anchored, no case)


@dataclass
class StdResult:
    metrics: dict                 # the scores.json keys
    extra: dict                   # counts/warnings/parameters for scores.json "std" section
    twv: TwvResult
    warnings: list[str]
    # per-term table
    terms: TermList
    evaluated: np.ndarray
    ntrue: np.ndarray
    n_hits: np.ndarray
    n_fa: np.ndarray
    n_miss: np.ndarray
    n_det: np.ndarray
    # alignment table (in-ECF detections of selected terms, then unaligned references)
    ali: dict = field(default_factory=dict)
    beta: float = float("nan")
    # scored trials of the evaluated terms (term, score, yes, target) for breakdowns/rankings
    trials: dict = field(default_factory=dict)
    # F4DE -q / -Y conditions: (name, StdResult of the condition, terms it selects)
    conditions: list = field(default_factory=list)
    # --just-system-terms (F4DE -j): the terms with a block in the detections (None: every term)
    system_terms: Optional[np.ndarray] = None
    # ranked retrieval per term, the breakdown groups' figures, the pooled operating points
    # (scores/std_operating) and the per-term statistics table (units/): the stage's merge
    ranking: Any = None
    breakdown_rows: dict = field(default_factory=dict)
    operating: list = field(default_factory=list)
    units: Any = None


def _codes(values: np.ndarray, vocab: dict) -> np.ndarray:
    return np.fromiter((vocab.setdefault(v, len(vocab)) for v in values), dtype=np.int64, count=len(values))


@dataclass
class Prepared:
    """A scoring task up to the alignment (prepare()); align_terms() works on term ranges of
    it and finish() computes every figure from it and the merged alignment."""
    kws: KwsData
    dets: Detections
    params: Params
    warnings: list[str]
    n_terms: int
    dterm: np.ndarray          # term of each detection
    di: np.ndarray             # scored detections (selected terms, inside the ECF), ascending
    ri: np.ndarray             # scored reference occurrences, ascending
    g_d: np.ndarray            # alignment group (term, file, channel) of di / ri
    g_r: np.ndarray
    yes_all: np.ndarray
    ntrue: np.ndarray
    evaluated: np.ndarray
    t_audio: float
    n_trials: int
    p_target: float
    c_miss: float
    c_fa: float
    beta: float
    file_vocab: list
    counts: dict
    system_terms: Optional[np.ndarray] = None   # --just-system-terms: the terms of F4DE's trials


@dataclass
class Alignment:
    """Aligned pairs as global indices (detection -> reference occurrence) + solver stats."""
    det: np.ndarray
    ref: np.ndarray
    stats: dict


# --tolerance above this is accepted but implausible: F4DE's default is 0.5 s, NIST STD 2006
# used 0.5 s; a value meant in milliseconds (500) would make nearly every detection a hit.
IMPLAUSIBLE_TOLERANCE = 5.0


def option_warnings(p: Params) -> list[str]:
    """Settings that are valid but probably not what was meant (printed and kept in scores.json)."""
    out = textnorm.mode_warnings(p.term_normalization)
    if p.tolerance > IMPLAUSIBLE_TOLERANCE:
        out.append(f"--tolerance {p.tolerance:g} s is implausible (F4DE's default is 0.5 s; milliseconds "
                   f"meant?): a detection within {p.tolerance:g} s of a reference occurrence counts as a hit")
    return out


def prepare(kws: KwsData, dets: Detections, p: Params) -> Prepared:
    """Everything before the alignment: term selection, ECF filtering, decisions, counts,
    operating point, and the alignment groups of the scored detections and references."""
    warnings: list[str] = option_warnings(p)
    if not len(dets):       # a well-formed list without a detection: valid, but say so
        warnings.append(f"{dets.path or 'the detection list'}: no detections in it: every reference "
                        "occurrence is a miss")
    terms = kws.terms
    Q = len(terms)
    dterm = _detection_terms(dets, terms.index())
    # --- term selection (F4DE -q attribute:regex)
    selected = np.ones(Q, dtype=bool)
    if p.term_attr is not None:
        selected[:] = False
        selected[terms.select(*p.term_attr)] = True
    if p.term_values is not None:
        selected &= np.asarray([a.get(p.term_values[0]) == p.term_values[1] for a in terms.attrs], dtype=bool)
    # --- common file/channel keys
    fvocab: dict = {}
    ecf = kws.ecf
    if ecf is not None and p.source_types:
        rx = [UserRegex(s, "--source-type", ignore_case=True, perl_anchored=True) for s in p.source_types]
        ecf = ecf.subset(np.asarray([any(r.search(str(st)) for r in rx) for st in ecf.source_type], dtype=bool))
    if p.alignment == "segment":
        return _prepare_segments(kws, dets, p, warnings, dterm, selected, ecf)
    if p.just_system_terms:     # F4DE -j (KWSAlignment): a term without a block is not scored at all
        selected &= system_terms(terms, dets)
    det_fc_vocab = _codes(np.asarray(dets.file_ids, dtype=object), fvocab)
    dfile = det_fc_vocab[dets.file] if len(dets) else np.zeros(0, np.int64)
    rfile = _codes(kws.occ.file, fvocab)
    efile = _codes(ecf.file, fvocab) if ecf is not None else np.zeros(0, np.int64)
    chans = np.unique(np.r_[_one_or_all(dets.chan), _one_or_all(kws.occ.chan),
                            ecf.channel if ecf is not None else []].astype(np.int64))
    NC = max(len(chans), 1)
    ckey = lambda c: np.searchsorted(chans, np.asarray(c, dtype=np.int64))
    dkey = dfile * NC + ckey(dets.chan)
    rkey = rfile * NC + ckey(kws.occ.chan)
    dbeg, dend = dets.tbeg, dets.tbeg + dets.dur
    occ = kws.occ
    # --- ECF filter (F4DE: always in occurrence mode); references by their first token
    if ecf is not None:
        ekey = efile * NC + ckey(ecf.channel)
        d_in = in_ecf(ekey, ecf.tbeg, ecf.tend, dkey, dbeg, dend)
        r_in = in_ecf(ekey, ecf.tbeg, ecf.tend, rkey, occ.beg, occ.first_end)
        efiles = np.zeros(len(fvocab) + 1, dtype=bool)
        efiles[efile] = True
        d_file_known = efiles[dfile]
        t_audio = _fc_ecf(ecf, p.file_channels).total_duration("f4de" if p.compat_f4de else "union")
    else:
        d_in = np.ones(len(dets), dtype=bool)
        r_in = np.ones(len(occ), dtype=bool)
        d_file_known = d_in
        t_audio = float(kws.t_audio)
    d_sel = selected[dterm] if len(dets) else np.zeros(0, bool)
    r_sel = selected[occ.term] if len(occ) else np.zeros(0, bool)
    n_det_not_in_ecf_file = int(np.sum(d_sel & ~d_file_known))
    n_det_outside = int(np.sum(d_sel & ~d_in))
    if n_det_outside:
        warnings.append(f"{n_det_outside} detection(s) outside the ECF excerpts were ignored "
                        f"({n_det_not_in_ecf_file} in files not in the ECF), as F4DE does")
    n_ref_outside = int(np.sum(r_sel & ~r_in))
    if n_ref_outside:
        warnings.append(f"{n_ref_outside} reference occurrence(s) outside the ECF were ignored")
    dmask = d_sel & d_in
    rmask = r_sel & r_in
    if p.file_channels:
        dmask, rmask = _fc_filter(p, dmask, rmask, list(fvocab), chans, dterm, dkey, occ.term, rkey, NC)
    di = np.flatnonzero(dmask)
    ri = np.flatnonzero(rmask)
    n_dup = _duplicates(dterm[di] * np.int64(len(fvocab) + 1) * NC + dkey[di], dbeg[di], dets.dur[di], warnings)
    ntrue = np.bincount(occ.term[ri], minlength=Q).astype(np.int64)
    evaluated = selected & ((ntrue > 0) | p.include_notarget_terms)
    yes_all = _decisions(dets, di, p, warnings)
    f4de_div = p.compat_f4de
    N = trials_per_term(t_audio, p.trials_per_sec, f4de_divide=f4de_div,
                        source=(getattr(kws.ecf, "path", "") or None) if kws.ecf is not None else None)
    pt, cm, cf, beta = _operating_point(p, int(ntrue[evaluated].sum()), N)
    # --- alignment groups (term, file, channel): the unit of work of align_terms
    G = np.int64(len(fvocab) + 1) * NC
    g_d = dterm[di] * G + dkey[di]
    g_r = occ.term[ri].astype(np.int64) * G + rkey[ri]
    return Prepared(kws, dets, p, warnings, Q, dterm, di, ri, g_d, g_r, yes_all, ntrue, evaluated,
                    t_audio, N, pt, cm, cf, beta, list(fvocab),
                    {"n_det_outside": n_det_outside, "n_det_not_in_ecf_file": n_det_not_in_ecf_file,
                     "n_ref_outside": n_ref_outside, "n_dup": n_dup},
                    selected if p.just_system_terms else None)


def system_terms(terms: TermList, dets: Detections) -> np.ndarray:
    """Mask of the listed terms that have a detected_kwlist/detected_termlist block (even an
    empty one) in the detections (the readers' `blocks`)."""
    tindex = terms.index()
    out = np.zeros(len(terms.ids), dtype=bool)
    out[[tindex[t] for t in dets.blocks if t in tindex]] = True
    return out


def file_channel_regexes(patterns: list[str]) -> list[UserRegex]:
    """--file-channels (F4DE -N): each FILE/CHAN pattern as F4DE matches it, /^RE$/i."""
    return [UserRegex(s, "--file-channels", ignore_case=True, perl_anchored=True) for s in patterns]


def _fc_names_match(rx: list, names: list[str]) -> np.ndarray:
    """Whether each "FILE/CHAN" matches one of `rx` (F4DE filterByFileChan: /^RE$/i)."""
    return np.asarray([any(r.search(n) for r in rx) for n in names], dtype=bool)


def _fc_match(rx: list, files: list, chans: np.ndarray, keys: np.ndarray, NC: int) -> np.ndarray:
    """_fc_names_match of each key (file code * NC + channel index); one test per distinct key."""
    if len(keys) == 0:
        return np.zeros(0, dtype=bool)
    u, inv = np.unique(keys, return_inverse=True)
    ok = _fc_names_match(rx, [f"{files[k // NC]}/{chans[k % NC]}" for k in u.tolist()])
    return ok[inv.reshape(-1)]


def _fc_ecf(ecf, file_channels: Optional[list[str]]):
    """The ECF excerpts whose FILE/CHAN matches --file-channels (F4DE calcTotalDur's filter)."""
    if not file_channels:
        return ecf
    rx = file_channel_regexes(file_channels)
    return ecf.subset(_fc_names_match(rx, [f"{f}/{c}" for f, c in zip(ecf.file.tolist(), ecf.channel.tolist())]))


def _fc_filter(p: Params, dmask, rmask, files: list, chans, dterm, dkey, rterm, rkey, NC: int):
    """--file-channels on the scored detections and references. --compat f4de as KWSAlignment:
    a detection is tested only where its term has an RTTM occurrence in its file/channel (the
    others enter its FA count unfiltered)."""
    rx = file_channel_regexes(p.file_channels)
    rmask = rmask & _fc_match(rx, files, chans, rkey, NC)
    d_ok = _fc_match(rx, files, chans, dkey, NC)
    if p.compat_f4de and len(dkey):
        G = np.int64(len(files) + 1) * NC
        d_ok |= ~np.isin(dterm * G + dkey, rterm.astype(np.int64) * G + rkey)
    return dmask & d_ok, rmask


def _prepare_segments(kws: KwsData, dets: Detections, p: Params, warnings: list[str], dterm: np.ndarray,
                      selected: np.ndarray, ecf) -> Prepared:
    """prepare() for --alignment segment: the references are (term, segment) pairs, the scored
    detections the best one per (term, segment), N the number of segments (termeval.std.segalign)."""
    if ecf is None or kws.lexemes is None or kws.rttm_path is None:
        raise InputError("--alignment segment needs an ECF and an RTTM reference (its SPEAKER turns)")
    turns = segalign.read_speaker_turns(kws.rttm_path)
    if not turns[0]:
        warnings.append("--alignment segment: the RTTM has no SPEAKER turns, so every ECF excerpt is one "
                        "non-speech segment and no word is in a speech segment (no reference)")
    # --file-channels (F4DE -N): KWSSegAlign keeps the segments of matching file/channels only
    seg, tags = segalign.build_segments(_fc_ecf(ecf, p.file_channels), turns)
    if len(seg) == 0:
        raise InputError("--alignment segment: the ECF yields no segment"
                         + (" of --file-channels" if p.file_channels else ""), kws.rttm_path)
    Q, S, occ = len(kws.terms), np.int64(len(seg)), kws.occ
    oseg = segalign.occurrence_segments(occ, kws.lexemes, segalign.lexeme_segments(kws.lexemes, tags))
    ok = (oseg >= 0) & selected[occ.term]
    g_r = np.unique(occ.term[ok].astype(np.int64) * S + oseg[ok])
    rterm, rseg = (g_r // S).astype(np.int32), g_r % S
    segocc = Occurrences(rterm, seg.file[rseg], seg.chan[rseg], seg.beg[rseg], seg.end[rseg], seg.end[rseg])
    fcode = {f: i for i, f in enumerate(dets.file_ids)}
    dseg = segalign.detection_segments(seg, fcode, np.asarray(dets.file), np.asarray(dets.chan),
                                       f4de_mid(dets.tbeg, dets.dur))
    d_sel = selected[dterm] if len(dets) else np.zeros(0, bool)
    g = np.where(d_sel & (dseg >= 0), dterm * S + dseg, -1)
    di = segalign.best_per_segment(g, dets.score)
    n_out, n_dup = int(np.sum(d_sel & (dseg < 0))), int(np.sum(g >= 0)) - len(di)
    if n_out:
        warnings.append(f"{n_out} detection(s) in no segment of the ECF were ignored, as F4DE does")
    if n_dup:
        warnings.append(f"{n_dup} detection(s) sharing a segment with a higher-scored one of their term "
                        "were dropped, as F4DE's segment alignment does")
    ntrue = np.bincount(rterm, minlength=Q).astype(np.int64)
    # F4DE -j (KWSSegAlign): every term is still aligned; only the empty blocks of the terms
    # with no trial (no reference segment, no scored detection) are not added
    trial = (ntrue > 0) | (np.bincount(dterm[di], minlength=Q) > 0) if p.just_system_terms else None
    evaluated = selected & ((ntrue > 0) | (p.include_notarget_terms & (True if trial is None else trial)))
    yes_all = _decisions(dets, di, p, warnings)
    N = int(S)
    pt, cm, cf, beta = _operating_point(p, int(ntrue[evaluated].sum()), N)
    n_ref_out = int(np.sum(selected[occ.term] & (oseg < 0))) if len(occ) else 0
    return Prepared(replace(kws, occ=segocc), dets, p, warnings, Q, dterm, di, np.arange(len(g_r)), g[di], g_r,
                    yes_all, ntrue, evaluated, ecf.total_duration("f4de" if p.compat_f4de else "union"), N,
                    pt, cm, cf, beta, list(fcode),
                    {"n_det_outside": n_out, "n_det_not_in_ecf_file": n_out, "n_ref_outside": n_ref_out,
                     "n_dup": n_dup, "n_segments": N}, None if trial is None else selected & trial)


def _one_or_all(a: np.ndarray) -> np.ndarray:
    """`a`, or its first value alone when all are equal (one channel: no sort of every record)."""
    a = np.asarray(a)
    return a[:1] if len(a) and (a == a[0]).all() else a


def _detection_terms(dets: Detections, tindex: dict) -> np.ndarray:
    """The term (index in the term list) of each detection; every term id must be listed."""
    dcode = np.asarray([tindex.get(t, -1) for t in dets.term_ids], dtype=np.int64)
    unknown = [t for t, c in zip(dets.term_ids, dcode) if c < 0]
    if unknown:
        raise InputError(f"{len(unknown)} term id(s) of the detection list are not in the term list "
                         f"(first: {', '.join(unknown[:5])}); F4DE aborts here too", dets.path)
    return dcode[dets.term] if len(dets) else np.zeros(0, np.int64)


def _duplicates(gk: np.ndarray, tb_: np.ndarray, du_: np.ndarray, warnings: list[str]) -> int:
    """Detections repeating an earlier one (same group key = term, file, channel; tbeg, dur)."""
    if len(gk) <= 1:
        return 0
    # only detections sharing their tbeg with another can repeat one: sort those alone by all keys
    o = np.argsort(tb_)
    same = tb_[o[1:]] == tb_[o[:-1]]
    keep = np.zeros(len(o), dtype=bool)
    keep[1:] = same
    keep[:-1] |= same
    s = o[keep]
    gk, tb_, du_ = gk[s], tb_[s], du_[s]
    o = np.lexsort((du_, tb_, gk))
    gk, tb_, du_ = gk[o], tb_[o], du_[o]
    n_dup = int(np.count_nonzero((gk[1:] == gk[:-1]) & (tb_[1:] == tb_[:-1]) & (du_[1:] == du_[:-1])))
    if n_dup:
        warnings.append(f"{n_dup} duplicate detection(s) (same term, file, channel, tbeg, dur); "
                        "kept, as F4DE does: at most one of them can be a hit")
    return n_dup


def _decisions(dets: Detections, di: np.ndarray, p: Params, warnings: list[str]) -> np.ndarray:
    """YES of every detection (unset decisions by --decision-threshold), after the checks of
    the header's score range and of one global threshold (F4DE's) over the scored ones `di`."""
    dec = dets.decision.copy()
    unset = dec == UNSET
    if np.any(unset):
        dec[unset] = (dets.score[unset] >= p.decision_threshold).astype(np.int8)
        warnings.append(f"{int(unset.sum())} detection(s) without a YES/NO decision: YES iff score >= "
                        f"{p.decision_threshold:g}")
    yes_all = dec == YES
    if dets.min_score is not None and len(dets) and (dets.score.min() < dets.min_score or dets.score.max() > dets.max_score):
        msg = (f"scores outside the header's min_score/max_score [{dets.min_score:g}, {dets.max_score:g}] "
               "(F4DE aborts; the header range still normalises the tie-break)")
        if p.compat_f4de:
            raise InputError(msg, dets.path)
        warnings.append(msg)
    # decision consistency (F4DE requires one global threshold)
    ys, ns = dets.score[di][yes_all[di]], dets.score[di][~yes_all[di]]
    if len(ys) and len(ns) and ns.max() > ys.min():
        msg = (f"decisions are inconsistent with any single score threshold (a NO scores "
               f"{ns.max():g} > a YES scoring {ys.min():g}); ATWV uses the decisions as given")
        if p.compat_f4de:
            raise InputError("Inconsistent NO/YES decision boundary across blocks (F4DE refuses "
                             "this input; drop --compat f4de to score it)", dets.path)
        warnings.append(msg)
    return yes_all


def _operating_point(p: Params, ntrue_total: int, N: float) -> tuple[float, float, float, float]:
    """(P_target, C_miss, C_fa, beta) of the preset and the options."""
    if p.preset not in PRESETS:
        raise InputError(f"unknown preset '{p.preset}' (sws2013, nist2006, sws2012, quesst)")
    pt, cm, cf = PRESETS[p.preset]
    pt = p.p_target if p.p_target is not None else pt
    cm = p.c_miss if p.c_miss is not None else cm
    cf = p.c_fa if p.c_fa is not None else cf
    if pt is None:  # sws2012
        if ntrue_total == 0:
            raise InputError("preset sws2012 needs reference occurrences (P_target = Ntrue/N)")
        pt = ntrue_total / N
    if not (0 < pt < 1) or cm <= 0 or cf <= 0:
        raise InputError(f"bad operating point P_target={pt} C_miss={cm} C_fa={cf}")
    return pt, cm, cf, beta_from(pt, cm, cf)


def align_terms(prep: Prepared, lo: int = 0, hi: int | None = None) -> Alignment:
    """Align the scored detections and references of the terms lo <= q < hi. Groups never
    span terms and every tie-break follows the input order, which a subset keeps, so the
    pairs are the ones a whole-task alignment finds."""
    p, dets, occ = prep.params, prep.dets, prep.kws.occ
    hi = prep.n_terms if hi is None else hi
    dq, rq = prep.dterm[prep.di], occ.term[prep.ri]
    ds = np.flatnonzero((dq >= lo) & (dq < hi))
    rs = np.flatnonzero((rq >= lo) & (rq < hi))
    di, ri = prep.di[ds], prep.ri[rs]
    dbeg, dend = dets.tbeg[di], dets.tbeg[di] + dets.dur[di]
    if p.alignment == "segment":     # the kept detection of a reference's (term, segment)
        _, a, b = np.intersect1d(prep.g_d[ds], prep.g_r[rs], assume_unique=True, return_indices=True)
        return Alignment(di[a], ri[b], {"pairs": int(len(a))})
    if p.align == "kaldi":
        dm, _, astats = align_kaldi(prep.g_r[rs], occ.beg[ri], occ.end[ri], prep.g_d[ds], dbeg, dend,
                                    max_distance=int(round(p.tolerance * 100)))
    else:
        srange = (dets.min_score, dets.max_score) if dets.min_score is not None else None
        dm, _, astats = align_f4de(prep.g_r[rs], occ.beg[ri], occ.end[ri], prep.g_d[ds], dbeg, dend,
                                   dets.score[di], p.tolerance, srange, dur_d=dets.dur[di])
    m = dm >= 0
    return Alignment(di[m], ri[dm[m]], astats)


@dataclass(frozen=True)
class Condition:
    """One conditional set of F4DE's -q (`attr`, `value`: the terms with that attribute value)
    or -Y (`source_types`: the ECF excerpts of those source types, every term)."""
    name: str
    attr: Optional[str] = None
    value: Optional[str] = None
    source_types: Optional[tuple[str, ...]] = None


def term_conditions(terms: TermList, spec: str) -> list[Condition]:
    """F4DE -q `Attr:regex=RE` (or `Attr:RE`, or `Attr` for every value): one condition
    `Attr-value` per value of the attribute that RE matches (a Perl-style search, not a full
    match, as F4DE's groupByAttributes), sorted by name."""
    name, colon, rx = spec.partition(":")
    rx = rx[len("regex="):] if rx.startswith("regex=") else rx
    terms.check_attribute(name, "--term-attr")
    r = compile_term_regex(rx) if colon and rx else None
    values = sorted({a[name] for a in terms.attrs if name in a and (r is None or r.search(a[name]))})
    if not values:
        raise InputError(f"--term-attr: '{rx[:80]}' matches no value of the attribute '{name[:80]}'",
                         terms.path or None)
    return sorted((Condition(f"{name}-{v}", name, v) for v in values), key=lambda c: c.name)


def source_type_condition(spec: str) -> Optional[Condition]:
    """F4DE -Y `NAME:TYPE1,TYPE2` -> one condition; a plain type list -> None."""
    name, colon, types = spec.partition(":")
    if not colon:
        return None
    if not name or not types:
        raise InputError(f"--source-type: expected NAME:TYPE[,TYPE...], got '{spec[:80]}'")
    return Condition(name, source_types=tuple(t for t in types.split(",") if t))


def score_conditions(kws: KwsData, dets: Detections, p: Params, conds: list[Condition]) -> list:
    """(name, StdResult, selected terms) of each condition, each scored as its own run (its
    own averages and maximum-TWV threshold, as F4DE's conditional DET curves). A condition
    whose terms have no reference occurrence gets a result with undefined (None) figures."""
    out = []
    for c in conds:
        if c.source_types is not None:
            pc = replace(p, source_types=list(c.source_types))
            sel = np.ones(len(kws.terms), bool)
        else:
            pc = replace(p, term_attr=None, term_values=(c.attr, c.value))
            sel = np.asarray([a.get(c.attr) == c.value for a in kws.terms.attrs], dtype=bool)
        prep = prepare(kws, dets, pc)
        res = finish(prep, align_terms(prep))
        out.append((c.name, res, sel if res.system_terms is None else sel & res.system_terms))
    return out


def score_std(kws: KwsData, dets: Detections, p: Params) -> StdResult:
    """The whole scoring in one process (the nj = 1 path of score_std.sh)."""
    prep = prepare(kws, dets, p)
    return finish(prep, align_terms(prep))


def _cnxe_figures(prep: Prepared, tt, tscore, ttarget, p_tar: float, warnings: list):
    """Cnxe and Cmin_nxe on time-located trials with virtual non-targets (terms with targets
    only): (default score, cnxe, cmin, affine cmin, gamma, delta, separable)."""
    p, dets, Q, N = prep.params, prep.dets, prep.n_terms, prep.n_trials
    ntrue, evaluated = prep.ntrue, prep.evaluated
    ct = evaluated & (ntrue > 0)
    if p.default_score is not None:
        default = float(p.default_score)
    elif len(dets):
        default = float(dets.score.min())
    else:
        default = None
    cn = cmin = cmin_affine = gamma = delta = None
    separable = False
    if default is None:
        warnings.append("no detections and no --default-score: Cnxe is undefined")
    elif ct.any():
        keep = ct[tt]
        tar_s = tscore[keep & ttarget]
        non_s = tscore[keep & ~ttarget]
        n_unal_ref = int((ntrue[ct] - np.bincount(tt[ttarget], minlength=Q)[ct]).sum())
        n_non_q = np.bincount(tt[keep & ~ttarget], minlength=Q)
        virt = N - ntrue - n_non_q
        if np.any(virt[ct] < 0):
            warnings.append("more detections than trials for some term: virtual non-targets clamped at 0")
        n_virt = float(np.maximum(virt[ct], 0).sum())
        pts = cnxe.points(np.r_[tar_s, default], np.r_[np.ones(len(tar_s)), n_unal_ref],
                        np.r_[non_s, default], np.r_[np.ones(len(non_s)), n_virt])
        if pts[1].any() and not pts[1].all():
            cn = cnxe.cnxe(*pts, p_tar)
            fit = cnxe.min_cnxe_affine(*pts, p_tar)
            cmin, gamma, delta, separable = fit.cnxe, fit.gamma, fit.delta, fit.separable
            cmin_affine = cmin
            if p.cmin == "pav":
                cmin = cnxe.min_cnxe_pav(*pts, p_tar)
        if separable:
            warnings.append("target and non-target scores are separable: Cmin_nxe is an infimum")
        if gamma is not None and gamma == gamma and gamma < 0:
            warnings.append("the optimal recalibration has gamma < 0: scores are anti-correlated with the truth")
    return default, cn, cmin, cmin_affine, gamma, delta, separable


def finish(prep: Prepared, ali: Alignment) -> StdResult:
    """Every figure from the prepared task and the alignment of all its terms."""
    p, dets, terms, warnings, Q = prep.params, prep.dets, prep.kws.terms, prep.warnings, prep.n_terms
    dterm, di, ri, yes_all = prep.dterm, prep.di, prep.ri, prep.yes_all
    ntrue, evaluated, t_audio, N, beta = prep.ntrue, prep.evaluated, prep.t_audio, prep.n_trials, prep.beta
    pt, cm, cf, astats = prep.p_target, prep.c_miss, prep.c_fa, ali.stats
    n_det_outside, n_det_not_in_ecf_file = prep.counts["n_det_outside"], prep.counts["n_det_not_in_ecf_file"]
    n_ref_outside, n_dup = prep.counts["n_ref_outside"], prep.counts["n_dup"]
    # positions of the aligned pairs in di / ri (both ascending)
    dm = np.full(len(di), -1, np.int64)
    rm = np.full(len(ri), -1, np.int64)
    pd, pr = np.searchsorted(di, ali.det), np.searchsorted(ri, ali.ref)
    dm[pd], rm[pr] = pr, pd

    # --- trials of evaluated terms
    ev_d = evaluated[dterm[di]]
    tt = dterm[di][ev_d]
    tscore = dets.score[di][ev_d]
    tyes = yes_all[di][ev_d]
    ttarget = dm[ev_d] >= 0
    tw = compute_twv(Q, ntrue, evaluated, N, beta, tt, tscore, tyes, ttarget,
                     fa_undefined_ok=p.alignment == "segment")
    # --- counts
    hits = np.bincount(tt[ttarget & tyes], minlength=Q)
    fa = np.bincount(tt[~ttarget & tyes], minlength=Q)
    ndet = np.bincount(dterm[di], minlength=Q)
    miss = np.where(evaluated, ntrue - hits, 0)
    n_hits = int(hits[evaluated].sum())
    n_fa = int(fa[evaluated].sum())
    n_targets = int(ntrue[evaluated].sum())
    # --- Cnxe (time-located trials with virtual non-targets; targets terms only)
    p_tar = 1.0 / (1.0 + beta)
    default, cn, cmin, cmin_affine, gamma, delta, separable = _cnxe_figures(
        prep, tt, tscore, ttarget, p_tar, warnings)
    c_det, c_default, c_norm = detection_cost(tw.p_miss, tw.p_fa, pt, cm, cf)
    metrics = {
        "atwv": tw.atwv, "mtwv": tw.mtwv, "mtwv_threshold": tw.mtwv_threshold,
        "otwv": tw.otwv, "stwv": tw.stwv, "p_miss": tw.p_miss, "p_fa": tw.p_fa,
        "p_miss_at_mtwv": tw.p_miss_at_mtwv, "p_fa_at_mtwv": tw.p_fa_at_mtwv,
        "cnxe": cn, "cmin_nxe": cmin, "effective_prior": p_tar,
        "c_det": c_det, "c_default": c_default, "c_norm": c_norm,
        "calibration_loss": None if cn is None or cmin_affine is None else cn - cmin_affine,
        "n_terms": int(evaluated.sum()), "n_targets": n_targets, "n_detections": int(len(tt)),
        "n_hits": n_hits, "n_false_alarms": n_fa, "n_misses": n_targets - n_hits,
        "actual_threshold": tw.actual_threshold, "beta": beta,
    }
    extra = {
        "t_audio": t_audio, "trials_per_term": N, "preset": p.preset, "p_target": pt, "c_miss": cm, "c_fa": cf,
        "n_terms_listed": Q, "n_terms_with_targets": tw.n_terms_with_targets,
        "n_detections_read": int(len(dets)), "n_detections_outside_ecf": n_det_outside,
        "n_detections_in_files_not_in_ecf": n_det_not_in_ecf_file,
        "n_references_outside_ecf": n_ref_outside, "n_duplicate_detections": n_dup,
        "n_correct_rejects": int(np.sum(~ttarget & ~tyes)),
        "decisions_consistent": tw.decisions_consistent, "default_score": default,
        "cmin_gamma": gamma, "cmin_delta": delta, "cmin_method": p.cmin, "cmin_separable": separable,
        "align": p.align, "alignment": p.alignment, "n_segments": prep.counts.get("n_segments"),
        "tolerance": p.tolerance, "compat_f4de": p.compat_f4de,
        "include_notarget_terms": p.include_notarget_terms, "alignment_stats": astats,
        "just_system_terms": p.just_system_terms, "file_channels": p.file_channels,
        "detection_format": dets.fmt, "warnings": warnings,
    }
    ali = {"det_index": di, "det_term": dterm[di],
           "det_ref": np.where(dm >= 0, ri[np.maximum(dm, 0)], -1) if len(ri) else np.full(len(di), -1),
           "ref_index": ri,
           "ref_det": np.where(rm >= 0, di[np.maximum(rm, 0)], -1) if len(di) else np.full(len(ri), -1),
           "yes": yes_all, "file_vocab": prep.file_vocab}
    trials = {"term": tt, "score": tscore, "yes": tyes, "target": ttarget, "n_trials": N,
              "t_audio": t_audio}
    return StdResult(metrics, extra, tw, warnings, terms, evaluated, ntrue, hits, fa, miss, ndet, ali, beta,
                     trials, system_terms=prep.system_terms)
