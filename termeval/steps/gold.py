"""The gold alignment steps: prepare_gold, validate_alignment_dir, export_zr."""
from __future__ import annotations

from termeval.core.declaration import Step
from termeval.gold.options import ExportZrOptions, GoldOptions, ValidateOptions

PREPARE_GOLD = Step(
    "prepare_gold", GoldOptions,
    "Prepare gold phone/word alignments as a data dir (phones, words, utt2spk, spk2utt, reco2dur).",
    """\
Prepare gold phone/word alignments as a data dir (phones, words, utt2spk, spk2utt, reco2dur):
--format zr <phn> <wrd> <data-dir>, --format ctm <phone-ctm> <word-ctm|-> <data-dir>,
--format textgrid <textgrid-dir> <data-dir>, or --format discophon <alignment-file> <data-dir>. Formats, label and silence rules, checks and
speaker rules: steps/prepare_gold.sh --help, docs/recipe.md §3. Strict: the first problem is a
one-line error naming file and line (exit 1) and nothing is written; the data dir is built
beside its place and moved there whole.""",
    task="termeval.gold.steps:run_prepare", show="termeval.gold.steps:show_prepare",
    from_command_line="termeval.gold.options:from_command_line", shell="steps/prepare_gold.sh")

VALIDATE_ALIGNMENT_DIR = Step(
    "validate_alignment_dir", ValidateOptions,
    "Check a prepared gold data dir (phones, words, utt2spk, spk2utt, reco2dur).",
    """\
Check a prepared gold data dir (phones, words, utt2spk, spk2utt, reco2dur): the first problem
is one line naming the file and line; the checks: utils/validate_alignment_dir.sh --help.""",
    task="termeval.gold.steps:run_validate", show="termeval.gold.steps:show_validate",
    shell="utils/validate_alignment_dir.sh")

EXPORT_ZR = Step(
    "export_zr", ExportZrOptions,
    "Write a prepared gold data dir back out as ZeroSpeech .phn/.wrd files.",
    """\
Write a prepared gold data dir back out as ZeroSpeech .phn/.wrd files (both or neither;
--drop-sil true leaves the silence phones out).""",
    task="termeval.gold.steps:run_export", show="termeval.gold.steps:show_export", shell="utils/export_zr.sh")
