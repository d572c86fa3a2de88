"""Uncertainty of every termeval metric (docs/uncertainty.md).

  engine.py    per-unit statistics (UnitStats), percentile bootstrap CIs, paired bootstrap and
               approximate randomization between systems
  units.py     exp/<sys>/units/units.<stage>.npz and the data identity stored in scores.json
  compare.py   the paired comparison of scored systems (steps/compare_systems.sh)
  forest.py    forest plot of the headline metrics with their intervals
"""
