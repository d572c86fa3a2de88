"""ZeroSpeech term discovery metrics, zrc2020 definitions (tdev2 = PyPI zerospeech-tde 2.0.3).

Exact re-implementation by counting (no pair is ever materialised):
  transcribe.py   fragment -> kept phone range, the tdev2 first/last-phone rule (spec §3.2)
  ned.py          NED from per-(cluster, SIL-stripped string) counts, integer statistics
  grouping.py     grouping P/R from per-fragment flags and distinct token keys
  coverage.py     covered speech phone tokens
  token_type.py   token and type P/R
  boundary.py     boundary P/R (exact float equality, direction-aware)
  stats.py        per-shard statistics (a contiguous range of classes) and their merge
  report.py       score files (scores/matching, clustering, parsing) and diagnostics
  testing.py      tiny writers of prepared inputs for tests and benchmarks
  stage.py       the scoring run as a termeval.run.driver Stage (load, costs, compute, merge, report)
Entry point: steps/score_tde.sh -> python -m termeval.bin.score_tde.
"""
