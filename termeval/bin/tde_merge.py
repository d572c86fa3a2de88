#!/usr/bin/env python3
"""Merge the per-job statistics of python -m termeval.bin.tde_stats into the zrc2020 (tdev2) scores.

Usage: python -m termeval.bin.tde_merge [options] <data-dir> <exp-dir>
 e.g.: python -m termeval.bin.tde_merge --nj 4 data/mandarin exp/kamper

Writes <exp-dir>/scores/matching (ned, ned_pairs, coverage), scores/clustering (grouping and
type P/R/F), scores/parsing (token and boundary P/R/F), scores/scores.json (full precision,
plus `counts`), and the diagnostics <exp-dir>/details/clusters.txt and details/discarded.
"""
from __future__ import annotations

import os
import sys

from termeval.cli import make_parser, positive_int, run
from termeval.data import load_gold
from termeval.errors import InputError
from termeval.zrc2020.report import write_report
from termeval.zrc2020.stats import Corpus, merge, read_shard


def main(argv):
    p = make_parser(__doc__)
    p.add_argument("--nj", type=positive_int, default=1, help="number of jobs of python -m termeval.bin.tde_stats (default 1)")
    p.add_argument("--benchmark", default="zrc2020", choices=("zrc2020",), help="default zrc2020")
    p.add_argument("data_dir")
    p.add_argument("exp_dir")
    a = p.parse_args(argv)
    paths = [os.path.join(a.exp_dir, "tde", f"stats.{j}") for j in range(1, a.nj + 1)]
    for q in paths:
        if not os.path.isfile(q + ".npz"):
            raise InputError("missing job statistics: run python -m termeval.bin.tde_stats first", q + ".npz")
    shards = [read_shard(q) for q in paths]
    corpus = Corpus.from_gold(load_gold(a.data_dir))
    metrics, counts = merge(corpus, shards)
    write_report(a.exp_dir, metrics, counts, shards, a.benchmark)
    print(f"{os.path.basename(sys.argv[0])}: scores in {a.exp_dir}/scores, details in {a.exp_dir}/details",
          file=sys.stderr)


if __name__ == "__main__":
    run(main)
