"""Tiny hand-made corpora for the rule tests: phones written as label strings with durations
in ms; words as phone-index spans; classes as (file, onset ms, offset ms)."""
from __future__ import annotations


from termeval.run import driver as jobs
from termeval.tde.seeddoc.stage import SeedStage
from tests.seeddoc.corpora import options, write_corpus

MS = 1000


def corpus(files: dict[str, list[tuple[str, int]]], words: dict[str, list[tuple[int, int]]] | None = None,
           speaker: dict[str, str] | None = None):
    """files: {file: [(label, ms), ...]}, label '' = a gap (a pause without a line), 'SIL' an
    explicit pause. words: {file: [(first phone, last phone + 1)]} over the listed entries
    (default: every phone is a word)."""
    phones, wd = {}, {}
    for f, seq in files.items():
        t, ph, spans = 0, [], []
        for lab, d in seq:
            if lab:
                ph.append((t * MS, (t + d) * MS, lab))
            spans.append((t * MS, (t + d) * MS))
            t += d
        phones[f] = ph
        if words is None or f not in words:
            wd[f] = [s for (lab, _), s in zip(seq, spans) if lab and lab != "SIL"]
        else:
            wd[f] = [(spans[a][0], spans[b - 1][1]) for a, b in words[f]]
    spk = speaker or {f: "s0" for f in files}
    return phones, wd, spk


def run(tmp_path, mode: str, phones, words, speaker, classes, folds: str = "none") -> dict:
    cls = [[(f, a * MS, b * MS) for f, a, b in c] for c in classes]
    corpus = write_corpus(str(tmp_path / mode), phones, words, speaker, cls)
    return jobs.run(SeedStage(mode), options(corpus, mode, folds), None, echo=False)


def letters(s: str, ms: int = 50) -> list[tuple[str, int]]:
    return [(x, ms) for x in s]


__all__ = ["corpus", "run", "letters"]
