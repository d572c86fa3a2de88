"""Perl's `sort BLOCK` (pp_sort.c, Peter McIlroy's merge sort with natural-run detection, used
by every Perl since 5.8), re-implemented so that a Perl script's sort is reproduced even when its
comparator is not a consistent order (filter_kws_results.pl's duplicate sort is not transitive:
which element is compared with which then decides the result).

Phases, as in Perl: pairs of adjacent elements are put in order; stretches of at least
PTHRESH = 8 pairs with the same sense become runs (descending ones reversed); runs are merged
pairwise by a divide-and-conquer schedule, each merge galloping (doubling steps after
RTHRESH = 6) then binary searching for where the head of one run goes in the other, equal
elements of the first run going first (stable).
"""
from __future__ import annotations

from typing import Callable, Sequence

PTHRESH = 8
RTHRESH = 6


def _prep(a: list, link: dict, cmp: Callable) -> int:
    """Natural runs of `a` (reordered in place); link[start] = end of each run. Returns the count."""
    n = len(a)
    b, p2, runs = 0, 0, 0
    sense = cmp(a[0], a[1]) > 0
    while b < n:
        p = t = b + 2
        while True:
            p += 1
            if p >= n or (cmp(a[t], a[p]) > 0) != sense:
                break
            p += 1
            t = p
        q = b
        while True:
            p = r = b + 2 * PTHRESH
            if r >= t:
                p = r = t
            else:
                while (cmp(a[p - 1], a[p]) > 0) == sense:
                    p -= 2
                    if not p > q:
                        break
                if p <= q:   # b..r is a long run: extend it
                    p = q = r
                    while True:
                        p += 2
                        if not (p < t and (cmp(a[p - 1], a[p]) > 0) == sense):
                            break
                        q = p
                    r = p = q + 2
            if q > b:        # a run longer than 2 at b
                savep = p
                p = q = q + 2
                if p == t and t + 1 == n and (cmp(a[p - 1], a[p]) > 0) == sense:
                    savep = r = p = q = n
                link[p2] = p2 + (p - b)
                p2 = link[p2]
                runs += 1
                if sense:
                    a[b:p] = a[b:p][::-1]
                p = savep
            while q < p:     # simple pairs
                link[p2] = p2 + 2
                p2 += 2
                runs += 1
                if sense:
                    a[q], a[q + 1] = a[q + 1], a[q]
                q += 2
            b = p
            if b == t and t + 1 == n:
                link[p2] = p2 + 1
                runs += 1
                b += 1
            q = r
            if not b < t:
                break
        sense = not sense
    return runs


def perl_sort(items: Sequence, cmp: Callable) -> list:
    """`sort { cmp($a, $b) } @items` as Perl computes it."""
    base = list(items)
    n = len(base)
    if n <= 1:
        return base
    aux: list = [None] * n
    links = {0: {}, 1: {}}          # per list (0 = base, 1 = aux): run start -> run end
    lists = [base, aux, base]
    ids = [0, 1, 0]
    stack = [[0, _prep(base, links[1], cmp)]]   # [offset, runs]; the prep links live in aux
    level = 0
    offset = 0
    while True:
        runs = stack[-1][1]
        if runs == 0:
            w = level & 1
            l1, l2, id1, id2 = lists[w], lists[w + 1], ids[w], ids[w + 1]
            while True:
                offset = _merge(l1, l2, links[id2], links[id1], stack[-1][0], cmp)
                level -= 1
                if level == 0:
                    return list(l2)
                stack.pop()
                l1, l2, id1, id2 = l2, l1, id2, id1
                runs = stack[-1][1]
                if runs != 0:
                    break
        stack[-1][1] = 0
        while runs > 2:
            level += 1
            half = runs // 2
            stack.append([offset, half])
            runs -= half
        w = level & 1
        if runs == 1:
            if w:   # the run belongs in aux
                end = links[1][offset]
                aux[offset:end] = base[offset:end]
                links[0][offset] = end
                offset = end
            elif level == 0:
                return base
        else:
            level += 1
            stack.append([offset, 0])
            if not w:   # the merged runs belong in aux: copy both there
                mid = links[1][offset]
                end = links[1][mid]
                aux[offset:end] = base[offset:end]
                links[0][offset] = mid
                links[0][mid] = end
                offset = mid


def _merge(l1: list, l2: list, link_in: dict, link_out: dict, offset: int, cmp: Callable) -> int:
    """Merge the two runs of l1 starting at `offset` (their ends in link_in) into l2, galloping;
    link_out[offset] = the end of the merged run, which is returned."""
    f1 = p1 = offset
    tp2 = offset
    l1_end = link_in[offset]
    f2 = l1_end
    l2_end = link_in[l1_end]
    while f1 < l1_end and f2 < l2_end:
        if cmp(l1[f1], l1[f2]) <= 0:
            q, b, t, sense = f2, f1, l1_end, -1
        else:
            q, b, t, sense = f1, f2, l2_end, 0
        i, run = 1, 0
        while True:   # ramp up
            p = b + i
            if p >= t:
                p = t - 1
                if p > b and cmp(l1[q], l1[p]) <= sense:
                    t = p
                else:
                    b = p
                break
            if cmp(l1[q], l1[p]) <= sense:
                t = p
                break
            b = p
            run += 1
            if run >= RTHRESH:
                i += i
        b += 1
        while b < t:  # binary search, split rounded down
            p = b + (t - b - 1) // 2
            if cmp(l1[q], l1[p]) <= sense:
                t = p
            else:
                b = p + 1
        if q == f1:
            k = max(1, t - f2)
            l2[tp2:tp2 + k] = l1[f2:f2 + k]
            tp2 += k
            f2 += k
            l2[tp2] = l1[f1]
            tp2 += 1
            f1 += 1
        else:
            k = max(1, t - f1)
            l2[tp2:tp2 + k] = l1[f1:f1 + k]
            tp2 += k
            f1 += k
            l2[tp2] = l1[f2]
            tp2 += 1
            f2 += 1
    if f1 == l1_end:
        if f2 < l2_end:
            l2[tp2:tp2 + l2_end - f2] = l1[f2:l2_end]
            tp2 += l2_end - f2
    else:
        l2[tp2:tp2 + l1_end - f1] = l1[f1:l1_end]
        tp2 += l1_end - f1
    link_out[p1] = tp2
    return l2_end
