"""Kaldi's KWS scoring path: compute-atwv, score.sh's reports, per-category stats, hitlists."""
