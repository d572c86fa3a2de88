"""Word segmentation of text (wordseg-eval's measures): texts, positional counts, lexicon,
adjusted Rand index, over/under/mis-segmentation summary, the Stage, data dir <-> text."""
