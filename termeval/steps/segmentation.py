"""The segmentation steps: score_segmentation, convert_segments, and the text segmentation
steps (export_text, score_text_segmentation, text_to_times)."""
from __future__ import annotations

from termeval.core.declaration import Step
from termeval.segmentation.options import TABLES as SEGMENTATION_TABLES
from termeval.segmentation.options import ConvertSegmentsOptions, SegmentationOptions
from termeval.textseg.options import TABLES as TEXTSEG_TABLES
from termeval.textseg.options import ExportTextOptions, TextSegmentationOptions, TextToTimesOptions

SCORE_SEGMENTATION = Step(
    "score_segmentation", SegmentationOptions,
    "Score a word, phone or syllable segmentation: boundary, token and cluster metrics.",
    """\
Score a word, phone or syllable segmentation: boundary P/R/F, OS, R-value, token P/R/F (with a
time tolerance), number of segments and clusters, purity, inverse purity, homogeneity,
completeness, V-measure, NMI, many-to-one and one-to-one mapping accuracy; the published
scorers by name (--compat).

The segmentation is a ZeroSpeech class file, an interval file `<utt-or-file> <onset> <offset>
[<label>]` (seconds) or a directory of per-utterance `<start> <end> <label>` files in frames
(vqwordseg `intervals/`). Writes <exp-dir>/scores/<stage>, scores.json and
<exp-dir>/details/<stage>/, where <stage> is `segmentation` (--level word),
`segmentation_phone` or `segmentation_syllable`; metric names are prefixed `word_`, `phone_` or
`syllable_`, so they never collide with zrc2020's in one exp dir. Always writes the per-unit
statistics <exp-dir>/units/units.<stage>_file.npz (for steps/compare_systems.sh); with
--bootstrap N a percentile interval for every metric, resampling recordings or speakers
(--bootstrap-unit; docs/uncertainty.md). The scores are printed on stdout, each line prefixed
with `<stage>: `. Definitions and the differences of each --compat: docs/segmentation.md.""",
    stage="termeval.segmentation.stage:stage_of", stage_name="termeval.segmentation.options:stage_name",
    jobs="utterances", shell="steps/score_segmentation.sh", tables=SEGMENTATION_TABLES)

CONVERT_SEGMENTS = Step(
    "convert_segments", ConvertSegmentsOptions,
    "Convert a segmentation written by papers' code into the interval file score_segmentation reads.",
    """\
Convert a segmentation written by papers' code into the interval file steps/score_segmentation.sh
reads (`<utt> <onset> <offset> [<cluster>]`, seconds): s-malan's .list files (--from
malan-list), SD-HuBERT's per-utterance .npy dicts (--from sdhubert-npy --allow-pickle true,
optionally labelled by --centroids [--reducer]), unit sequences at a fixed frame step (--from
units --frame-shift 0.02). The output appears whole or not at all; bad input is one line naming
the file, exit 1. The formats' rules: docs/segmentation.md.""",
    task="termeval.segmentation.convert:run", show="termeval.segmentation.convert:show",
    shell="utils/convert_segments.sh", api=False)

SCORE_TEXT_SEGMENTATION = Step(
    "score_text_segmentation", TextSegmentationOptions,
    "Score a word segmentation of text as wordseg-eval (bootphon/wordseg) does.",
    """\
Score a word segmentation of text as wordseg-eval (bootphon/wordseg) does: token, type,
boundary_all and boundary_noedge precision/recall/F, the adjusted Rand index (--prepared) and
the over/under/mis-segmentation summary per gold word type (--summary).

One utterance per line, words separated by spaces (--word-sep), the units of a word written
together or separated by --unit-sep. Prints wordseg-eval's `name<TAB>value` lines (%.4g, None
when undefined) on stdout and writes <exp-dir>/scores/{wordseg_eval.txt,text_segmentation,
scores.json} and <exp-dir>/details/text_segmentation/. --summary FILE: refused when it is an
input; inside the exp dir it is published with the scores. Definitions: docs/text-segmentation.md.""",
    stage="termeval.textseg.stage:stage_of", stage_name="text_segmentation", jobs="utterances",
    shell="steps/score_text_segmentation.sh", tables=TEXTSEG_TABLES)

EXPORT_TEXT = Step(
    "export_text", ExportTextOptions,
    "Write the texts a text word segmenter reads and is scored on from a gold data dir.",
    """\
Write the texts a text word segmenter reads and is scored on from a gold data dir:
<out-dir>/gold.txt (one utterance a line, words separated by spaces, each word its phones
written together, or separated by --unit-sep, or its label with --words labels),
<out-dir>/prepared.txt (the phones separated by spaces) and <out-dir>/utt_phones (the phones'
times, for text_to_times). Silences (phones in no word) are left out. The three files appear
whole or not at all; an input at one of their paths is refused.""",
    task="termeval.textseg.export:run", show="termeval.textseg.export:show", shell="utils/export_text.sh")

TEXT_TO_TIMES = Step(
    "text_to_times", TextToTimesOptions,
    "Map a segmented text back to times through the gold phones.",
    """\
Map a segmented text back to times through the gold phones (<export-dir>/utt_phones, written by
export_text): writes <out-dir>/intervals (`<file> <onset> <offset> <word>`, for
steps/score_segmentation.sh) and <out-dir>/classes (one class per distinct word, for
steps/score_tde.sh). Both files appear whole or not at all; an input at one of their paths (the
segmented text at <out-dir>/classes) is refused.""",
    task="termeval.textseg.totimes:run", show="termeval.textseg.totimes:show", shell="utils/text_to_times.sh")
