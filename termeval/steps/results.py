"""The steps over scored systems: summarize_scores (RESULTS.md and paper tables) and
compare_systems (paired significance tests)."""
from __future__ import annotations

from termeval.bootstrap.options import CompareOptions
from termeval.core.declaration import Step
from termeval.results.options import SummarizeOptions

SUMMARIZE_SCORES = Step(
    "summarize_scores", SummarizeOptions,
    "Build RESULTS.md (or a csv, tsv, LaTeX or JSON table): one table per benchmark over every "
    "scores/scores.json found.",
    """\
Build RESULTS.md (or a csv, tsv, LaTeX or JSON table): one table per benchmark over every
scores/scores.json found at any depth below each <exp-root> (termeval's `exp/<sys>/`, Kaldi's
`exp/tri3/decode_dev/kws_10/`, ESPnet's `exp/asr_*/decode_*/...`); the system is the path of the
directory holding `scores/`, relative to its <exp-root>. One table per benchmark, in the order
the benchmarks are declared (zrc2020, zr2015, zr2017, zr2015-doc, lrec2014, std,
std_operating, quesst, quesst_operating, resources, segmentation, ..., then any other), with
at most ten headline metrics; every other value stays in the score files. Values have 4
decimals (counts as integers, '-' where undefined), followed by the confidence interval
`[lo, hi]` when the system was scored with --bootstrap. Each row names the data dir it was
scored on (`data`: the short name from the scoring command, `@` the first digits of
scores.json's data_id, the content digest of the gold), so rows of different corpora are not
read as one table; the warnings recorded in a system's scores.json are a footnote (md, latex)
or a `warnings` column (csv, tsv, json). --percent true multiplies F-scores, precisions,
recalls, coverage and NED (and their _std) by 100; counts, TWV, Cnxe and every other metric
stay as they are. csv and tsv: one row per table and system (columns table, system, data,
data_id, the metrics, <metric>_lo/<metric>_hi for intervals, warnings), every digit kept unless
--digits. Lower is better for NED, Cnxe and the costs; higher for everything else. A
scores.json that is not valid JSON (a truncated file) or not a JSON object is an error: one
line naming the file, exit 1, and nothing is written. A directory that cannot be listed, or a
scores.json holding no scored stage (prepare_classes' own), is left out with one warning line
naming it and why.""",
    task="termeval.results.step:run", show="termeval.results.step:show",
    from_command_line="termeval.results.step:from_command_line", shell="utils/summarize_scores.sh")

COMPARE_SYSTEMS = Step(
    "compare_systems", CompareOptions,
    "Paired significance tests between systems scored on the same data.",
    """\
Paired significance tests between systems scored on the same data: <exp-dir-A> <exp-dir-B>
[...] <out-dir>. Reads every system's scores/scores.json and its paired per-unit statistics
(units/units.{tde_file,tde15_file,std_term,quesst_query,...}.npz, written by scoring) and
compares each system with the first one: the difference of every metric (system - first), its
percentile interval and a two-sided p-value (paired bootstrap, or approximate randomization
with --test permutation). Writes <out-dir>/scores/compare, scores/compare.json,
RESULTS.compare.md and report.html (the forest plots and the table, docs/report.md; whole),
then the forest plot <out-dir>/forest.{png,pdf}. Refuses systems
scored on different data or settings. --benchmark zr2015/zr2017 systems: the cross_/within_
fold means of coverage, token, type and boundary are compared over the recordings (or
speakers); NED and grouping are not (their units, the discovered classes, differ between
systems). docs/uncertainty.md.""",
    task="termeval.results.compare_html:run", show="termeval.bootstrap.compare:show",
    from_command_line="termeval.bootstrap.compare:from_command_line", shell="steps/compare_systems.sh")
