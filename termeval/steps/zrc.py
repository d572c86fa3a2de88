"""The ZeroSpeech submission step: score_zrc_submission."""
from __future__ import annotations

from termeval.core.declaration import Step
from termeval.zrc.options import ZrcOptions

SCORE_ZRC_SUBMISSION = Step(
    "score_zrc_submission", ZrcOptions,
    "Score a ZeroSpeech `zrc` TDE17 submission directory with termeval's zrc2020 (tdev2) metrics.",
    """\
Score a ZeroSpeech `zrc` TDE17 submission directory (zerospeech-benchmarks 0.9.4's layout:
<lang>.txt class files, meta.yaml, params.yaml) with termeval's zrc2020 (tdev2) metrics.

A new submission: --init <dir> writes <dir>/meta.yaml (every field of zrc 0.9.4's tde17
template, each "<...>" placeholder to replace: scoring refuses one left, one error line per
field) and <dir>/params.yaml (zrc's defaults), never overwriting either; copy the class files to
<dir>/<lang>.txt (english, french, mandarin, german, wolof); fill in meta.yaml; score <dir>.
Writes <submission-dir>/scores/scores.json (zrc's file, field for field),
scores/leaderboard.json (zrc's TDE17 leaderboard entry), scores/termeval/<lang>/ (termeval's
full score dirs, with the gold data dir), scores/termeval/run.json (gold used, wall time per
language) and prints languages x headline metrics (percent) on stdout. docs/zrc.md.""",
    task="termeval.zrc.step:run", show="termeval.zrc.step:show", shell="steps/score_zrc_submission.sh")
