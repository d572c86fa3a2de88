"""What a scored STD run writes (termeval.std.stage): scores/std, scores/std_operating,
scores/scores.json, details/ (per_term.tsv, ranking_per_term.tsv, breakdown_<kind>.tsv,
det_points.tsv, alignment.csv, report.txt, det/twv plots; --compat kaldi: score.txt) and
units/units.std_term.npz, all into the directory `out` laid out as an exp dir.
"""
from __future__ import annotations

import os

import numpy as np

from termeval.bootstrap.engine import bootstrap_ci
from termeval.bootstrap.units import data_identity, save_units, units_path
from termeval.core.numbers import fmt_value
from termeval.core.scores import Metric, format_line, write_scores
from termeval.core.textio import atomic_write
from termeval.core.warn import note
from termeval.std import breakdown, det, figures
from termeval.std.compat import compat_module
from termeval.std.options import STD_MEASURES
from termeval.std.units import term_table

KEYS = [m.name for m in STD_MEASURES]       # scores/std, in its order: the declared measures


def rankings_and_breakdowns(ctx, res) -> None:
    """res.ranking (per-term ranked retrieval), res.breakdown_rows (each breakdown group scored
    as its own task), res.operating (pooled operating points, ranked-retrieval means) and
    res.units (the per-term statistics): metrics, computed in the stage's merge with the others."""
    terms = res.terms
    res.ranking = figures.std_ranking(res, ctx.p_at)
    res.breakdown_rows = figures.breakdown_rows(
        ctx.kinds, lambda kind: breakdown.labels(kind, terms.texts, terms.attrs, res.ntrue, ctx.bins, ctx.lexicon),
        lambda mask: figures.std_group(res, mask, res.ranking), ctx.bins, res.evaluated)
    res.operating = figures.std_operating(res, ctx.fa_per_hour, ctx.recalls, res.ranking)
    res.units = term_table(res, ctx.prep.dets)


def write(out: str, ctx, res) -> tuple[dict, str]:
    """Every file of a scored run (a termeval.std.score.StdResult) into `out`; returns the
    scores mapping and the text printed on stdout: a `#` line naming the system and the
    operating point (operating_line), then the lines of scores/std."""
    args, kws, dets = ctx.args, ctx.prep.kws, ctx.prep.dets
    details = os.path.join(out, "details")
    os.makedirs(details, exist_ok=True)
    write_details(details, res, kws, dets, args)
    if args.f4de_reports:   # KWSEval's sum / bsum (+ cond.sum / cond.bsum) reports, txt and/or csv
        from termeval.std.f4de_reports import write_reports   # --f4de-reports only: kept out of the start-up
        write_reports(details, res, args.trials_per_sec, res.conditions, args.f4de_report_format,
                      tuple(m for m in args.f4de_global_measures.split(",") if m))
    m = res.metrics
    support = {"atwv": f"{m['n_hits']} hits, {m['n_false_alarms']} FA, {m['n_misses']} misses",
               "mtwv": f"threshold {fmt_value(m['mtwv_threshold'])}" if m["mtwv_threshold"] is not None else "",
               "n_terms": f"of {res.extra['n_terms_listed']} listed", **cost_support(res)}
    ci, more = std_intervals(out, args, res)
    metrics = [Metric(k, m[k], support.get(k, ""), ci.get(k)) for k in KEYS]
    rk = res.ranking
    figures.write_ranking_table(os.path.join(details, "ranking_per_term.tsv"), res.terms.ids,
                                res.ntrue, rk, res.evaluated)
    groups = figures.write_breakdowns(details, res.breakdown_rows, figures.STD_COLUMNS, figures.HEADLINE["std"])
    extra = {"std": res.extra, "breakdowns": figures.merged_breakdowns(out, "std", groups), **more}
    if res.conditions:
        extra["conditions"] = {name: figures.std_condition(r, ctx.p_at) for name, r, _ in res.conditions}
    write_scores(out, "std", metrics, benchmark=args.preset, extra=extra, warnings=res.warnings)
    result: dict = {}
    write_scores(out, "std_operating", res.operating, benchmark=None, into=result)
    return result, operating_line(args.exp_dir, res) + "".join(format_line(x) + "\n" for x in metrics)


def operating_line(exp_dir, res) -> str:
    """`# <exp dir>: preset P, p_target P_t, c_miss C_m, c_fa C_f, beta B`: which system and
    which operating point the lines below it score (two runs' blocks on one log stay apart)."""
    e = res.extra
    return (f"# {exp_dir or '-'}: preset {e['preset']}, p_target {e['p_target']:g}, c_miss {e['c_miss']:g}, "
            f"c_fa {e['c_fa']:g}, beta {fmt_value(res.beta)}\n")


def cost_support(res) -> dict:
    """The support texts of the MediaEval 2013 cost lines (docs/std-metrics.md, "Detection cost")."""
    reject = res.beta >= 1      # C_Default = C_miss P_target: the reject-all system
    return {"c_default": "reject all: C_miss*P_target" if reject else "accept all: C_fa*(1-P_target)",
            "c_norm": "= 1 - ATWV" if reject else "beta < 1: P_miss/beta + P_fa, not 1 - ATWV",
            "calibration_loss": "cnxe - affine cmin_nxe"}


def write_kaldi(out: str, r, args) -> tuple[dict, str, list[str]]:
    """--compat kaldi: compute-atwv's five lines in details/score.txt (and on stdout), the
    same figures in scores/std (+ scores.json), and score.sh's other files
    (termeval.std.kaldi.report: alignment.csv, metrics.txt, KST/nbest/sweep files, categories)."""
    result: dict = {}
    text, warnings = compat_module("kaldi").write_into(out, args, r, into=result)
    return result, text, warnings


def std_intervals(out: str, args, res) -> tuple[dict, dict]:
    """Per-term table (res.units, the merge's) saved for compare_systems, intervals with
    --bootstrap, data identity."""
    us = res.units
    save_units(units_path(out, "std_term"), us)
    ci = bootstrap_ci(us, args.bootstrap, args.seed, args.ci) if args.bootstrap > 0 else {}
    files = [os.path.join(args.kws_dir, f) for f in sorted(os.listdir(args.kws_dir))] \
        if os.path.isdir(args.kws_dir) else [args.kws_dir]
    files = [f for f in files + [args.ecf, args.rttm, args.termlist] if f and os.path.isfile(f)]
    settings = {k: getattr(args, k) for k in ("preset", "p_target", "c_miss", "c_fa", "trials_per_sec",
                                              "include_notarget_terms", "align", "tolerance", "compat",
                                              "term_attr", "source_type", "term_attr_mode", "alignment",
                                              "term_normalization")}
    more = {"data_id": data_identity(files, settings),
            "bootstrap": {"n": args.bootstrap, "seed": args.seed, "level": args.ci, "unit": "term"}}
    return ci, more


def _f(x, fmt=None):
    if x is None or (isinstance(x, float) and x != x):
        return "NA"
    return fmt_value(x) if fmt is None else fmt.format(x)


def write_details(d: str, res, kws, dets, args) -> None:
    """per_term.tsv, det_points.tsv, alignment.csv, report.txt and the DET/TWV plots."""
    tw = res.twv
    terms = res.terms
    # per-term table
    with atomic_write(os.path.join(d, "per_term.tsv")) as f:
        f.write("termid\ttext\tevaluated\tn_targ\tn_det\tn_corr\tn_fa\tn_miss\ttwv\tpfa\tpmiss\totwv\n")
        for q, tid in enumerate(terms.ids):
            ev = bool(res.evaluated[q])
            f.write("\t".join([tid, terms.texts[q].replace("\t", " "), str(int(ev)), str(int(res.ntrue[q])),
                               str(int(res.n_det[q])), str(int(res.n_hits[q])), str(int(res.n_fa[q])),
                               str(int(res.n_miss[q])) if ev else "NA",
                               _f(tw.term_twv[q]) if ev else "NA", _f(tw.term_pfa[q]) if ev else "NA",
                               _f(tw.term_pmiss[q]) if ev else "NA",
                               _f(tw.term_otwv[q]) if ev else "NA"]) + "\n")
    # DET points (articulated) and plots
    k = det.articulated(tw.det_thr, tw.det_pmiss, tw.det_pfa)
    det.write_det_points(os.path.join(d, "det_points.tsv"), tw.det_thr[k], tw.det_pmiss[k],
                             tw.det_pfa[k], tw.det_twv[k])
    m = res.metrics
    if args.write_alignment:
        write_alignment_csv(os.path.join(d, "alignment.csv"), res, kws, dets)
    write_report(os.path.join(d, "report.txt"), res, args)
    if args.plots and len(k) == 0:
        note(None, "det and twv plots skipped: no detections, no curve to draw")
    elif args.plots and res.twv.n_terms_with_targets > 0 and m["atwv"] is not None:
        act = (m["p_fa"], m["p_miss"])
        best = (m["p_fa_at_mtwv"], m["p_miss_at_mtwv"])
        det.plot_det(os.path.join(d, "det"), tw.det_pmiss[k], tw.det_pfa[k], res.beta, act, best,
                         f"DET (ATWV {m['atwv']:.4f}, MTWV {m['mtwv']:.4f})")
        thr_act = tw.actual_threshold
        det.plot_twv(os.path.join(d, "twv"), tw.det_thr, tw.det_twv,
                         (thr_act, m["atwv"]) if thr_act is not None else None,
                         (m["mtwv_threshold"], m["mtwv"]), "TWV against threshold")


def _fmt_col(a: np.ndarray) -> list[str]:
    """Shortest round-trip text of each float (one C-level repr of the whole list)."""
    if len(a) == 0:
        return []
    return repr(np.asarray(a, dtype=np.float64).tolist())[1:-1].split(", ")


def write_alignment_csv(path: str, res, kws, dets) -> None:
    """F4DE/Kaldi alignment CSV: language,file,channel,termid,term,ref_bt,ref_et,sys_bt,
    sys_et,sys_score,sys_decision,alignment (CORR, MISS, FA, CORR!DET)."""
    a = res.ali
    di, dref = a["det_index"], a["det_ref"]
    ri, rdet = a["ref_index"], a["ref_det"]
    occ = kws.occ
    lang = (kws.terms.language or "").replace(",", " ")
    # fields that go together are joined once per term, file+channel, reference occurrence or
    # decision+alignment (far fewer than detections): one text each, picked by code
    term = [f"{t.replace(',', ' ')},{x.replace(',', ' ')}" for t, x in zip(kws.terms.ids, kws.terms.texts)]
    aligned = dref >= 0
    dl = ["NO,CORR!DET", "YES,FA", "NO,MISS", "YES,CORR"]
    dl_code = 2 * aligned + a["yes"][di]
    # the text of each reference occurrence once (also the MISS lines')
    ref = [f"{b},{e}" for b, e in zip(_fmt_col(occ.beg), _fmt_col(occ.end))] + [","]
    with atomic_write(path) as f:
        f.write("language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment\n")
        if len(di):
            fc, fc_code = _file_channel(dets.file_ids, dets.file[di], dets.chan[di])
            texts = [(fc, fc_code), (term, a["det_term"]), (ref, np.where(aligned, dref, len(occ)))]
            floats = [dets.tbeg[di], dets.tbeg[di] + dets.dur[di], dets.score[di]]
            _write_detection_rows(f, lang + ",", texts, floats, (dl, dl_code))
        miss = ri[rdet < 0]
        if len(miss):
            mc = [[x.replace(",", " ") for x in occ.file[miss]], occ.chan[miss].astype(str).tolist(),
                  [term[q] for q in occ.term[miss].tolist()], [ref[r] for r in miss.tolist()]]
            _write_lines(f, lang + ",", ",,,,,MISS\n", mc)


def _file_channel(file_ids: list[str], file: np.ndarray, chan: np.ndarray) -> tuple[list[str], np.ndarray]:
    """(`file,channel` texts, the text of each detection): one text per distinct pair."""
    chans, chan_code = np.unique(chan, return_inverse=True)
    code = file.astype(np.int64) * len(chans) + chan_code.reshape(-1)
    keys, inv = np.unique(code, return_inverse=True)
    fk, ck = divmod(keys, len(chans))
    return ([f"{file_ids[x].replace(',', ' ')},{int(chans[c])}" for x, c in zip(fk.tolist(), ck.tolist())],
            inv.reshape(-1))


def _write_detection_rows(f, pre: str, texts: list, floats: list, last: tuple, block: int = 1 << 16) -> None:
    """pre, the texts[k][0][texts[k][1][i]], the floats' repr, last[0][last[1][i]], joined by
    ',', one line per detection i. Each line is laid out as fixed-width byte fields padded
    with NUL (texts: rows of their UTF-8 bytes; floats: _float_bytes), and the NULs dropped
    from a block of lines at once. Texts holding NUL go through _write_lines."""
    tables = [_text_bytes(t) for t, _ in texts + [last]]
    if "\0" in pre or any(t is None for t in tables):
        cols = [[t[c] for c in codes.tolist()] for t, codes in texts]
        cols += [_fmt_col(x) for x in floats] + [[last[0][c] for c in last[1].tolist()]]
        return _write_lines(f, pre, "\n", cols)
    comma = np.frombuffer(b",", dtype=np.uint8)
    head = np.frombuffer(pre.encode("utf-8"), dtype=np.uint8)
    width = len(head) + sum(t.shape[1] + 1 for t in tables) + 3 * 25     # bytes of a laid-out line
    block = max(1, min(block, (1 << 24) // width))                     # a block's fields: <= 16 MB
    for lo in range(0, len(floats[0]), block):
        hi = min(lo + block, len(floats[0]))
        n = hi - lo
        parts = [np.broadcast_to(head, (n, len(head)))]
        for table, (_, codes) in zip(tables, texts):
            parts += [table[codes[lo:hi]], np.broadcast_to(comma, (n, 1))]
        for x in floats:
            parts += [_float_bytes(x[lo:hi]), np.broadcast_to(comma, (n, 1))]
        parts += [tables[-1][last[1][lo:hi]], np.broadcast_to(np.frombuffer(b"\n", dtype=np.uint8), (n, 1))]
        flat = np.concatenate(parts, axis=1).ravel()
        f.write(flat[flat != 0].tobytes().decode("utf-8"))


def _text_bytes(texts: list[str]):
    """(len(texts), w) uint8: each text's UTF-8 bytes, NUL-padded; None if a text holds NUL."""
    if any("\0" in t for t in texts):
        return None
    raw = [t.encode("utf-8") for t in texts]
    w = max(1, max(map(len, raw), default=1))
    return np.array(raw, dtype=f"S{w}").view(np.uint8).reshape(len(raw), w)


_TENS = 10.0 ** np.arange(7)
_POW10 = 10 ** np.arange(1, 19, dtype=np.int64)


def _float_bytes(a: np.ndarray) -> np.ndarray:
    """(len(a), w) uint8: repr() of each float, NUL-padded. A value of at most 6 decimals in
    [1e-4, 1e9) (times, scores) is the decimal k / 10^d of its fewest decimals d >= 1 that reads
    back as it: no shorter text does (10^-d exceeds the float's spacing), so it is its repr;
    its digits are made column by column, right-aligned. Any other value goes through repr."""
    a = np.asarray(a, dtype=np.float64)
    n = len(a)
    ax = np.abs(a)
    dec = np.full(n, -1, dtype=np.int8)
    k = np.zeros(n, dtype=np.int64)
    todo = np.flatnonzero(((ax >= 1e-4) & (ax < 1e9)) | (ax == 0))
    for d in range(len(_TENS)):
        if not len(todo):
            break
        v = ax[todo]
        kk = np.rint(v * _TENS[d])
        hit = kk / _TENS[d] == v
        dec[todo[hit]] = d
        k[todo[hit]] = kk[hit]
        todo = todo[~hit]
    fast = dec >= 0
    whole = dec == 0                    # an integral value prints as "k.0"
    k[whole] *= 10
    dec[whole] = 1
    nd = np.maximum(np.searchsorted(_POW10, k, side="right") + 1, dec + 1).astype(np.int8)  # digits
    nd[~fast] = -2
    neg = np.signbit(a) & fast
    width = int((nd + 1 + neg).max()) if fast.any() else 0
    slow = np.flatnonzero(~fast)
    other = _text_bytes([repr(v) for v in a[slow].tolist()]) if len(slow) else np.zeros((0, 0), np.uint8)
    w = max(width, other.shape[1])
    out = np.zeros((w, n), dtype=np.uint8)      # column c from the right: out[w - 1 - c]
    prev = np.zeros(n, dtype=np.uint8)
    for c in range(width):
        k, dig = np.divmod(k, 10)
        dig = dig.astype(np.uint8)
        v = np.where(dec > c, dig, prev)        # past the dot: the digit one place to the right
        v += 48
        v[dec == c] = 46
        v[nd < c] = 0
        v[neg & (nd + 1 == c)] = 45
        out[w - 1 - c] = v
        prev = dig
    out = np.ascontiguousarray(out.T)
    if len(slow):
        out[slow, :other.shape[1]] = other
    return out


def _write_lines(f, pre: str, end: str, cols: list[list[str]], block: int = 1 << 16) -> None:
    """pre + the row's fields joined by ',' + end, for every row of `cols`: one C-level join
    per block of rows (no Python frame per row)."""
    for lo in range(0, len(cols[0]), block):
        f.write(pre + (end + pre).join(map(",".join, zip(*[c[lo:lo + block] for c in cols]))) + end)


def write_report(path: str, res, args) -> None:
    """Human summary plus grep-friendly Kaldi-style and QUESST-style lines."""
    m, e = res.metrics, res.extra
    lines = [
        f"T_audio {e['t_audio']:g} s, trials per term {e['trials_per_term']}, beta {res.beta:.6g}, "
        f"P_target {e['p_target']:g}, C_miss {e['c_miss']:g}, C_fa {e['c_fa']:g}, effective prior {m['effective_prior']:.7g}",
        f"terms {m['n_terms']} (listed {e['n_terms_listed']}), targets {m['n_targets']}, detections {m['n_detections']} "
        f"(read {e['n_detections_read']}, outside ECF {e['n_detections_outside_ecf']}), hits {m['n_hits']}, "
        f"FA {m['n_false_alarms']}, misses {m['n_misses']}, correct rejects {e['n_correct_rejects']}",
        f"ATWV = {_f(m['atwv'], '{:.4f}')}",
        f"STWV = {_f(m['stwv'], '{:.4f}')}",
        f"MTWV = {_f(m['mtwv'], '{:.4f}')}, THRESHOLD = {_f(m['mtwv_threshold'], '{:.4f}')}",
        f"OTWV = {_f(m['otwv'], '{:.4f}')}",
        f"actTWV: {_f(m['atwv'], '{:.8f}')}  maxTWV: {_f(m['mtwv'], '{:.8f}')}  Threshold: {_f(m['mtwv_threshold'], '{:.4f}')}",
        f"actCnxe: {_f(m['cnxe'], '{:.8f}')}  minCnxe: {_f(m['cmin_nxe'], '{:.8f}')}",
    ]
    for w in res.warnings:
        lines.append(f"warning: {w}")
    with atomic_write(path) as f:
        f.write("\n".join(lines) + "\n")
