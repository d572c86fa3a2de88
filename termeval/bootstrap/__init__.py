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
