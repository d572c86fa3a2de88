"""F4DE 3.5.0's term-weighted DET computation (DETCurve::Compute_blocked_DET_points,
updateMinScoreForBlockWeighted, MetricFuncs::combBlockSetCalc, TrialsFuncs'
actual-decision threshold), re-derived so that KWSEval's reports and DET files show F4DE's
values: its DET points (UniqThreshold, or Articulated with `-a`), the Best (maximum TWV),
Optimum (each block at its own best point of the sweep) and Supremum (every aligned target
kept, no false alarm) figures, per block and per set, and the sample standard deviations
behind the `-2SE/+2SE` columns of `.dat.1`.

A block is a term (KWSEval's `Keyword`): its aligned detections' scores (targets), its
unaligned ones' (non-targets), its references never detected (omitted targets) and the
YES/NO decisions. F4DE sums the blocks' rates in the order of its Perl hashes, and so do the
callers here (their dicts in termeval.std.kwseval_order's orders): the sums are F4DE's to the
last bit, and so is which blocks a sweep's Optimum reaches (the first block without PMiss or
PFA stops it).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class Block:
    """One block's trials: sorted scores (ascending), omitted targets, decision counts."""
    targ: list[float]
    nontarg: list[float]
    omitted: int
    yes_targ: int = 0
    yes_nontarg: int = 0
    min_yes: Optional[float] = None     # over the block's detections
    max_no: Optional[float] = None

    @property
    def n_targ(self) -> int:
        return len(self.targ) + self.omitted


@dataclass
class SetFigures:
    """The figures of one DET (a set of blocks)."""
    points: list = field(default_factory=list)  # (thr, pmiss, pfa, twv, ssd_miss, ssd_fa, ssd_twv, n_blocks)
    best: tuple = (None, None, None, None)       # (threshold, twv, pmiss, pfa)
    actual: tuple = (None, None, None, None, None, None)  # (twv, ssd, pmiss, ssd, pfa, ssd)
    optimum: tuple = (None, None, None)          # (twv, pmiss, pfa)
    supremum: tuple = (None, None, None)
    block_optimum: dict = field(default_factory=dict)   # id -> (thr, twv, pmiss, pfa)
    block_supremum: dict = field(default_factory=dict)
    min_score: Optional[float] = None


def _ssd(n: int, s: float, s2: float) -> Optional[float]:
    """MMisc::safe_sqrt of the sample variance (n > 1), else undefined."""
    if n <= 1:
        return None
    v = ((n * s2) - (s * s)) / (n * (n - 1))
    return math.sqrt(v) if v > 0 else 0.0


def block_set_calc(counts: dict, tot_trials: int, beta: float, blocks: dict) -> tuple:
    """combBlockSetCalc: (twv, ssd, pmiss, ssd, pfa, ssd) of the mean rates over the blocks of
    `counts` ({id: (n_miss, n_fa)}); a block's rates: n_miss / NTarg, n_fa / (T - NTarg)."""
    ms = ms2 = fs = fs2 = cs = cs2 = 0.0
    mn = fn = cn = 0
    comb_ok = True
    for b, (nm, nf) in counts.items():
        nt = blocks[b].n_targ
        miss = nm / nt if nt > 0 else None
        fa = nf / (tot_trials - nt) if tot_trials != nt else None   # segments: undefined
        if miss is not None:
            ms += miss
            ms2 += miss * miss
            mn += 1
        if fa is not None:
            fs += fa
            fs2 += fa * fa
            fn += 1
        if miss is not None and fa is not None and comb_ok:
            c = 1 - (miss + beta * fa)
            cs += c
            cs2 += c * c
            cn += 1
        else:
            comb_ok = False
    fa_m = fs / fn if fn else None
    miss_m = ms / mn if mn else None
    comb = 1 - (miss_m + beta * fa_m) if miss_m is not None and fa_m is not None else None
    return (comb, _ssd(cn, cs, cs2) if comb_ok else None, miss_m, _ssd(mn, ms, ms2), fa_m, _ssd(fn, fs, fs2))


def _nv(x: Optional[float]) -> float:
    """Perl's numeric value of a figure (undef is 0)."""
    return 0.0 if x is None else x


def actual_threshold(blocks: dict) -> Optional[float]:
    """TrialsFuncs::getTrialActualDecisionThreshold over every block of the set (evaluated or
    not): (MinYes + MaxNo) / 2, MinYes without NO decisions, MaxNo without YES ones."""
    ys = [b.min_yes for b in blocks.values() if b.min_yes is not None]
    ns = [b.max_no for b in blocks.values() if b.max_no is not None]
    if not ys and not ns:
        return None
    if not ns:
        return min(ys)
    if not ys:
        return max(ns)
    return (min(ys) + max(ns)) / 2


def _largest_between(blocks: dict, st: dict, scores: str, start: str, low: float, high: float) -> Optional[float]:
    """The largest of each block's `scores` (targ or nontarg, sorted) from its `start` index
    on, below `high` and above `low` (None: none)."""
    best = None
    for b, blk in blocks.items():
        values = getattr(blk, scores)
        i = st[b][start]
        while i < len(values) and values[i] < high:
            if values[i] > low and (best is None or best < values[i]):
                best = values[i]
            i += 1
    return best


def _next_min(st: dict, blocks: dict, cur: float, style: int) -> Optional[float]:
    """The next threshold of updateMinScoreForBlockWeighted (None: the sweep is over)."""
    nt_v = nn_v = None
    for b, blk in blocks.items():
        s = st[b]
        while s["ti"] < len(blk.targ) and blk.targ[s["ti"]] <= cur:
            s["ti"] += 1
        while s["ni"] < len(blk.nontarg) and blk.nontarg[s["ni"]] <= cur:
            s["ni"] += 1
        if s["ti"] < len(blk.targ):
            v = blk.targ[s["ti"]]
            nt_v = v if nt_v is None or nt_v > v else nt_v
        if s["ni"] < len(blk.nontarg):
            v = blk.nontarg[s["ni"]]
            nn_v = v if nn_v is None or nn_v > v else nn_v
    cands = [v for v in (nt_v, nn_v) if v is not None]
    if not cands:
        return None
    n_min = min(cands)
    if style == 1:
        return n_min
    nnn = None if nt_v is None else _largest_between(blocks, st, "nontarg", "pni", 0.0 if nn_v is None else nn_v, nt_v)
    nnt = None if nn_v is None else _largest_between(blocks, st, "targ", "pti", 0.0 if nt_v is None else nt_v, nn_v)
    if nt_v is not None and nn_v is not None:
        if nnn is not None and nt_v > nn_v and nt_v > nnn:
            if nnn > nn_v:
                st[None] = nnn
            return nn_v
        if nnt is not None and nn_v > nt_v and nn_v > nnt:
            if nnt > nt_v:
                st[None] = nnt
            return nt_v
        return n_min
    if nt_v is None:
        if nnn is not None and nnn > nn_v:
            st[None] = nnn
        return nn_v
    if nnt is not None and nnt > nt_v:
        st[None] = nnt
    return nt_v


def _advance(st: dict, blocks: dict, cur: float) -> tuple[bool, int]:
    """Move every block's indices past the scores below `cur`: (any score left, moves)."""
    left = False
    moves = 0
    for b, blk in blocks.items():
        s = st[b]
        s["ti"], s["ni"] = s["pti"], s["pni"]
        while s["ti"] < len(blk.targ) and blk.targ[s["ti"]] < cur:
            s["ti"] += 1
            moves += 1
        while s["ni"] < len(blk.nontarg) and blk.nontarg[s["ni"]] < cur:
            s["ni"] += 1
            moves += 1
        left = left or s["ti"] < len(blk.targ) or s["ni"] < len(blk.nontarg)
    return left, moves


def _point(st: dict, blocks: dict, tot: int, beta: float, thr, fig: SetFigures) -> tuple:
    """One DET point at threshold `thr` (accepting scores >= thr) and the blocks' optimum."""
    counts = {b: (st[b]["ti"] + blk.omitted, len(blk.nontarg) - st[b]["ni"]) for b, blk in blocks.items()}
    comb, ssd_c, miss, ssd_m, fa, ssd_f = block_set_calc(counts, tot, beta, blocks)
    if thr is not None:
        # combBlockSetCalc updates a block's optimum only until a block (in the hash's order)
        # without PMiss or PFA has undefined its combined sum
        for b, blk in blocks.items():
            nm, nf = counts[b]
            nt = blk.n_targ
            if nt == 0 or tot == nt:
                break
            c = 1 - (nm / nt + beta * (nf / (tot - nt)))
            best = fig.block_optimum.get(b)
            if best is None or c > best[1]:
                fig.block_optimum[b] = (_block_thresh(blk, nf, nm - blk.omitted, thr), c, nm, nf)
    return (thr, miss, fa, comb, ssd_m, ssd_f, ssd_c, len(blocks))


def _block_thresh(blk: Block, n_fa: int, targ_i: int, thr: float) -> float:
    """A block's optimum threshold as combBlockSetCalc sets it (F4DE indexes the non-target
    scores by the number of false alarms)."""
    fa_t = blk.nontarg[n_fa] if n_fa < len(blk.nontarg) else None
    mi_t = blk.targ[targ_i] if targ_i < len(blk.targ) else None
    if fa_t is not None and mi_t is not None:
        return min(fa_t, mi_t) if fa_t > thr and mi_t > thr else max(fa_t, mi_t, thr)
    if fa_t is not None:
        return fa_t if fa_t > thr else thr
    if mi_t is not None:
        return mi_t if mi_t > thr else thr
    return thr


def compute_set(blocks: dict, tot_trials: int, beta: float, articulated: bool = False) -> SetFigures:
    """Every figure of one DET: `blocks` {id: Block} of the set's evaluated blocks, in the order
    of F4DE's block hash (termeval.std.kwseval_order.det_block_order): its sums follow it."""
    fig = SetFigures()
    scores = [v for blk in blocks.values() for v in (blk.targ[:1] + blk.targ[-1:] + blk.nontarg[:1]
                                                      + blk.nontarg[-1:])]
    st = {b: {"ti": 0, "ni": 0, "pti": 0, "pni": 0} for b in blocks}
    if not scores:      # no detection score: F4DE returns before its Optimum/Supremum analyses
        p = _point(st, blocks, tot_trials, beta, None, fig)
        fig.points = [("NaN",) + p[1:]]
        fig.best = ("NaN", p[3], p[1], p[2])
        return fig
    else:
        cur = min(scores)
        fig.min_score = cur
        p = _point(st, blocks, tot_trials, beta, cur, fig)
        fig.points.append(p)
        fig.best = (cur, p[3], p[1], p[2])
        style = 2 if articulated else 1
        while True:
            for b in blocks:
                st[b]["pti"], st[b]["pni"] = st[b]["ti"], st[b]["ni"]
            if None in st:
                cur = st.pop(None)
            else:
                nxt = _next_min(st, blocks, cur, style)
                if nxt is None:
                    break
                cur = nxt
            left, moves = _advance(st, blocks, cur)
            if not left or not moves:
                break
            p = _point(st, blocks, tot_trials, beta, cur, fig)
            fig.points.append(p)
            if _nv(p[3]) > _nv(fig.best[1]):     # Perl: an undefined TWV compares as 0
                fig.best = (cur, p[3], p[1], p[2])
    _optimum_supremum(fig, blocks, tot_trials, beta)
    return fig


def _optimum_supremum(fig: SetFigures, blocks: dict, tot: int, beta: float) -> None:
    """The Optimum (each block at its best point; blocks without one skipped) and Supremum
    (every block with its omitted targets as misses and no false alarm, threshold 0.5) figures,
    summed in the blocks' order."""
    opt = {b: fig.block_optimum[b][2:] for b in blocks if b in fig.block_optimum}
    c, _, m, _, f, _ = block_set_calc(opt, tot, beta, blocks)
    fig.optimum = (c, m, f)
    fig.block_optimum = {b: (v[0], v[1], v[2] / blocks[b].n_targ, v[3] / (tot - blocks[b].n_targ))
                         for b, v in fig.block_optimum.items()}
    sup = {b: (blk.omitted, 0) for b, blk in blocks.items()}
    c, _, m, _, f, _ = block_set_calc(sup, tot, beta, blocks)
    fig.supremum = (c, m, f)
    for b, blk in blocks.items():
        pm = blk.omitted / blk.n_targ if blk.n_targ else None
        pf = 0.0 if tot != blk.n_targ else None
        fig.block_supremum[b] = (0.5, 1 - (pm + beta * pf) if pm is not None and pf is not None else None, pm, pf)
