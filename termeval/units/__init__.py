"""Discrete speech units against gold phones (docs/units.md): the DiscoPhon benchmark
(`steps/score_discophon.sh`, discophon 0.2.0's definitions) and HuBERT-style unit quality
(`steps/score_units.sh`: PNMI, purities, PER after mapping, boundary F and R-value; `--compat
fairseq`: examples/hubert/measure_teacher_quality.py's numerics).

One module per metric: `cooccurrence.py` (the phone x unit counts, rows in discophon's order),
`quality.py` (PNMI, purities; fairseq's entropies), `mapping.py` (many-to-one, one-to-one),
`per.py` (phone error rate), `boundaries.py` (Räsänen search regions, R-value); `frames.py`
(gold phones on the 10 ms grid and units aligned to them), `readers.py` (unit files),
`alignment.py` (discophon's alignment files), `evaluate.py` (per-file counts, the merge),
`fairseq.py` (its table), `report.py`, `stage.py` (the two stages), `discophon.py` (the
benchmark's dataset and prediction layout, scores.jsonl)."""
