"""RESULTS.md: the headline scores of every scored system, one table per benchmark
(summary.py), read from the scores/scores.json files the scoring steps wrote; the step's
options in options.py (utils/summarize_scores.sh, termeval.summarize_scores)."""
