#!/usr/bin/env python3
"""Merge the per-job statistics of python -m termeval.bin.tde_stats into the zrc2020 (tdev2) scores.

Usage: python -m termeval.bin.tde_merge [options] <data-dir> <exp-dir>
 e.g.: python -m termeval.bin.tde_merge --nj 4 data/mandarin exp/kamper

Writes <exp-dir>/scores/matching (ned, ned_pairs, coverage), scores/clustering (grouping and
type P/R/F), scores/parsing (token and boundary P/R/F), scores/scores.json (full precision,
plus `counts`), and the diagnostics <exp-dir>/details/clusters.txt and details/discarded.
Always writes the per-unit statistics units/units.tde_{class,file}.npz and the data identity
(`data_id`) for steps/compare_systems.sh; with --bootstrap N, a percentile interval for every
metric (NED and grouping resample classes, the others files or speakers; docs/uncertainty.md).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.bootstrap.units import data_identity
from termeval.cli import add_bootstrap_options, make_parser, positive_int, run
from termeval.errors import InputError
from termeval.tde_tables import zrc2020_tables
from termeval.zrc2020 import goldcache
from termeval.zrc2020.report import final_scores, write_report
from termeval.zrc2020.stats import Corpus, merge, read_shard
from termeval.zrc2020.units import save_and_bootstrap


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--nj", type=positive_int, default=1, help="number of jobs of python -m termeval.bin.tde_stats (default 1)")
    p.add_argument("--benchmark", default="zrc2020", choices=("zrc2020",), help="default zrc2020")
    add_bootstrap_options(p, "classes, recordings or speakers")
    p.add_argument("--bootstrap-unit", default="file", choices=("file", "speaker"),
                   help="resampling unit of the non-class metrics (default file)")
    p.add_argument("data_dir")
    p.add_argument("exp_dir")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = get_parser().parse_args(argv)
    if a.bootstrap < 0 or not 0 < a.ci < 1:
        raise InputError(f"--bootstrap must be >= 0 and --ci in (0, 1), got {a.bootstrap} and {a.ci}")
    paths = [os.path.join(a.exp_dir, "tde", f"stats.{j}") for j in range(1, a.nj + 1)]
    for q in paths:
        if not os.path.isfile(q + ".npz"):
            raise InputError("missing job statistics: run python -m termeval.bin.tde_stats first", q + ".npz")
    shards = [read_shard(q) for q in paths]
    corpus = Corpus.from_gold(goldcache.load(a.data_dir, os.path.join(a.exp_dir, "tde", "gold.npz"))[0])
    parts: dict = {}
    metrics, counts = merge(corpus, shards, parts)
    ci = save_and_bootstrap(a.exp_dir, corpus, shards, parts, final_scores(metrics), a.bootstrap,
                            a.seed, a.ci, a.bootstrap_unit)
    ref = [os.path.join(a.data_dir, f) for f in ("phones", "words", "reco2dur", "utt2spk")]
    more = {"data_id": data_identity([f for f in ref if os.path.isfile(f)], {"benchmark": a.benchmark}),
            "bootstrap": {"n": a.bootstrap, "seed": a.seed, "level": a.ci, "unit": a.bootstrap_unit,
                          "class_metrics_unit": "class"}}
    write_report(a.exp_dir, metrics, counts, shards, a.benchmark, ci, more)
    zrc2020_tables(os.path.join(a.exp_dir, "details"), corpus, shards, parts, counts)
    print(f"{os.path.basename(sys.argv[0])}: scores in {a.exp_dir}/scores, details in {a.exp_dir}/details",
          file=sys.stderr)


if __name__ == "__main__":
    run(main)
