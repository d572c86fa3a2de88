"""Every key of one fold (spec §1.1), from the fold's counts, for either mode."""
from __future__ import annotations

import numpy as np

from termeval.tde.benchmarks import SeedRules, seed_rules
from termeval.tde.seeddoc import boundary, coverage, grouping, lexicon, matching
from termeval.tde.seeddoc.common import Corpus, Strings, fscore, ratio
from termeval.tde.seeddoc.ned import ned_stats
from termeval.tde.seeddoc.ngrams import Levels, gold_pairs
from termeval.tde.seeddoc.nodes import build_nodes


PAIR_KEYS = ("matching", "grouping", "within_matching", "within_grouping")


def _prf(out: dict, prefix: str, p: float | None, r: float | None) -> None:
    out[f"{prefix}_precision"], out[f"{prefix}_recall"], out[f"{prefix}_fscore"] = p, r, fscore(p, r)


def _pair_scores(c: Corpus, strings: Strings, lev: Levels, rules: SeedRules, fsid: np.ndarray,
                 within: bool, out: dict, counts: dict, want_ned: bool) -> np.ndarray | None:
    """NED, matching, grouping (all pairs, or same-speaker pairs pooled: §2.9)."""
    pre = "within_" if within else ""
    key = _cluster_key(c, within)
    if within:
        ph_group = c.speaker[c.ph_file]
        f_group = c.speaker[c.f_file]
    else:
        ph_group = np.zeros(len(c.ph_on), np.int64)
        f_group = np.zeros(len(c.f_on), np.int64)
    flat = None
    if want_ned:
        ns = ned_stats(c, strings, fsid, c.m_frag, key, filter_overlap=rules.ned_filters_overlap)
        out[pre + "ned"] = ratio(ns.total, ns.pairs)
        counts[pre + "ned_pairs"] = ns.pairs
        flat = ns.flat
    gp = gold_pairs(lev, c.stretch, c.ph_on, c.ph_off, c.phone_mask, ph_group, 3, rules.lmax, rules.overlap)
    nd = build_nodes(c, fsid, key, rules.overlap == "time")
    per_type = rules.weights != "fragments"
    xs = matching.completed_stats(c, nd, strings, lev, ph_group, 3, rules.lmax, rules.overlap, per_type)
    p, r = matching.scores(xs, matching.gold_stats(gp, per_type), rules.weights)
    _prf(out, pre + "matching", p, r)
    counts[pre + "matching_complex_nodes"] = int(nd.complex.sum())
    counts[pre + "matching_flat_x"] = int(xs["fx"].sum())
    counts[pre + "matching_flat_y"] = len(gp.k)
    dx, dy, dxy = grouping.grouping_degrees(c, fsid, c.m_frag, key, f_group, rules)
    gst = grouping.grouping_stats(fsid, dx, dy, dxy)
    _prf(out, pre + "grouping", *grouping.scores(gst, rules.weights))
    if not within and rules.pairs_coverage and want_ned:
        cov, cov_d, nd_ph = coverage.zr_coverage(c, flat, gp)
        out["coverage"], out["coverage_discoverable"] = cov, cov_d
        counts["discoverable_phones"] = nd_ph
    return flat


def _cluster_key(c: Corpus, within: bool) -> np.ndarray:
    """Cluster of each membership row; within: (cluster, speaker) numbered (§2.9)."""
    if not within:
        return c.m_cls.astype(np.int64)
    if not len(c.m_cls):
        return np.zeros(0, np.int64)
    key2 = np.stack([c.m_cls, c.speaker[c.f_file][c.m_frag]], 1)
    return np.unique(key2, axis=0, return_inverse=True)[1].reshape(-1)


def _ned_only(c: Corpus, strings: Strings, fsid: np.ndarray, within: bool, out: dict, counts: dict) -> None:
    pre = "within_" if within else ""
    ns = ned_stats(c, strings, fsid, c.m_frag, _cluster_key(c, within), filter_overlap=False)
    out[pre + "ned"] = ratio(ns.total, ns.pairs)
    counts[pre + "ned_pairs"] = ns.pairs


def score_fold(c: Corpus, strings: Strings, lev: Levels, mode: str, pairs: bool = True,
               others: bool = True) -> tuple[dict, dict]:
    """(values, counts) of one fold. pairs: NED/matching/grouping keys (+ coverage for
    zr2015-doc); others: coverage (lrec2014), type, token, boundary."""
    rules = seed_rules(mode)
    out: dict = {}
    counts: dict = {"fragments": len(c.f_on), "phones": int(c.phone_mask.sum()),
                    "clusters": int(len(np.unique(c.m_cls)))}
    fsid = strings.ids(c.f_k0, c.f_k1)
    # NED (and zr2015-doc coverage) go with the pair keys, except for lrec2014's random batches,
    # where NED is a whole-corpus key (§2.10): the unit without pairs computes it
    want_ned = rules.ned_per_fold or others
    for within in (False, True):
        if pairs:
            _pair_scores(c, strings, lev, rules, fsid, within, out, counts, want_ned)
        elif others:
            _ned_only(c, strings, fsid, within, out, counts)
    if others:
        if rules.lexicon == "zr":
            n = lexicon.zr_counts(c, strings, fsid)
            sc = lexicon.zr_scores(n)
            for fam in ("type", "type_3to20", "token"):
                _prf(out, fam, sc[f"{fam}_precision"], sc[f"{fam}_recall"])
            b = boundary.zr_boundary(c)
            counts.update(n)
        else:
            out["coverage"] = coverage.lrec_coverage(c)
            sc, n = lexicon.lrec_scores(c, strings, fsid)
            for fam in ("type", "token"):
                _prf(out, fam, sc[f"{fam}_precision"], sc[f"{fam}_recall"])
            b = boundary.lrec_boundary(c)
            counts.update(n)
        _prf(out, "boundary", b["boundary_precision"], b["boundary_recall"])
    return out, counts
