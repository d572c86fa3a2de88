"""Uncertainty of every termeval metric (docs/uncertainty.md): the generic engine. It imports
no benchmark; each benchmark's unit tables live in its own package (std/units.py,
quesst/units.py, segmentation/units.py, ...).

  engine.py    per-unit statistics (UnitStats), percentile bootstrap CIs, paired bootstrap and
               approximate randomization between systems
  units.py     exp/<sys>/units/units.<stage>.npz and the data identity stored in scores.json
  cells.py     per-unit contingency cells: cluster metrics of resampled tables (segmentation)
  compare.py   the paired comparison of scored systems (steps/compare_systems.sh)
  forest.py    forest plot of the headline metrics with their intervals
"""

# The largest --bootstrap (resamples or permutations) a step accepts: every replicate of every
# metric is kept until its percentiles are taken (8 bytes each), and the time grows with
# resamples x units; 100,000 gives a 0.95 interval's ends to about +-0.001 of their
# probability, far below any reported difference (docs/uncertainty.md).
MAX_RESAMPLES = 100_000
