"""ZeroSpeech `zrc` (zerospeech-benchmarks 0.9.4) TDE17 submissions: the directory layout and
meta.yaml/params.yaml rules (submission.py), where the gold of each language is (gold.py), and
zrc's scores.json and leaderboard entry (leaderboard.py)."""
