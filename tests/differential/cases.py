"""Seeded random cases for the differential tests of the published scorers (tests/differential).

Plain Python (the `random` module, no numpy), so that the recorders (tests/differential/record.py,
run by local/record_scorer_fixtures.sh with the tools' own environments) and the tests build the
same inputs from the same seed. A case is a small corpus: a list of utterances, each with a
gold tier (phones tiling the utterance, SIL at its edges and in pauses; words; syllables) and a
prediction, times in integer milliseconds (written as ms / 1000, the double of the decimal text,
so every reader parses the same value). `digest` fingerprints a case's inputs: the fixtures keep
it, so a change of this generator shows as a mismatch naming the recorder to run again.

Every generator mixes these kinds of case (`kind`):
  random    boundaries anywhere on the millisecond grid, predictions jittered by N(0, 12 ms)
  grid10    everything on a 10 ms grid, predictions moved by whole frames (-3..3): exact ties
  grid20    the same on a 20 ms grid (one or two frames of 20 ms)
  tie       predictions exactly at the tolerance from a gold boundary, or 1 ms beyond it
  edges     utterances with leading and trailing silence, predictions from 0 to the end, an
            utterance without prediction, one with a single segment, one that is all silence,
            one with a single word
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass, field

VERSION = 1
KINDS = ("random", "grid10", "grid20", "tie", "edges")
SIL = "SIL"
SYLLABLES = ("ba1", "ba0", "na2", "na1", "k", "t3", "hh ah0", "di1", "di2", "mo0")


@dataclass
class Utt:
    name: str
    dur: int                                                  # ms; the phones tile [0, dur]
    phones: list[tuple[int, int, str]] = field(default_factory=list)
    words: list[tuple[int, int, str]] = field(default_factory=list)
    syllables: list[tuple[int, int, str]] = field(default_factory=list)
    pred: list[tuple[int, int, str]] = field(default_factory=list)    # label "" when unlabelled
    units: list[int] = field(default_factory=list)           # discophon: one unit per step


@dataclass
class Case:
    tool: str
    index: int
    seed: int
    kind: str
    utts: list[Utt]
    params: dict = field(default_factory=dict)

    def digest(self) -> str:
        return hashlib.sha1(json.dumps([self.kind, self.params, [asdict(u) for u in self.utts]],
                                       sort_keys=True).encode()).hexdigest()[:16]


def sec(ms: int) -> str:
    """The text of a time in ms as seconds (the shortest repr of the double ms / 1000)."""
    return repr(ms / 1000)


def _grid(kind: str) -> int:
    return {"grid10": 10, "grid20": 20}.get(kind, 1)


def speech(rng: random.Random, name: str, kind: str, *, lead: bool, trail: bool, n_words: int,
           pauses: float = 0.2) -> Utt:
    """An utterance of `n_words` words of 1-4 phones (30-150 ms on the kind's grid), SIL before,
    after and in some pauses; syllables group 1-2 phones of a word."""
    g = _grid(kind)
    step = lambda lo, hi: g * rng.randint(max(1, lo // g), max(1, hi // g))   # noqa: E731
    t, phones, words, syls = 0, [], [], []
    if lead:
        t = step(20, 300)
        phones.append((0, t, SIL))
    for w in range(n_words):
        if w and rng.random() < pauses:
            d = step(20, 200)
            phones.append((t, t + d, SIL))
            t += d
        w0, ph = t, []
        for _ in range(rng.randint(1, 4)):
            d = step(30, 150)
            ph.append((t, t + d, f"p{rng.randint(0, 7)}"))
            t += d
        phones += ph
        words.append((w0, t, f"w{rng.randint(0, 9)}"))
        i = 0
        while i < len(ph):
            k = min(len(ph) - i, rng.randint(1, 2))
            syls.append((ph[i][0], ph[i + k - 1][1], rng.choice(SYLLABLES)))
            i += k
    if trail:
        d = step(20, 300)
        phones.append((t, t + d, SIL))
        t += d
    return Utt(name, t, phones, words, syls)


def silent(name: str, dur: int) -> Utt:
    return Utt(name, dur, [(0, dur, SIL)])


def gold_points(u: Utt, level: str) -> list[int]:
    """Distinct onsets and offsets of the tier (phones without SIL, words or syllables)."""
    tier = {"phone": [p for p in u.phones if p[2] != SIL], "word": u.words, "syllable": u.syllables}[level]
    return sorted({x for a, b, _ in tier for x in (a, b)})


def jittered(rng: random.Random, u: Utt, points: list[int], kind: str, tol: int, *, start: int, end: int,
             keep: float = 0.85, inserts: int = 2) -> list[int]:
    """Predicted cut points in (start, end): the gold points moved as the kind says, some dropped,
    a few inserted."""
    g = _grid(kind)
    out = set()
    for b in points:
        if rng.random() > keep:
            continue
        if kind == "random":
            d = round(rng.gauss(0, 12))
        elif kind == "tie":
            d = rng.choice((-tol, tol, -tol - 1, tol + 1, 0, -tol // 2))
        else:
            d = g * rng.randint(-3, 3)
        out.add(b + d)
    for _ in range(rng.randint(0, inserts)):
        out.add(g * rng.randint(1, max(1, u.dur // g)))
    return sorted(x for x in out if start < x < end)


def segments(cuts: list[int], start: int, end: int, labels: list[str]) -> list[tuple[int, int, str]]:
    edges = [start] + cuts + [end]
    return [(a, b, labels[i % len(labels)]) for i, (a, b) in enumerate(zip(edges[:-1], edges[1:])) if b > a]


def _labels(rng: random.Random, n: int, k: int = 4) -> list[str]:
    return [f"c{rng.randint(0, k - 1)}" for _ in range(max(n, 1))]


def corpus(rng: random.Random, prefix: str, kind: str, level: str, tol: int, *, max_utts: int = 5,
           edge_pred: bool = True) -> list[Utt]:
    """1..max_utts utterances of one kind with predicted segments against the `level` tier."""
    utts = []
    n = rng.randint(1, max_utts)
    for k in range(n):
        name = f"{prefix}_u{k}"
        edges = kind == "edges"
        special = rng.choice(("nopred", "one", "silent", "oneword", None, None)) if edges else None
        if special == "silent":
            utts.append(silent(name, 10 * rng.randint(20, 80)))
            continue
        u = speech(rng, name, kind, lead=edges or rng.random() < 0.5, trail=edges or rng.random() < 0.5,
                   n_words=1 if special == "oneword" else rng.randint(1, 6))
        pts = gold_points(u, level)
        speech_only = rng.random() < 0.3 and pts
        start, end = (pts[0], pts[-1]) if speech_only else (0, u.dur)
        if edge_pred and rng.random() < 0.15:        # a prediction a few frames longer or shorter
            end = max(start + 10, end + _grid(kind) * rng.randint(-2, 2))
        cuts = jittered(rng, u, pts, kind, tol, start=start, end=end)
        if special == "nopred":
            u.pred = []
        elif special == "one":
            u.pred = [(0, u.dur, "c0")]
        else:
            u.pred = segments(cuts, start, end, _labels(rng, len(cuts) + 1))
        utts.append(u)
    return utts


def make(tool: str, count: int, build, seed0: int = 1000) -> list[Case]:
    """`count` cases of `tool`, the kinds in turn, case i seeded with seed0 + i."""
    out = []
    for i in range(count):
        seed = seed0 + i
        rng = random.Random(f"{tool}:{seed}")
        kind = KINDS[i % len(KINDS)]
        utts, params = build(rng, f"c{i:03d}", kind)
        out.append(Case(tool, i, seed, kind, utts, params))
    return out


# ---------------------------------------------------------------- per tool

def calibration(name: str, tol: int, onsets_only: bool = False) -> Utt:
    """An utterance that pins the scripts' shift search (multiples of 5 ms) to its zero entry.
    Gold words 1-2 s and 3-5 s. Predictions tol - 1 ms before 1 s and after 2 s, so that every
    shift but the zero one misses one of them; and around 3 s and 5 s (4 points 30 ms apart, or
    one onset at 3 s and 4 s for SD-HuBERT's onsets with the shift on the gold), hit at every
    shift: a shift with no hit at all would make the scripts divide by zero. There are at least
    as many predictions as gold boundaries (OS >= 0), so the R-value the search maximises grows
    with the recall: the zero shift is its only maximum."""
    u = Utt(name, 6000, [(0, 1000, SIL), (1000, 2000, "p0"), (2000, 3000, SIL), (3000, 5000, "p1"),
                         (5000, 6000, SIL)], [(1000, 2000, "w0"), (3000, 5000, "w1")])
    a, b = 1000 - (tol - 1), 2000 + (tol - 1)
    if onsets_only:
        u.syllables = [(1000, 2000, "ba1"), (3000, 4000, "na0")]
        u.pred = [(a, b, "c0"), (b, 3000, "c1"), (3000, 4000, "c2"), (4000, 5000, "c3")]
    else:
        u.pred = [(a, b, "c0")] + [(x, x + 30, "c1") for c in (3000, 5000) for x in (c - 30, c + 30)]
    return u


def _harwath(rng: random.Random, prefix: str, kind: str):
    level = rng.choice(("word", "phone"))
    tol = rng.choice((20, 20, 30))
    # the script searches the shift on every 10th utterance: the first, the calibration one
    utts = [calibration(f"{prefix}_cal", tol)] + corpus(rng, prefix, kind, level, tol, max_utts=8)
    return utts, {"level": level, "tolerance_ms": tol}


def harwath_cases(count: int = 240) -> list[Case]:
    """jasonppy/syllable-discovery unit_analysis_boundary_only.py (words or phones)."""
    return make("harwath", count, _harwath)


def _sdhubert(rng: random.Random, prefix: str, kind: str):
    utts = corpus(rng, prefix, kind, "syllable", 50, max_utts=6)
    for u in utts:     # SD-HuBERT's segments carry features: a cluster id per segment
        u.pred = [(a, b, f"c{rng.randint(0, 4)}") for a, b, _ in u.pred]
    return utts, {"tolerance_ms": 50, "clusters": 5}


def sdhubert_cases(count: int = 200) -> list[Case]:
    """cheoljun95/sdhubert evaluate_boundary.py, evaluate_purity.py; SylReg's eval.py."""
    return make("sdhubert", count, _sdhubert)


def _units(rng: random.Random, u: Utt, step: int, kind: str) -> list[int]:
    """Units every `step` ms: each frame takes the unit of the gold phone at its middle (a
    phone-like code, SIL unit 0), some frames changed, the sequence one frame shorter or longer
    than the audio now and then; a one-unit utterance, a constant one, an empty one in edges."""
    n = max(0, u.dur // step + rng.choice((0, 0, 0, -1, 1, 2)))
    code = {}
    out = []
    for i in range(n):
        mid = i * step + step // 2
        lab = next((p[2] for p in u.phones if p[0] <= mid < p[1]), SIL)
        out.append(0 if lab == SIL else code.setdefault(lab, 1 + len(code) % 6))
    for i in range(len(out)):
        if rng.random() < 0.12:
            out[i] = rng.randint(0, 7)
    if kind == "edges":
        what = rng.choice(("const", "empty", "one", None, None))
        if what == "const":
            out = [3] * len(out)
        elif what == "empty":
            out = []
        elif what == "one":
            out = out[:1]
    return out


def _discophon(rng: random.Random, prefix: str, kind: str):
    utts = []
    for k in range(rng.randint(1, 6)):
        kd = "grid10" if kind not in ("grid20",) else "grid20"
        u = speech(rng, f"{prefix}_u{k}", kd, lead=rng.random() < 0.7, trail=rng.random() < 0.7,
                   n_words=rng.randint(1, 5))
        if kind == "edges" and rng.random() < 0.2:
            u = silent(u.name, 10 * rng.randint(10, 60))
        u.units = _units(rng, u, 20, kind)
        utts.append(u)
    return utts, {"step_ms": 20, "margins_ms": [10, 20, 30]}


def discophon_cases(count: int = 240) -> list[Case]:
    """CoML discophon 0.2.0 phone_segmentation (gold phones at 10 ms, units at 20 ms)."""
    return make("discophon", count, _discophon)


def _malan(rng: random.Random, prefix: str, kind: str):
    ms = rng.choice((20, 20, 10))
    utts = corpus(rng, prefix, kind, "word", 20, max_utts=6)
    for u in utts:     # s-malan's .list files: segments from 0, each to the next end
        if u.pred:
            ends = [b for _, b, _ in u.pred]
            u.pred = segments(ends[:-1], 0, ends[-1], [lab for _, _, lab in u.pred])
    return utts, {"frame_ms": ms, "tolerance_frames": rng.choice((1, 1, 2))}


def malan_cases(count: int = 240) -> list[Case]:
    """s-malan/evaluation boundary_word.py (strict and lenient)."""
    return make("malan", count, _malan)


def _unsupseg(rng: random.Random, prefix: str, kind: str):
    """Frames of 10 ms: gold boundaries and peaks as frame numbers; the gold tier's times are the
    frames' times plus a fraction of a frame (the floor gives the frame back)."""
    utts = []
    for k in range(rng.randint(1, 5)):
        n = rng.randint(20, 120)
        gold = sorted({rng.randint(1, n - 2) for _ in range(rng.randint(1, 10))})
        peaks = sorted({rng.randint(1, n - 2) for _ in range(rng.randint(0, 8))})
        if kind in ("grid10", "tie"):
            peaks = sorted({g + rng.choice((-3, -2, -2, 2, 2, 3, 0)) for g in gold if 0 < g - 3 and g + 3 < n - 1}
                           | set(peaks[:2]))
        if kind == "edges" and rng.random() < 0.3:
            peaks = []
        peaks = [p for i, p in enumerate(peaks) if i == 0 or p - peaks[i - 1] > 1]   # find_peaks: isolated maxima
        frac = 0 if kind in ("grid10", "grid20") else rng.randint(0, 9)
        u = Utt(f"{prefix}_u{k}", 10 * n)
        ends = [10 * g + frac for g in gold] + [10 * n]
        u.phones = segments(ends[:-1], 0, 10 * n, [f"p{rng.randint(0, 7)}" for _ in ends])
        u.words = list(u.phones)
        u.pred = segments([10 * p + frac for p in peaks], 0, 10 * n, ["c0"])
        u.units = peaks                  # the peak frames (the tool's input)
        utts.append(u)
    return utts, {"frame_ms": 10, "tolerance_frames": 2, "prominence": 0.05}


def unsupseg_cases(count: int = 240) -> list[Case]:
    """felixkreuk/UnsupSeg utils.py PrecisionRecallMetric (with detect_peaks)."""
    return make("unsupseg", count, _unsupseg)


def vqwordseg_cases(count: int = 120) -> list[Case]:
    """kamperh/vqwordseg eval_segmentation.py: the corpora of local/make_segmentation.py
    vqwordseg (numpy-seeded, in frames); here only their seeds, sizes and tolerances."""
    out = []
    for i in range(count):
        rng = random.Random(f"vqwordseg:{2000 + i}")
        out.append(Case("vqwordseg", i, 2000 + i, "random", [],
                        {"utts": rng.randint(2, 12), "tolerance_frames": i % 4}))
    return out


def wordseg_cases(count: int = 200) -> list[Case]:
    """bootphon/wordseg evaluate, summary: text corpora of syllable-like units."""
    out = []
    for i in range(count):
        rng = random.Random(f"wordseg:{3000 + i}")
        kind = ("random", "edges")[i % 2]
        units = rng.choice((["a", "b", "k", "iː", "tʃ", "_", "ou"], ["p", "a", "t", "i"], ["ba", "na", "di"]))
        gold, seg, prep = [], [], []
        for _ in range(rng.randint(1, 25)):
            u = [rng.choice(units) for _ in range(rng.randint(1, 12))]
            cut_g = [j for j in range(1, len(u)) if rng.random() < 0.35]
            p = rng.choice((0.05, 0.35, 0.7)) if kind == "random" else rng.choice((0.0, 1.0, 0.35))
            cut_s = [j for j in range(1, len(u)) if rng.random() < p]
            gold.append(_cut(u, cut_g))
            seg.append(_cut(u, cut_s))
            prep.append(" ".join(u))
        out.append(Case("wordseg", i, 3000 + i, kind, [], {"gold": gold, "seg": seg, "prep": prep}))
    return out


def _cut(units: list[str], cuts: list[int]) -> str:
    edges = [0] + cuts + [len(units)]
    return " ".join("".join(units[a:b]) for a, b in zip(edges[:-1], edges[1:]))


CASES = {"harwath": harwath_cases, "sdhubert": sdhubert_cases, "discophon": discophon_cases,
         "malan": malan_cases, "unsupseg": unsupseg_cases, "vqwordseg": vqwordseg_cases,
         "wordseg": wordseg_cases}
