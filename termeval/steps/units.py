"""The discrete unit steps: score_units and score_discophon (termeval/units)."""
from __future__ import annotations

from termeval.core.declaration import Step
from termeval.units.options import TABLES, DiscophonOptions, UnitsOptions

SCORE_UNITS = Step(
    "score_units", UnitsOptions,
    "Score discrete speech units against gold phones: PNMI, purities, PER, boundary P/R/F and R-value.",
    """\
Score discrete speech units against gold phones: PNMI, phone and cluster purity, PER after
mapping the units to phones, boundary precision/recall/F and R-value (discophon 0.2.0's
definitions; --compat fairseq: fairseq's measure_teacher_quality.py numbers and table).

The gold is a data dir of steps/prepare_gold.sh (any --format; --format discophon reads
discophon's alignment files); the units a Kaldi text archive `<utt> u1 u2 ...`, a Kaldi binary
archive (kaldiio), discophon's .jsonl or a directory of <utt>.npy, one unit per --frame-shift
seconds. Writes <exp-dir>/scores/units, scores.json, details/units/ and the per-file statistics
units/units.units_file.npz; the scores on stdout. Definitions, the two compat modes and where
they differ: docs/units.md.""",
    stage="termeval.units.stage:stage_of_units", stage_name="units", jobs="files",
    shell="steps/score_units.sh", tables=TABLES[:1])

SCORE_DISCOPHON = Step(
    "score_discophon", DiscophonOptions,
    "Score a DiscoPhon phoneme discovery submission as discophon 0.2.0's benchmark does.",
    """\
Score a DiscoPhon phoneme discovery submission as `python -m discophon.benchmark <dataset>
<predictions> <output> --benchmark discovery` (discophon 0.2.0): PNMI, PER, boundary F1 and
R-value of every (language, split) with units.

The predictions are units-<code>-<split>.jsonl files ({"file", "units"} lines); the gold is read
from <dataset-dir>/alignment/alignment-<code>-<split>.txt only (no audio tree needed).
<output-dir>/scores.jsonl holds discophon's rows, written whole (not appended); scores/ holds one
file per pair (scores/discophon_<code>_<split>) and scores.json. docs/units.md.""",
    stage="termeval.units.stage:stage_of_discophon", stage_name="discophon", jobs="(language, split) pairs",
    shell="steps/score_discophon.sh", tables=TABLES[1:])
