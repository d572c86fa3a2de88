"""Alignment of detections to reference occurrences (docs/std.md §2).

`align_f4de` reproduces F4DE KWSEval's occurrence alignment: within each (term, file,
channel) group a detection may align with an occurrence iff its mid-point lies in
[ref.beg - tol, ref.end + tol]; the one-to-one matching maximises the total of
joint = 1 + 1e-8 * timeCgr + 1e-6 * scoreCgr, i.e. the largest number of alignments first,
then higher (group-normalised) scores, then larger time overlap (docs/std.md §2.2).

Vectorised: candidate pairs come from two grouped binary searches (no pair loops). Connected
clusters where every detection has one candidate (or every reference has one candidate) are
solved exactly by a per-reference (per-detection) arg-max over the sorted pair table; only
clusters where both sides branch go to an exact small Hungarian solver.

`align_kaldi` reproduces compute-atwv's greedy rule (docs/std.md §2.4).
"""
from __future__ import annotations

import numpy as np

EPS_TIME = 1e-8     # F4DE kernel weights
EPS_SCORE = 1e-6


def grouped_rank(g_sorted: np.ndarray, t_sorted: np.ndarray, g_q: np.ndarray, t_q: np.ndarray,
                 side: str = "left") -> np.ndarray:
    """searchsorted on (g, t) pairs: for each query, the number of sorted items with
    (g, t) < (g_q, t_q) (side='left') or <= (side='right'). Exact: times are replaced by
    their dense ranks among all values, groups by their index among the item groups, and the
    pair is packed into one int64 key for np.searchsorted."""
    m, n = len(g_sorted), len(g_q)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if m == 0:
        return np.zeros(n, dtype=np.int64)
    _, inv = np.unique(np.r_[t_sorted, t_q], return_inverse=True)
    inv = inv.reshape(-1).astype(np.int64)
    W = np.int64(inv.max() + 2)
    ug, gstart = np.unique(g_sorted, return_index=True)
    gi = np.searchsorted(ug, g_sorted)
    key_items = gi * W + inv[:m] + 1
    pos = np.searchsorted(ug, g_q)
    present = (pos < len(ug)) & (ug[np.minimum(pos, len(ug) - 1)] == g_q)
    # an absent group sorts just before the next present group (key pos*W, below every item)
    key_q = np.where(present, pos * W + inv[m:] + 1, pos * W)
    return np.searchsorted(key_items, key_q, side=side).astype(np.int64)


def _segmented_cummax(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Running maximum of x restarting at each change of g (g sorted)."""
    x = x.copy()
    if len(x) < 2:
        return x
    bad = np.flatnonzero((g[1:] == g[:-1]) & (x[1:] < x[:-1]))
    if len(bad) == 0:
        return x
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    stops = np.r_[starts[1:], len(g)]
    todo = np.unique(np.searchsorted(starts, bad, side="right") - 1)
    for k in todo:
        s0, s1 = starts[k], stops[k]
        x[s0:s1] = np.maximum.accumulate(x[s0:s1])
    return x


def f4de_mid(beg: np.ndarray, dur: np.ndarray) -> np.ndarray:
    """F4DE's detection mid-point, `MID = BT + DUR/2.0` in doubles (KWSTermRecord). Not
    `beg + (end - beg)/2`: that differs by one ulp for about a quarter of 3-decimal inputs."""
    return np.asarray(beg, dtype=np.float64) + np.asarray(dur, dtype=np.float64) / 2.0


def candidate_pairs(g_r, beg_r, end_r, g_d, mid_d, tol):
    """All allowed (det, ref) pairs: same group and not (mid < beg_r - tol or mid > end_r + tol),
    F4DE's test (`_bipartiteKernel`) with its double arithmetic and no tolerance.

    The window ends are computed once per reference exactly as F4DE does (beg - tol, end + tol
    in doubles); both are non-decreasing functions of beg/end, so the binary searches on them
    are exact. Returns (det_idx, ref_idx), sorted by det then ref begin.
    """
    ro = np.lexsort((beg_r, g_r))
    gs = g_r[ro]
    lo_w = beg_r[ro] - tol       # window start of each reference, sorted within a group
    hi_w = end_r[ro] + tol
    cm = _segmented_cummax(gs, hi_w)
    hi = grouped_rank(gs, lo_w, g_d, mid_d, side="right")   # refs with lo_w <= mid
    lo = grouped_rank(gs, cm, g_d, mid_d, side="left")      # first ref whose prefix max >= mid
    cnt = np.maximum(hi - lo, 0)
    total = int(cnt.sum())
    det_idx = np.repeat(np.arange(len(g_d), dtype=np.int64), cnt)
    starts = np.cumsum(cnt) - cnt
    pos = lo[det_idx] + (np.arange(total, dtype=np.int64) - starts[det_idx])
    ok = (mid_d[det_idx] >= lo_w[pos]) & (mid_d[det_idx] <= hi_w[pos])
    return det_idx[ok], ro[pos[ok]]


def _hungarian_max(w: np.ndarray) -> list[tuple[int, int]]:
    """Maximum-weight assignment on a small dense matrix (rows <= cols after transpose);
    entries <= 0 mean 'not allowed' and are dropped from the result. O(n^2 m)."""
    transposed = w.shape[0] > w.shape[1]
    if transposed:
        w = w.T
    n, m = w.shape
    cost = -w  # minimise
    INF = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)
    way = [0] * (m + 1)
    c = cost.tolist()
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [INF] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = INF
            j1 = 0
            row = c[i0 - 1]
            ui0 = u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    out = []
    for j in range(1, m + 1):
        if p[j] and w[p[j] - 1, j - 1] > 0:
            out.append((j - 1, p[j] - 1) if transposed else (p[j] - 1, j - 1))
    return out


def align_f4de(g_r: np.ndarray, beg_r: np.ndarray, end_r: np.ndarray,
               g_d: np.ndarray, beg_d: np.ndarray, end_d: np.ndarray, score_d: np.ndarray,
               tol: float = 0.5, score_range: tuple[float, float] | None = None,
               dur_d: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, dict]:
    """F4DE one-to-one alignment. g_*: int64 group keys (term, file, channel).

    dur_d: the detections' durations as read; the mid-point is beg_d + dur_d / 2 as in F4DE
    (end_d should be beg_d + dur_d). Without it, end_d - beg_d stands in for the duration.

    score_range: the KWSLIST header (min_score, max_score) if given; otherwise scores are
    normalised by the min/max of the detections in each group, as F4DE does.
    Returns (det_match, ref_match, stats): det_match[i] = aligned reference index or -1,
    ref_match[j] = aligned detection index or -1; stats counts the clusters by solver.
    """
    D, R = len(g_d), len(g_r)
    det_match = np.full(D, -1, dtype=np.int64)
    ref_match = np.full(R, -1, dtype=np.int64)
    stats = {"pairs": 0, "simple": 0, "hungarian_clusters": 0, "hungarian_max_size": 0}
    if D == 0 or R == 0:
        return det_match, ref_match, stats
    mid_d = f4de_mid(beg_d, end_d - beg_d if dur_d is None else dur_d)
    di, ri = candidate_pairs(g_r, beg_r, end_r, g_d, mid_d, tol)
    P = len(di)
    stats["pairs"] = P
    if P == 0:
        return det_match, ref_match, stats
    joint = _joint_weights(g_d, beg_d, end_d, score_d, beg_r, end_r, di, ri, score_range)
    deg_d = np.bincount(di, minlength=D)
    deg_r = np.bincount(ri, minlength=R)
    pc, ncl = _clusters(g_r, beg_r, di, ri, deg_d, D)
    # cluster types
    d_branch = np.zeros(ncl, dtype=bool)   # some detection has >1 candidate
    r_branch = np.zeros(ncl, dtype=bool)   # some reference has >1 candidate
    np.logical_or.at(d_branch, pc, deg_d[di] > 1)
    np.logical_or.at(r_branch, pc, deg_r[ri] > 1)
    star_r = ~d_branch[pc]                  # each det has 1 ref: per-ref arg-max
    star_d = d_branch[pc] & ~r_branch[pc]   # each ref has 1 det: per-det arg-max
    hard = d_branch[pc] & r_branch[pc]
    for sel, key in ((star_r, ri), (star_d, di)):
        idx = np.flatnonzero(sel)
        if len(idx) == 0:
            continue
        # best joint first; exact ties -> earliest detection in input order
        oo = np.lexsort((di[idx], -joint[idx], key[idx]))
        idx = idx[oo]
        first = np.r_[True, key[idx][1:] != key[idx][:-1]]
        win = idx[first]
        det_match[di[win]] = ri[win]
        ref_match[ri[win]] = di[win]
        stats["simple"] += len(win)
    hidx = np.flatnonzero(hard)
    if len(hidx):
        hidx = hidx[np.argsort(pc[hidx], kind="stable")]
        bounds = np.flatnonzero(np.r_[True, pc[hidx][1:] != pc[hidx][:-1], True])
        for s0, s1 in zip(bounds[:-1], bounds[1:]):
            sub = hidx[s0:s1]
            dl, dinv = np.unique(di[sub], return_inverse=True)
            rl, rinv = np.unique(ri[sub], return_inverse=True)
            w = np.zeros((len(dl), len(rl)))
            w[dinv, rinv] = joint[sub]
            for a, b in _hungarian_max(w):
                det_match[dl[a]] = rl[b]
                ref_match[rl[b]] = dl[a]
            stats["hungarian_clusters"] += 1
            stats["hungarian_max_size"] = max(stats["hungarian_max_size"], max(len(dl), len(rl)))
    return det_match, ref_match, stats


def _joint_weights(g_d, beg_d, end_d, score_d, beg_r, end_r, di, ri, score_range) -> np.ndarray:
    """F4DE's joint weight of each candidate pair (detection di, reference ri): 1 + time overlap
    share + normalised score, weighted by EPS_TIME, EPS_SCORE."""
    P = len(di)
    if score_range is not None:
        lo_s = np.full(P, score_range[0])
        span = np.full(P, max(score_range[1] - score_range[0], 1e-5))
    else:
        ug, inv = np.unique(g_d, return_inverse=True)
        gmin = np.full(len(ug), np.inf)
        gmax = np.full(len(ug), -np.inf)
        np.minimum.at(gmin, inv, score_d)
        np.maximum.at(gmax, inv, score_d)
        lo_s = gmin[inv[di]]
        span = np.maximum(gmax[inv[di]] - lo_s, 1e-5)
    rdur = np.maximum(end_r[ri] - beg_r[ri], 1e-5)
    tcgr = (np.minimum(end_d[di], end_r[ri]) - np.maximum(beg_d[di], beg_r[ri])) / rdur
    scgr = (score_d[di] - lo_s) / span
    return 1.0 + EPS_TIME * tcgr + EPS_SCORE * scgr


def _clusters(g_r, beg_r, di, ri, deg_d, D: int) -> tuple[np.ndarray, int]:
    """(cluster of each candidate pair, number of clusters): the union of the intervals [min ref
    rank, max ref rank] of each detection, in reference order."""
    R = len(g_r)
    ro = np.lexsort((beg_r, g_r))
    rank = np.empty(R, dtype=np.int64)
    rank[ro] = np.arange(R)
    rr = rank[ri]
    dmin = np.full(D, np.iinfo(np.int64).max)
    dmax = np.full(D, -1)
    np.minimum.at(dmin, di, rr)
    np.maximum.at(dmax, di, rr)
    has = deg_d > 0
    dets = np.flatnonzero(has)
    o = np.argsort(dmin[dets], kind="stable")
    dets = dets[o]
    mins, maxs = dmin[dets], dmax[dets]
    run_max = np.maximum.accumulate(maxs)
    new = np.r_[True, mins[1:] > run_max[:-1]]
    cid_sorted = np.cumsum(new) - 1
    det_cluster = np.full(D, -1)
    det_cluster[dets] = cid_sorted
    return det_cluster[di], int(cid_sorted[-1]) + 1


def align_kaldi(g_r: np.ndarray, beg_r: np.ndarray, end_r: np.ndarray,
                g_d: np.ndarray, beg_d: np.ndarray, end_d: np.ndarray,
                frames_per_sec: float = 100.0, max_distance: int = 50
                ) -> tuple[np.ndarray, np.ndarray, dict]:
    """Kaldi compute-atwv greedy alignment (docs/std.md §2.4), in input (file) order.

    Times are turned into integer frames (truncated, as compute-atwv parses them);
    centre = (start + end) // 2; a hypothesis may take an unused reference of its group whose
    centre is within `max_distance` frames, choosing the largest IoU (first on ties).
    """
    D, R = len(g_d), len(g_r)
    det_match = np.full(D, -1, dtype=np.int64)
    ref_match = np.full(R, -1, dtype=np.int64)
    if D == 0 or R == 0:
        return det_match, ref_match, {"pairs": 0}
    fr = lambda t: np.floor(np.asarray(t) * frames_per_sec + 1e-6).astype(np.int64)
    rs, re_, hs, he = fr(beg_r), fr(end_r), fr(beg_d), fr(end_d)
    rc = (rs + re_) // 2
    hc = (hs + he) // 2
    ro = np.lexsort((rc, g_r))
    gs, cs = g_r[ro], rc[ro].astype(np.float64)
    lo = grouped_rank(gs, cs, g_d, (hc - max_distance).astype(np.float64), side="left")
    hi = grouped_rank(gs, cs, g_d, (hc + max_distance).astype(np.float64), side="right")
    used = np.zeros(R, dtype=bool)
    for h in np.flatnonzero(hi > lo):  # only hypotheses with a candidate (few); input order
        best, best_iou = -1, -np.inf
        for k in range(lo[h], hi[h]):
            r = ro[k]
            if used[r]:
                continue
            inter = min(re_[r], he[h]) - max(rs[r], hs[h])
            union = max(re_[r], he[h]) - min(rs[r], hs[h])
            iou = inter / union if union > 0 else 0.0
            if iou > best_iou:
                best, best_iou = r, iou
        if best >= 0:
            used[best] = True
            det_match[h] = best
            ref_match[best] = h
    return det_match, ref_match, {"pairs": int((hi - lo).sum())}
