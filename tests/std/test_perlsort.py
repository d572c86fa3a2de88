"""Perl's merge sort (termeval.std.perlsort): same order as Perl for consistent comparators, and
Perl's own answer for an inconsistent one (traced by hand below)."""
from __future__ import annotations

import random

from termeval.std.kst import filter_nbest
from termeval.std.perlsort import perl_sort


def _cmp(a, b):
    return (a > b) - (a < b)


def test_consistent_comparators_sort_and_keep_ties_stable():
    rng = random.Random(4)
    for n in (0, 1, 2, 3, 17, 40, 300):
        xs = [(rng.randint(0, 9), i) for i in range(n)]
        assert perl_sort(xs, lambda a, b: _cmp(a[0], b[0])) == sorted(xs, key=lambda x: x[0])
    asc = list(range(100)) + [5, 3]           # long natural runs (>= 8 pairs) and a reversed one
    assert perl_sort(asc, _cmp) == sorted(asc)
    assert perl_sort(list(range(50, 0, -1)), _cmp) == list(range(1, 51))


def test_rock_paper_scissors_follows_perl():
    # A < B, B < C, C < A. Prep: (A, B) is an ascending pair, C a singleton: runs [A B] [C].
    # Merge: cmp(A, C) > 0, so C goes first; then A and B: C A B (Perl 5.8+ gives the same)
    beats = {("A", "B"): -1, ("B", "C"): -1, ("C", "A"): -1}

    def rps(a, b):
        if a == b:
            return 0
        return beats.get((a, b), -beats.get((b, a), 0))
    assert perl_sort(["A", "B", "C"], rps) == ["C", "A", "B"]


def test_filter_duplicates_as_perl_keeps_them():
    # hits of one utterance chained within 50 frames: filter_kws_results.pl (Perl 5.36) keeps
    # 52 (0.94) and 1 (0.77); a consistent sort would have kept 50 (0.88) alone
    rows = [("KW", "1", "32", "159", "0.00"), ("KW", "1", "1", "164", "0.77"), ("KW", "1", "42", "161", "0.29"),
            ("KW", "1", "50", "185", "0.88"), ("KW", "1", "52", "162", "0.94")]
    assert filter_nbest(rows, None) == [rows[4], rows[1]]
