"""`metrics.txt` as Kaldi's kws_oracle_threshold.pl computes it from an alignment CSV
(egs/babel/s5d/local/kws_oracle_threshold.pl; rules in docs/std-kaldi-compat.md):

Only keywords with at least one reference (a CORR or MISS line) count. Per keyword, Ntrue =
its CORR + MISS lines; each line with a detection (sys_decision not empty) is an instance
(score = sys_score as text, ref = 1 for CORR/MISS, 0 for FA/CORR!DET), sorted by score
descending (numeric, compared only when the score texts differ), then references first.
gain = 1/Ntrue, cost = beta/(duration - Ntrue).

* ATWV: sum over instances of +gain for CORR, -cost for FA; averaged over keywords.
* OTWV: walking the sorted instances with a running TWV, the best value reached before a
  score change (and the running value whenever the score is exactly 1.0), 0 at worst; averaged.
* MTWV: grid t = 0, 0.001, 0.002, ... accumulated in double (t += 0.001) up to each instance's
  score: every grid point t <= score gets +gain (reference) or -cost (other), summed over
  keywords; the largest sum strictly above 0 (0 and threshold 0 if none), divided by the
  number of keywords. THRESHOLD is the grid point as Perl prints it (%.15g). Kaldi takes the
  first of equal sums in Perl's hash order (it varies from run to run); termeval the lowest,
  or with `perl_seed0` the first in the order of a perl run with PERL_HASH_SEED=0.
* STWV: 1 - mean over keywords of (references without any detection / Ntrue).
* Lattice Recall: 1 - (references without any detection) / (all references).
Printed with %.4f. Differences from compute-atwv: OTWV uses every distinct score instead of
the 20-point 0.05 grid, MTWV a 0.001 grid, and neither uses float32.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError
from termeval.std.perlhash import perl_keys
from termeval.std.perlsort import perl_sort

ORACLE_BETA = 999.9


@dataclass
class OracleMetrics:
    atwv: float
    otwv: float
    stwv: float
    mtwv: float
    mtwv_threshold: str
    lattice_recall: float
    n_keywords: int

    def text(self) -> str:
        return (f"ATWV = {self.atwv:.4f}\nOTWV = {self.otwv:.4f}\nSTWV = {self.stwv:.4f}\n"
                f"MTWV = {self.mtwv:.4f}, THRESHOLD = {self.mtwv_threshold}\n"
                f"Lattice Recall = {self.lattice_recall:.4f}\n")


def _grid(top: float) -> list[float]:
    out, t = [], 0.0
    while t <= top:
        out.append(t)
        t += 0.001
    return out


def oracle_metrics(csv_lines: list[str], duration: float, beta: float = ORACLE_BETA,
                   path: str = "", perl_seed0: bool = False) -> OracleMetrics | None:
    """kws_oracle_threshold.pl over the lines of an alignment CSV (header included); None when
    no keyword has a reference (the Perl script dies dividing by zero). `perl_seed0`: as the
    script runs under PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 (keywords summed and MTWV grid points
    visited in that Perl's hash order, termeval.std.perlhash), else in the module doc's order."""
    inst: dict[str, list] = {}
    ntrue: dict[str, int] = {}
    lat_miss: dict[str, int] = {}
    n_ref = n_lat_miss = 0
    for lineno, line in enumerate(csv_lines, 1):
        col = line.rstrip("\n").split(",")
        while col and col[-1] == "":  # Perl's split drops trailing empty fields
            col.pop()
        if len(col) != 12:
            raise InputError(f"expected 12 comma-separated fields, got {len(col)}", path, lineno)
        kw, label = col[3], col[11]
        if label == "alignment":
            continue
        if label in ("CORR!DET", "FA"):
            inst.setdefault(kw, []).append((col[9], 0, 1 if label == "FA" else 0))
        elif label in ("CORR", "MISS"):
            if kw not in inst:      # the script's first sight of kw: its lattice counts start at 0
                inst[kw] = []
                lat_miss[kw] = 0
            if col[10] != "":
                inst[kw].append((col[9], 1, 2 if label == "CORR" else 0))
            ntrue[kw] = ntrue.get(kw, 0) + 1
            n_ref += 1
            if label == "MISS" and col[10] == "":
                n_lat_miss += 1
                lat_miss[kw] = lat_miss.get(kw, 0) + 1
    if not ntrue:
        return None

    def order(a, b) -> int:
        if a[0] != b[0]:
            x, y = float(b[0]), float(a[0])
        else:
            x, y = b[1], a[1]
        return (x > y) - (x < y)

    top = max((float(s) for v in inst.values() for s, _, _ in v), default=-1.0)
    grid = _grid(top)
    sweep = np.zeros(len(grid))
    reach = 0  # grid points below it have a value (Perl's hash keys)
    atwv = otwv = 0.0
    keywords = perl_keys(list(ntrue)) if perl_seed0 else list(ntrue)
    for kw in keywords:  # Perl visits keywords in hash order; termeval in order of first line
        gain = 1.0 / ntrue[kw]
        cost = beta / (duration - ntrue[kw])
        local_otwv = max_otwv = local_atwv = 0.0
        active = None
        for score_text, ref, res in perl_sort(inst[kw], order):
            score = float(score_text)
            if local_otwv > max_otwv and active is not None and active != score:
                max_otwv = local_otwv
            local_otwv += gain if ref == 1 else -cost
            active = score
            if active == 1.0:
                max_otwv = local_otwv
            if res == 1:
                local_atwv -= cost
            elif res == 2:
                local_atwv += gain
            m = bisect.bisect_right(grid, score)
            sweep[:m] += gain if ref == 1 else -cost
            reach = max(reach, m)
        if local_otwv > max_otwv:
            max_otwv = local_otwv
        atwv += local_atwv
        otwv += max_otwv
    mtwv, thr = 0.0, "0"
    points = list(range(reach))
    if perl_seed0:      # `keys %mtwv_sweep`: the grid points (stored ascending) as Perl lists them
        pos = {"%.15g" % grid[k]: k for k in points}
        points = [pos[t] for t in perl_keys(list(pos))]
    values = sweep.tolist()
    for k in points:
        if values[k] > mtwv:   # equal sums: the first visited (module doc)
            mtwv, thr = values[k], "%.15g" % grid[k]
    n = len(ntrue)
    # `keys %keywords_lattice_miss`: the keywords met first on a reference line, and the others
    # from their first lattice miss (the ones without any add 0)
    lat = perl_keys(list(lat_miss)) if perl_seed0 else list(ntrue)
    stwv = 1 - sum(lat_miss.get(kw, 0) / ntrue[kw] for kw in lat) / n
    return OracleMetrics(atwv / n, otwv / n, stwv, mtwv / n, thr, 1 - n_lat_miss / n_ref, n)
