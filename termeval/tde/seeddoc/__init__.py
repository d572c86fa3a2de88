"""The seed documents' own term-discovery definitions (docs/tde.md §13):
`zr2015-doc` (ZeroSpeech 2015 page, tdev2 doc, ZRC site) and `lrec2014` (Ludusan et al. 2014).

common.py (spec §2: µs times, pauses, transcription, fragments, clusters), folds.py (§2.10),
ngrams.py (gold n-grams, P_all), completion.py (§2.7 templates), matching.py (V6/V7),
ned.py, coverage.py, grouping.py, lexicon.py (type, token), boundary.py, stage.py (the
jobs.Stage), report.py."""
