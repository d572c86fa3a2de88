"""termeval: evaluation of spoken term discovery (ZeroSpeech TDE) and spoken term detection
(MediaEval SWS / NIST STD / KWS) systems, as a Kaldi-style recipe.

Where things are:
  termeval.textio     text archives, atomic writes, float formatting
  termeval.scores     the score-file writer (exp/<sys>/scores/<stage> + scores.json)
  termeval.data       loaders for prepared gold data dirs and prepared class dirs
  termeval.gold       readers of ZeroSpeech .phn/.wrd, Kaldi CTM, Praat TextGrid -> data dir
  termeval.classes    reader of discovered-class and pairs files -> prepared class dir
  termeval.zrc2020        term discovery metrics (ned, coverage, grouping, token_type, boundary, ...)
  termeval.std        term detection metrics (alignment, atwv/mtwv, cnxe, det)
  termeval.quesst     QUESST per-document scoring
  termeval.resources  processing load (ISF, SSF, PMU, PL) and its measurement
  termeval.segmentation  word/phone segmentation metrics
  termeval.jobs       the one job protocol every scoring benchmark implements (stage.py)
"""
__version__ = "0.1.0"
