"""The named boundary scorers of `--compat NAME` (steps/score_segmentation.sh), one module each.

Each published scorer is one `Scorer` record of termeval/segmentation/scorer_registry.py (what
it reproduces, which keys it writes, its usual tolerance and frame shift) and one module
termeval.segmentation.scorers.<module> holding its rules; the registry loads the module when
scoring (`Scorer.impl()`).

A scorer module defines
  score(ref, pred, utts, p, tokens) -> dict   ref, pred: termeval.segmentation.inputs.Intervals
      of the job's utterances (sorted by utterance, then onset; times in file-relative seconds
      as parsed; ref without its silence intervals, scorers.common.speech_only; pred read with
      the scorer's `reading`), utts: Utterances, p: anything with .tolerance (seconds), .frame_shift
      (seconds), .level (word, phone or syllable); tokens: whether token counts are wanted.
      Returns per utterance (arrays of len(utts) rows): "boundary" int64 [n_ref, n_pred, hits]
      or, for a scorer whose matching is not one-to-one, [n_ref, n_pred, hits, reference hits]
      (recall from the last), "token" [n_ref, n_pred, hits] or None (no token score), "scored"
      bool (an utterance the scorer skips counts nothing and is reported as skipped).
  definitions(p) -> dict                    the rule and its parameters, for scores.json
  values(c) -> dict (optional)              metric name (precision, recall, fscore, os, rvalue)
      -> value from summed counts c = [n_ref, n_pred, hits]; default: P = hits/n_pred,
      R = hits/n_ref, F = 2PR/(P+R), OS = R/P - 1, R-value (termeval.segmentation.rvalue).
  check(p) (optional)                       InputError for settings the scorer cannot take
  warnings(utts, p) -> list[str] (optional) where the run departs from the scorer's code
The counts are additive over utterances (jobs of --nj merge exactly); the stage
(termeval.segmentation.stats, .report) writes `<level>_boundary_<m>` for m in `boundary` and
`<level>_token_{precision,recall,fscore}` when `token`, and at --level syllable, when
`syllable_clusters` and the segments carry labels, SD-HuBERT's cluster metrics
(termeval.segmentation.syllables); nothing else.
"""
from __future__ import annotations

from termeval.segmentation.scorer_registry import (ALL, BOUNDARY_ALL, OTHER_MODES, SCORERS, Scorer,  # noqa: F401
                                                   compat_choices, get)
