"""Keyword-search reference preparation (steps/prepare_kws.sh): keyword lists, lexicons,
categories and the kws data dir both scoring modes and F4DE read (docs/std-kaldi-compat.md)."""
