"""ZeroSpeech 2015/2017 term-discovery metrics (bootphon/tde master = zr2015, branch
zerospeech2017 = zr2017), re-implemented by counting over numpy arrays.

Modules, one concern each:
  corpus      TDE15 segments, the overlap predicate OV, the one-segment transcription lookup
              (spec §3.1), the .split truncation (§3.3), discovered fragments
  classfile   the TDE15-compatible class-file reader (§2.2), counting what it drops
  folds       .split / .intervals.cross / .intervals.within, fold restriction R1/R2/W(F)
  pairs       within-class pair sets PW(C) and the file-blind overlap sweep (§4.0)
  ned, coverage, matching, grouping, token_type, boundary   one metric family each (§4)
  foldpairs, completion, ngramindex, ngrams, foldview   PW counted, substring completion, n-gram
              type codes and the generated gold classes, per-file fold views
  aggregate   NaN-fold dropping, defaults, per-fold F, mean/std/min/max (§4.8)
  evaluate    the per-fold driver (prepare once, score_fold per fold or unit); Prepared
  plan        the units of a run (one process: whole folds; jobs: cross folds split into measure
              groups), what each computes and needs, their costs, the key order of a fold's result
  store       the saved preparation (<exp>/tde/zr2015), what a job loads (lazy indexes), memory release
  stage       the scoring run as a termeval.run.driver Stage; units: bootstrap tables

`mode` is "zr2015" or "zr2017"; it only switches the documented quirks
(zero-overlap test, segment adjacency tolerance, coverage NaN rule, token lookup failures).
"""
