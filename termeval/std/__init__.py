"""Spoken term detection (STD / QbE-STD / KWS) scoring, F4DE-compatible (issue 5).

Readers (stable public API, reused by QUESST per-document scoring):
  ecf.read_ecf, termlist.read_termlist / read_keywords_txt, rttm.read_rttm /
  find_occurrences, detections.read_detections, kaldi.read_hitlist, kwsdir.load_kws_dir.
Scoring: align.align_f4de / align_kaldi, twv.compute_twv, cnxe.*, score.score_std (= prepare,
align_terms, finish), det.*. The stage of the job protocol (termeval.run.driver): stage.py;
what a run writes: report.py; per-term bootstrap table: units.py. QUESST lives in
termeval.quesst, processing load in termeval.resources.
"""
