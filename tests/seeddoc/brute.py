"""The seed definitions applied literally (seed-definitions.md §2-4): every pair, every
completed sub-pair, every n-gram occurrence is listed as a Python set. Only for small corpora:
the reference the counted implementation (termeval/seeddoc) is compared with.

A corpus: phones {file: [(on_us, off_us, label)]} (SIL included), words {file: [(on, off)]},
speaker {file: spk}, classes [[(file, on_us, off_us), ...], ...].
"""
from __future__ import annotations

import itertools
import math
from collections import defaultdict


def lev(a, b) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def ratio(n, d):
    return None if d == 0 else n / d


def f1(p, r):
    if p is None or r is None:
        return None
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


class Brute:
    def __init__(self, phones, words, speaker, classes, mode, files=None):
        self.mode = mode
        self.zr = mode == "zr2015-doc"
        files = sorted(phones) if files is None else sorted(files)
        self.files = files
        self.speaker = speaker
        # phones: global list of (file, on, off, label) without SIL; index = position
        self.ph = [(f, a, b, l) for f in files for (a, b, l) in sorted(phones[f]) if l != "SIL"]
        self.stretch = []
        s = -1
        for k, p in enumerate(self.ph):
            if k == 0 or p[0] != self.ph[k - 1][0] or p[1] != self.ph[k - 1][2]:
                s += 1
            self.stretch.append(s)
        # fragments
        self.rng = {}
        for cl in classes:
            for (f, s0, e0) in cl:
                if f in files and (f, s0, e0) not in self.rng:
                    r = self.transcribe(f, s0, e0)
                    if r is not None:
                        self.rng[(f, s0, e0)] = r
        self.clusters = [set(x for x in cl if x in self.rng) for cl in classes]
        self.clusters = [c for c in self.clusters if c]
        self.F = set(self.rng)
        self.words = set()
        for f in files:
            for (a, b) in words.get(f, []):
                ks = [k for k, p in enumerate(self.ph) if p[0] == f and a <= p[1] and p[2] <= b]
                if ks:
                    self.words.add((ks[0], ks[-1] + 1))
        self.word_edges = {(f, t) for f in files for (a, b) in words.get(f, []) for t in (a, b)}

    # ------------------------------------------------------------------ basics
    def transcribe(self, f, s, e):
        kept = []
        for k, (pf, a, b, _) in enumerate(self.ph):
            if pf != f:
                continue
            o = min(e, b) - max(s, a)
            if o <= 0:
                continue
            if s <= a and b <= e:
                kept.append(k)
            elif self.zr and (o > 30000 or 2 * o > b - a):
                kept.append(k)
            elif not self.zr and (o >= 30000 or 2 * o >= b - a):
                kept.append(k)
        return (kept[0], kept[-1] + 1) if kept else None

    def T(self, r):
        return tuple(self.ph[k][3] for k in range(r[0], r[1]))

    def file_of(self, r):
        return self.ph[r[0]][0]

    def span(self, r):
        return self.ph[r[0]][1], self.ph[r[1] - 1][2]

    def pause_free(self, r):
        return self.stretch[r[0]] == self.stretch[r[1] - 1]

    def spk_r(self, r):
        return self.speaker[self.file_of(r)]

    def time_ovl(self, f1_, a1, b1, f2, a2, b2):
        o = min(b1, b2) - max(a1, a2)
        return f1_ == f2 and 2 * o > min(b1 - a1, b2 - a2)

    def range_ovl(self, u, v):
        if self.file_of(u) != self.file_of(v):
            return False
        if self.zr:
            return self.time_ovl(0, *self.span(u), 0, *self.span(v))
        return u[0] < v[1] and v[0] < u[1]

    def ngrams(self, lo, hi):
        out = []
        for k in range(len(self.ph)):
            for L in range(lo, hi + 1):
                r = (k, k + L)
                if r[1] <= len(self.ph) and self.file_of((r[1] - 1, r[1])) == self.file_of(r) and self.pause_free(r):
                    out.append(r)
        return out

    # ------------------------------------------------------------------ pair sets
    def p_disc(self, within):
        out = set()
        for c in self.clusters:
            for x, y in itertools.combinations(sorted(c), 2):
                if within and self.speaker[x[0]] != self.speaker[y[0]]:
                    continue
                if self.zr and self.time_ovl(*x, *y):
                    continue
                out.add(frozenset((x, y)))
        return out

    def completion(self, pairs, lmax):
        X = set()
        for pr in pairs:
            x, y = sorted(pr)
            rx, ry = self.rng[x], self.rng[y]
            A, B = self.T(rx), self.T(ry)
            D = lev(A, B)
            for i in range(len(A)):
                for i2 in range(i + 3, min(len(A), i + lmax) + 1):
                    for j in range(len(B)):
                        for j2 in range(j + 3, min(len(B), j + lmax) + 1):
                            if lev(A[:i], B[:j]) + lev(A[i:i2], B[j:j2]) + lev(A[i2:], B[j2:]) != D:
                                continue
                            u, v = (rx[0] + i, rx[0] + i2), (ry[0] + j, ry[0] + j2)
                            if u == v or self.range_ovl(u, v):
                                continue
                            X.add(frozenset((u, v)))
        return X

    def gold_pairs(self, lmax, within):
        occ = defaultdict(list)
        for r in self.ngrams(3, lmax):
            occ[self.T(r)].append(r)
        Y = set()
        for rs in occ.values():
            for u, v in itertools.combinations(rs, 2):
                if within and self.spk_r(u) != self.spk_r(v):
                    continue
                if not self.range_ovl(u, v):
                    Y.add(frozenset((u, v)))
        return Y

    @staticmethod
    def flat(P):
        return {a for p in P for a in p}

    def ordered_pr(self, X, Y, T):
        """004 eq. 1 with ordered pairs and second-element weights (§2.8)."""
        Xo = {(a, b) for p in X for a, b in (tuple(p), tuple(p)[::-1])}
        Yo = {(a, b) for p in Y for a, b in (tuple(p), tuple(p)[::-1])}
        XY = Xo & Yo

        def side(S):
            flat = {b for _, b in S}
            freq = defaultdict(int)
            for b in flat:
                freq[T(b)] += 1
            match = defaultdict(int)
            for _, b in S:
                match[T(b)] += 1
            return flat, freq, match
        fx, qx, mx = side(Xo)
        fy, qy, my = side(Yo)
        _, _, mxy = side(XY)
        p = None if not fx else sum(qx[t] / len(fx) * mxy[t] / mx[t] for t in qx)
        r = None if not fy else sum(qy[t] / len(fy) * mxy[t] / my[t] for t in qy)
        return p, r

    # ------------------------------------------------------------------ scores
    def scores(self, pairs=True, others=True):
        out = {}
        lmax = 20 if self.zr else 30
        for within in (False, True) if pairs else ():
            pre = "within_" if within else ""
            P = self.p_disc(within)
            if self.zr or others:
                nd = [lev(self.T(self.rng[a]), self.T(self.rng[b])) /
                      max(len(self.T(self.rng[a])), len(self.T(self.rng[b]))) for a, b in map(sorted, P)]
                out[pre + "ned"] = sum(nd) / len(nd) if nd else None
            X = self.completion(P, lmax)
            Y = self.gold_pairs(lmax, within)
            if self.zr:
                fxy, fx, fy = self.flat(X & Y), self.flat(X), self.flat(Y)
                p, r = ratio(len(fxy), len(fx)), ratio(len(fxy), len(fy))
                if not within:
                    D = {k for u in fy for k in range(*u)}
                    pd = {k for x in self.flat(P) for k in range(*self.rng[x])}
                    fd = {k for x in self.F for k in range(*self.rng[x])}
                    out["coverage"] = ratio(len(pd), len(D))
                    out["coverage_discoverable"] = ratio(len(fd & D), len(D))
            else:
                p, r = self.ordered_pr(X, Y, self.T)
            out[pre + "matching_precision"], out[pre + "matching_recall"], out[pre + "matching_fscore"] = p, r, f1(p, r)
            # grouping
            same = (lambda x, y: self.speaker[x[0]] == self.speaker[y[0]]) if within else (lambda x, y: True)
            Pc = {frozenset((x, y)) for c in self.clusters for x in c for y in c if x != y and same(x, y)}
            Pg = set()
            for x in self.F:
                for y in self.F:
                    if x == y or not same(x, y) or self.T(self.rng[x]) != self.T(self.rng[y]):
                        continue
                    if self.zr:
                        if x[0] == y[0] and min(x[2], y[2]) - max(x[1], y[1]) > 0:
                            continue
                    else:
                        rx, ry = self.rng[x], self.rng[y]
                        if x[0] == y[0] and rx[0] < ry[1] and ry[0] < rx[1]:
                            continue
                        if not all(3 <= r[1] - r[0] <= 20 and self.pause_free(r) for r in (rx, ry)):
                            continue
                    Pg.add(frozenset((x, y)))
            if self.zr:
                fxy, fx, fy = self.flat(Pc & Pg), self.flat(Pc), self.flat(Pg)
                p, r = ratio(len(fxy), len(fx)), ratio(len(fxy), len(fy))
            else:
                p, r = self.ordered_pr(Pc, Pg, lambda x: self.T(self.rng[x]))
            out[pre + "grouping_precision"], out[pre + "grouping_recall"], out[pre + "grouping_fscore"] = p, r, f1(p, r)
        if others and not pairs and not self.zr:
            for within in (False, True):
                pre = "within_" if within else ""
                P = self.p_disc(within)
                nd = [lev(self.T(self.rng[a]), self.T(self.rng[b])) /
                      max(len(self.T(self.rng[a])), len(self.T(self.rng[b]))) for a, b in map(sorted, P)]
                out[pre + "ned"] = sum(nd) / len(nd) if nd else None
        if others:
            out.update(self.zr_others() if self.zr else self.lrec_others())
        return out

    def _prf(self, out, fam, p, r):
        out[fam + "_precision"], out[fam + "_recall"], out[fam + "_fscore"] = p, r, f1(p, r)

    def zr_others(self):
        out = {}
        TD = {self.T(self.rng[x]) for x in self.F}
        TG = {self.T(w) for w in self.words}
        self._prf(out, "type", ratio(len(TD & TG), len(TD)), ratio(len(TD & TG), len(TG)))
        TD3 = {t for t in TD if 3 <= len(t) <= 20}
        TG3 = {t for t in TG if 3 <= len(t) <= 20}
        self._prf(out, "type_3to20", ratio(len(TD3 & TG3), len(TD3)), ratio(len(TD3 & TG3), len(TG3)))
        FD = {self.rng[x] for x in self.F}
        self._prf(out, "token", ratio(len(FD & self.words), len(FD)), ratio(len(FD & self.words), len(self.words)))
        bounds = defaultdict(set)
        for (f, a, b, _) in self.ph:
            bounds[f] |= {a, b}
        B = set()
        for t_ in {(x[0], t) for x in self.F for t in (x[1], x[2])}:
            f, t = t_
            best = min(bounds[f], key=lambda b: (abs(b - t), b))
            B.add((f, best) if abs(best - t) < 30000 else ("wrong", f, t))
        self._prf(out, "boundary", ratio(len(B & self.word_edges), len(B)),
                  ratio(len(B & self.word_edges), len(self.word_edges)))
        return out

    def lrec_others(self):
        out = {}
        cover = {k for x in self.F for k in range(*self.rng[x])}
        out["coverage"] = ratio(len(cover), len(self.ph))
        Y = {w for w in self.words if w[0] in cover and w[1] - 1 in cover}
        X = sorted(self.F)
        hits = [self.rng[x] in Y for x in X]
        found = [any(self.rng[x] == y for x in X) for y in sorted(Y)]
        tp, tr = ratio(sum(hits), len(X)), ratio(sum(found), len(Y))
        self._prf(out, "token", tp, tr)
        byt = defaultdict(list)
        for x, h in zip(X, hits):
            byt[self.T(self.rng[x])].append(h)
        byy = defaultdict(list)
        for y, h in zip(sorted(Y), found):
            byy[self.T(y)].append(h)
        p = sum(sum(v) / len(v) for v in byt.values()) / len(byt) if byt else None
        r = sum(sum(v) / len(v) for v in byy.values()) / len(byy) if byy else None
        self._prf(out, "type", p, r)
        Xb = {(self.ph[self.rng[x][0]][0], self.ph[self.rng[x][0]][1]) for x in X} | \
             {(self.ph[self.rng[x][1] - 1][0], self.ph[self.rng[x][1] - 1][2]) for x in X}
        cp = {(self.ph[k][0], t) for k in cover for t in (self.ph[k][1], self.ph[k][2])}
        Yb = self.word_edges & cp
        self._prf(out, "boundary", ratio(len(Xb & Yb), len(Xb)), ratio(len(Xb & Yb), len(Yb)))
        return out


def close(a, b, tol=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=0, abs_tol=tol)
