"""Coverage in phones: V5a/V5b (zr2015-doc §3.3) and V5c (lrec2014 §4.3)."""
from __future__ import annotations

import numpy as np

from termeval.tde.seeddoc.common import Corpus, ratio
from termeval.tde.seeddoc.ngrams import GoldPairs, covered_phones


def zr_coverage(c: Corpus, flat_disc: np.ndarray, gp: GoldPairs) -> tuple[float | None, float | None, int]:
    """coverage = |phones of flat(P_disc)| / |D| (unclipped), coverage_discoverable =
    |phones of F_disc ∩ D| / |D|, D = phones of flat(P_all); also |D|."""
    n = len(c.ph_on)
    d = covered_phones(n, gp.k, gp.k + gp.L)
    pd = covered_phones(n, c.f_k0[flat_disc], c.f_k1[flat_disc])
    fd = covered_phones(n, c.f_k0, c.f_k1)
    nd = int(d.sum())
    return ratio(int(pd.sum()), nd), ratio(int((fd & d).sum()), nd), nd


def lrec_coverage(c: Corpus) -> float | None:
    """|∪ phones of r(x), x ∈ F_disc| / number of phones of the fold."""
    fd = covered_phones(len(c.ph_on), c.f_k0, c.f_k1)
    mask = c.phone_mask
    return ratio(int((fd & mask).sum()), int(mask.sum()))
