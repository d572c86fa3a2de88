"""The term discovery steps: score_tde (every benchmark of termeval/tde/benchmarks.py) and
prepare_classes."""
from __future__ import annotations

from termeval.classes.options import ClassesOptions
from termeval.core.declaration import Step
from termeval.tde.benchmarks import BENCHMARKS, TABLES
from termeval.tde.options import TdeOptions

SCORE_TDE = Step(
    "score_tde", TdeOptions,
    "Score a discovered-class file with a ZeroSpeech term discovery benchmark.",
    f"""\
Score a discovered-class (or pairs) file against a prepared gold data dir with a term
discovery benchmark (--benchmark {'|'.join(BENCHMARKS)}).

--benchmark zrc2020 (tdev2, today's ZeroSpeech leaderboards): the classes are prepared into
<exp-dir>/classes (reused when the class file, the data dir's reco2dur and the options are byte
for byte those it was prepared from), then NED, coverage, grouping, type, token and boundary:
<exp-dir>/scores/{{prepare,matching,clustering,parsing,scores.json}},
<exp-dir>/details/{{clusters.txt,discarded,per_file.tsv,per_speaker.tsv}}, <exp-dir>/units/.
--benchmark zr2015 / zr2017 (bootphon/tde): per-fold scores summarised over the cross- and
within-speaker folds, <exp-dir>/scores/{{matching,clustering,parsing,tde15_input,scores.json}},
<exp-dir>/details/tde15/ (the original tool's files), <exp-dir>/units/; the data dir is
prepared SIL-less (steps/prepare_gold.sh --fill-gaps false --sort true).
--benchmark zr2015-doc / lrec2014: the metrics as the seed documents define them (docs/tde.md
§13), counted; classes prepared as for zrc2020; scores.json names every rule under "definitions".
The score lines are printed on stdout; scores/, details/ and units/ are replaced whole by a
successful run and left as they were by a failed one. An option the chosen benchmark does not
read keeps its default (another value is refused). Definitions: docs/tde.md.""",
    stage="termeval.tde.benchmarks:stage_of", stage_name="termeval.tde.benchmarks:stage_name",
    jobs="classes (zrc2020, zr2015-doc, lrec2014) or folds (zr2015, zr2017)", shell="steps/score_tde.sh",
    tables=TABLES)

PREPARE_CLASSES = Step(
    "prepare_classes", ClassesOptions,
    "Prepare a discovered-class file (ZeroSpeech TDE format) or a pairs file for scoring.",
    """\
Check every fragment of a discovered-class (or pairs) file against <data-dir>/reco2dur and write
<exp-dir>/classes/ (segments, utt2class, class2utt, class_names, counts; discarded with
--lenient true) and the counts as <exp-dir>/scores/prepare (scores.json updated). Strict by
default: the first problem (unknown file ids, onset >= offset, negative or NaN times, fragments
more than --end-tolerance past the file end, duplicate class ids, fragment lines outside a
class) is a one-line error naming file and line, and nothing is written. A fragment ending at
most --end-tolerance after its file's end is clipped to that end and counted
(fragments_clipped_to_end), as the reference tools accept it. classes/ and scores/prepare are
replaced whole. The accepted syntax and the lenient actions: docs/recipe.md §4.""",
    task="termeval.classes.prepare:run", show="termeval.classes.prepare:show", shell="steps/prepare_classes.sh")
