"""Word and phone segmentation metrics (boundary/token P/R/F with a time tolerance, OS,
R-value, cluster purity, V-measure, NMI, cluster-to-label mappings), in the default
definitions or those of kamperh/vqwordseg `eval_segmentation.py` (--compat vqwordseg).

Modules: inputs (utterances, gold tier, segmentation formats), matching (maximum matching
within a tolerance), boundary, token, rvalue (P/R/F, OS, R-value), clusters (labelling,
contingency table, cluster quality), mappings (many-to-one, one-to-one), compat (vqwordseg's
frame, edge and truncation rules), scorers (the registry of the published scorers of
--compat NAME, one module each: harwath, rasanen, ...), stats (additive per-job statistics), report (merge and
writing). Definitions and differences: docs/segmentation.md.
"""
