#!/usr/bin/env python3
"""Per-job statistics of the zrc2020 (tdev2) term discovery metrics.

Usage: python -m termeval.bin.tde_stats [options] <data-dir> <exp-dir> <job>
 e.g.: python -m termeval.bin.tde_stats --nj 4 data/mandarin exp/kamper 2

Reads <exp-dir>/classes (steps/prepare_classes.sh), takes the <job>-th of --nj contiguous
class ranges of about equal cost and writes <exp-dir>/tde/stats.<job>.{npz,json,clusters,
discarded}: NED integer sums, the distinct kept fragments with their grouping flags, counts,
per-class diagnostics and discarded fragments. python -m termeval.bin.tde_merge adds them up.
Job 1 also leaves the parsed data dir in <exp-dir>/tde/gold.npz (termeval.zrc2020.goldcache),
which the merge (and later runs) load instead of parsing the text again.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Sequence

from termeval.cli import make_parser, positive_int, run
from termeval.data import load_classes
from termeval.errors import InputError
from termeval.zrc2020 import goldcache
from termeval.zrc2020.stats import Corpus, compute_shard, shard_ranges, write_shard


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--nj", type=positive_int, default=1, help="number of jobs (default 1)")
    p.add_argument("--workers", type=positive_int, default=1, help="edit-distance threads per job (default 1)")
    p.add_argument("data_dir")
    p.add_argument("exp_dir")
    p.add_argument("job", type=positive_int)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = get_parser().parse_args(argv)
    if a.nj < 1 or not 1 <= a.job <= a.nj:
        raise InputError(f"job {a.job} is not in 1..{a.nj}")
    t = time.time()
    cache = os.path.join(a.exp_dir, "tde", "gold.npz")
    gold, cached = goldcache.load(a.data_dir, cache)
    if a.job == 1 and not cached:
        goldcache.save(gold, cache)
    classes = load_classes(os.path.join(a.exp_dir, "classes"), gold)
    c0, c1 = shard_ranges(classes, a.nj)[a.job - 1]
    st = compute_shard(Corpus.from_gold(gold), classes, c0, c1, workers=a.workers)
    write_shard(st, os.path.join(a.exp_dir, "tde", f"stats.{a.job}"))
    print(f"{os.path.basename(sys.argv[0])}: job {a.job}/{a.nj}: classes {c0}..{c1 - 1}, "
          f"{st.counts['fragments']} fragments ({st.counts['fragments_kept']} kept), "
          f"{st.ned.pairs} NED pairs, {time.time() - t:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    run(main)
