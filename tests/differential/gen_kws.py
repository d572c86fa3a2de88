"""Seeded random KWS cases for the differential harness against F4DE's KWSEval.pl.

`make_case(seed)` -> {file name: text} of one case: an ECF with several excerpts (files, channels,
source types bnews/cts/splitcts/confmtg, some files with two excerpts), an RTTM (LEXEME words of a
small vocabulary with Latin-1, CJK and right-to-left words, SPEAKER lines, some words outside the
ECF), a KWLIST (one- to three-word terms with Characters/NGramOrder attributes, as Kaldi's
annotate_kwlist.pl adds them; terms said only outside the ECF, terms never said), and a KWSLIST
(detections near occurrences with jitter, overlapping and edge-touching ones, false alarms, tied
scores, hard 0/1 scores, YES/NO decided by one threshold, detections in a file outside the ECF,
terms without a detected_kwlist block). The same seed gives the same case (random.Random is
stable).

Most cases are ones F4DE's KWSEval runs to the end on every option set, so that every file it
writes is compared: each Characters and NGramOrder value of the kwlist, and each source type of
the ECF, has a term with an occurrence inside the ECF (F4DE divides by zero computing the MAP of
a condition without targets, Kaldi's option set), and terms with characters beyond Latin-1 are
rare (F4DE dies writing them to a CSV report: the tester's option set). A deliberate minority
keeps F4DE's deaths: `crash_mode` cases add a never-said term with a Characters value of its own
(about 7 % of the cases), `wide_terms` cases take CJK / right-to-left terms (about 10 %).
"""
from __future__ import annotations

import random

SOURCES = ("bnews", "cts", "splitcts", "confmtg")
ASCII_VOCAB = ("yes", "sure", "why", "not", "hello", "world", "the", "cat", "Dog", "new-york", "a", "to", "t")
LATIN1_VOCAB = ("café", "naïve", "Zürich", "señor")
WIDE_VOCAB = ("听", "到", "听到", "喂", "你好", "שלום", "עולם", "مرحبا", "كتاب")
# never-said words: none is a vocabulary word, whatever the case or -x normalisation
NONSENSE = "zqxjkvbpwy"
NONSENSE_WIDE = "ネコイヌトリウマ"
# a term's words follow each other within this gap (F4DE: sprintf("%.4f", gap) <= 0.5), and an
# occurrence certainly lies in an excerpt with this margin (times may be written with %.2f)
GAP_SURE = 0.45
EDGE_MARGIN = 0.02
CRASH_RATE = 0.07
WIDE_TERMS_RATE = 0.10


def _f3(x: float) -> str:
    return "%.3f" % x


# how a case writes its RTTM and detection times (F4DE echoes them as read in alignment.csv)
TIME_FORMATS = ("%.3f", "%.4f", "%.2f", "%g")


def _words(rng: random.Random, ecf: list, words_per_file: int, vocab: tuple) -> list:
    """RTTM words: (file, chan, tbeg, dur, word), non-overlapping per file/channel."""
    out = []
    chans = {}
    for f, c, tb, du, _ in ecf:
        chans.setdefault((f, c), []).append((tb, tb + du))
    for (f, c), spans in chans.items():
        lo = min(s for s, _ in spans) - rng.choice((0.0, 2.0))
        hi = max(e for _, e in spans) + rng.choice((0.0, 3.0))
        t = max(0.0, lo)
        n = 0
        while t < hi and n < words_per_file:
            du = rng.choice((0.2, 0.35, 0.5, 0.61, 0.8, 1.0))
            w = rng.choice(vocab[: rng.randint(6, len(vocab))])
            out.append((f, c, round(t, 3), du, w))
            t = round(t + du + rng.choice((0.0, 0.0, 0.05, 0.3, 0.6, 1.2)), 3)
            n += 1
    return out


def _vocab(rng: random.Random) -> tuple[tuple, bool]:
    """(the RTTM's vocabulary, whether terms may be CJK / right-to-left)."""
    r = rng.random()
    if r < 0.45:
        return ASCII_VOCAB, False
    if r < 0.7:
        return ASCII_VOCAB + LATIN1_VOCAB, False
    return ASCII_VOCAB + LATIN1_VOCAB + WIDE_VOCAB, rng.random() < WIDE_TERMS_RATE / 0.2


def _ecf(rng: random.Random) -> list:
    out = []
    for k in range(rng.randint(2, 4)):
        f = f"F{k:02d}" + rng.choice(("", "_a"))
        c = rng.choice((1, 1, 2))
        st = rng.choice(SOURCES)
        tb = rng.choice((0.0, 0.0, 5.0, 12.5))
        du = rng.choice((20.0, 30.0, 45.5))
        out.append((f, c, tb, du, st))
        if rng.random() < 0.3:      # a second excerpt of the same file
            out.append((f, c, tb + du + rng.choice((0.0, 4.0)), rng.choice((10.0, 15.25)), st))
    return out


def _is_wide(text: str) -> bool:
    return any(ord(c) > 255 for c in text)


def _shape(text: str) -> tuple[int, int]:
    """(NGramOrder, Characters) as annotate_kwlist.pl counts them."""
    return len(text.split()), len(text.replace(" ", ""))


def _excerpt_of(ecf: list, w: tuple) -> int | None:
    """The excerpt holding word `w` whole (with a margin), as F4DE's belongsInECF tests a term's
    first word."""
    for k, (f, c, tb, du, _) in enumerate(ecf):
        if (f, c) == w[:2] and w[2] >= tb + EDGE_MARGIN and w[2] + w[3] <= tb + du - EDGE_MARGIN:
            return k
    return None


def _spans(rng: random.Random, words: list, ecf: list) -> list:
    """Candidate terms read off the RTTM: (text, excerpt index of a sure occurrence or None)."""
    out = []
    for i in range(len(words)):
        m = rng.choice((1, 1, 1, 2, 2, 3))
        seq = [words[i]]
        for w in words[i + 1:i + m]:
            if w[:2] != seq[-1][:2]:
                break
            seq.append(w)
        sure = all(b[2] - (a[2] + a[3]) <= GAP_SURE for a, b in zip(seq, seq[1:]))
        out.append((" ".join(w[4] for w in seq), _excerpt_of(ecf, words[i]) if sure else None))
    return out


def _nonsense(rng: random.Random, shape: tuple[int, int], wide: bool) -> str:
    """A never-said text of `shape` (words, characters)."""
    n, chars = shape
    pool = NONSENSE_WIDE if wide else NONSENSE
    lens = [chars // n + (k < chars % n) for k in range(n)]
    start = rng.randrange(len(pool))
    return " ".join((pool[start:] + pool * (1 + ln // len(pool)))[:ln] for ln in lens)


def _terms(rng: random.Random, words: list, ecf: list, wide_terms: bool, crash_mode: bool) -> list:
    """(kwid, text, anchor): terms with a sure occurrence in the ECF (one per source type of the
    ECF first), terms said only where it may not count (outside the ECF, words too far apart)
    and never-said terms, the last two only with a Characters and an NGramOrder value some term
    with a sure occurrence has (unless `crash_mode`: then one never-said term has a Characters
    value of its own). `anchor`: the first term with a sure occurrence of each value."""
    cands = [c for c in _spans(rng, words, ecf) if wide_terms or not _is_wide(c[0])]
    sure = [c for c in cands if c[1] is not None]
    sure_texts = {t for t, _ in sure}
    n = rng.randint(3, 9)
    chosen: list[str] = []
    for st in rng.sample(SOURCES, len(SOURCES)):     # a target in each source type's excerpts
        of_st = [t for t, k in sure if ecf[k][4] == st and t not in chosen]
        if of_st and len(chosen) < n:
            chosen.append(rng.choice(of_st))
    for _ in range(60):
        if len(chosen) >= n or not sure:
            break
        r = rng.random()
        if r < 0.65:
            text = rng.choice(sure)[0]
        elif r < 0.8:
            text = rng.choice(cands)[0]
        else:
            model = rng.choice([t for t in chosen if t in sure_texts] or [rng.choice(sure)[0]])
            text = _nonsense(rng, _shape(model), wide_terms and rng.random() < 0.5)
        if text not in chosen:
            chosen.append(text)
    return _covered(rng, chosen, sure_texts, crash_mode)


def _covered(rng: random.Random, chosen: list, sure: set, crash_mode: bool) -> list:
    """The chosen terms whose attribute values all have a sure term, numbered; a `crash_mode`
    case also gets a never-said term with a Characters value no other term has."""
    has_targets = [t for t in chosen if t in sure]
    grams = {_shape(t)[0] for t in has_targets}
    chars = {_shape(t)[1] for t in has_targets}
    kept = [t for t in chosen if _shape(t)[0] in grams and _shape(t)[1] in chars]
    if crash_mode:
        lone = [c for c in range(2, 30) if c not in {_shape(t)[1] for t in kept}]
        kept.insert(rng.randrange(len(kept) + 1), _nonsense(rng, (rng.choice((1, 2)), rng.choice(lone[:6])), False))
    anchors, seen = set(), set()
    for t in kept:
        if t in sure:
            for key in (("n", _shape(t)[0]), ("c", _shape(t)[1])):
                if key not in seen:
                    seen.add(key)
                    anchors.add(t)
    return [(f"KW-{k + 1:03d}", t, t in anchors) for k, t in enumerate(kept)]


def _detections(rng: random.Random, terms: list, occ: dict, ecf: list) -> dict:
    """{kwid: [(file, chan, tbeg, dur, score)]}; None: no block for that term (never for an
    anchor: `-j` would leave its condition without targets)."""
    files = [(f, c) for f, c, *_ in ecf] + [("OUTSIDE", 1)]
    scores = [0.0, 1.0, 0.5, 0.25, 0.75] + [round(rng.random(), 3) for _ in range(6)]
    out = {}
    for kwid, _, anchor in terms:
        r = rng.random()
        if r < 0.12 and not anchor:
            out[kwid] = None
            continue
        dets = []
        for f, c, tb, du in occ.get(kwid, []):
            if rng.random() < 0.7:
                j = rng.choice((0.0, 0.0, 0.1, -0.2, 0.45, 0.6, -0.55))
                dets.append((f, c, max(0.0, round(tb + j, 3)), round(du * rng.choice((1, 1, 0.5, 1.5)), 3),
                             rng.choice(scores)))
                if rng.random() < 0.15:     # an overlapping second detection
                    dets.append((f, c, round(tb + 0.05, 3), du, rng.choice(scores)))
        for _ in range(rng.randint(0, 5)):
            f, c = rng.choice(files)
            spans = [(t, d) for ff, cc, t, d, _ in ecf if (ff, cc) == (f, c)] or [(0.0, 30.0)]
            t0, d0 = rng.choice(spans)
            tb = rng.choice((t0, t0 + d0 - 0.5, round(t0 + rng.random() * d0, 3)))   # edge-touching
            dets.append((f, c, round(tb, 3), 0.5, rng.choice(scores)))
        rng.shuffle(dets)
        out[kwid] = dets
    return out


def _occurrences(terms: list, words: list, gap: float = 0.5) -> dict:
    """Where each term's words follow each other (within `gap` s) in the RTTM (approximate:
    the detections only need to fall near them)."""
    out = {}
    for kwid, text, _ in terms:
        tw = text.split()
        for i in range(len(words) - len(tw) + 1):
            seq = words[i:i + len(tw)]
            if [w[4] for w in seq] != tw or any(w[:2] != seq[0][:2] for w in seq):
                continue
            if any(b[2] - (a[2] + a[3]) > gap for a, b in zip(seq, seq[1:])):
                continue
            out.setdefault(kwid, []).append((seq[0][0], seq[0][1], seq[0][2], round(seq[-1][2] + seq[-1][3] - seq[0][2], 3)))
    return out


def make_case(seed: int) -> dict[str, str]:
    """One case (ecf.xml, rttm, kwlist.xml, kwslist.xml)."""
    rng = random.Random(seed)
    ecf = _ecf(rng)
    vocab, wide_terms = _vocab(rng)
    crash_mode = rng.random() < CRASH_RATE
    words = _words(rng, ecf, rng.choice((30, 60, 120)), vocab)
    terms = _terms(rng, words, ecf, wide_terms, crash_mode)
    occ = _occurrences(terms, words)
    dets = _detections(rng, terms, occ, ecf)
    thr = rng.choice((0.5, 0.3, 0.75, 1.0, 0.0))
    lower = rng.random() < 0.5
    tf = rng.choice(TIME_FORMATS)
    return {"ecf.xml": _ecf_xml(ecf), "rttm": _rttm(ecf, words, tf), "kwlist.xml": _kwlist_xml(terms, lower),
            "kwslist.xml": _kwslist_xml(terms, dets, thr, tf)}


def _ecf_xml(ecf: list) -> str:
    total = sum(d for *_, d, _ in ecf)
    out = [f'<ecf source_signal_duration="{_f3(total)}" language="english" version="01">']
    out += [f'  <excerpt audio_filename="{f}.sph" channel="{c}" tbeg="{_f3(tb)}" dur="{_f3(du)}" '
            f'source_type="{st}"/>' for f, c, tb, du, st in ecf]
    out.append("</ecf>")
    return "\n".join(out) + "\n"


def _rttm(ecf: list, words: list, tf: str) -> str:
    out = [f"SPEAKER {f} {c} {_f3(tb)} {_f3(du)} <NA> <NA> spk{c} <NA>" for f, c, tb, du, _ in ecf]
    out += [f"LEXEME {f} {c} {tf % tb} {tf % du} {w} lex spk{c} <NA>" for f, c, tb, du, w in words]
    return "\n".join(out) + "\n"


def _kwlist_xml(terms: list, lower: bool) -> str:
    out = [f'<kwlist ecf_filename="ecf.xml" version="01" language="english" encoding="UTF-8" '
           f'compareNormalize="{"lowercase" if lower else ""}">']
    for kwid, text, _ in terms:
        n, chars = _shape(text)
        out.append(f'<kw kwid="{kwid}"><kwtext>{text}</kwtext><kwinfo>'
                   f'<attr><name>NGramOrder</name><value>{n:03d}</value></attr>'
                   f'<attr><name>Characters</name><value>{chars:03d}</value></attr></kwinfo></kw>')
    out.append("</kwlist>")
    return "\n".join(out) + "\n"


def _kwslist_xml(terms: list, dets: dict, thr: float, tf: str) -> str:
    out = ['<kwslist kwlist_filename="kwlist.xml" language="english" system_id="">']
    for kwid, _, _ in terms:
        if dets[kwid] is None:
            continue
        out.append(f'<detected_kwlist kwid="{kwid}" search_time="1.0" oov_count="0">')
        for f, c, tb, du, s in dets[kwid]:
            dec = "YES" if s >= thr and not (thr == 0.0 and s == 0.0) else "NO"
            out.append(f'<kw file="{f}" channel="{c}" tbeg="{tf % tb}" dur="{tf % du}" score="{s}" '
                       f'decision="{dec}"/>')
        out.append("</detected_kwlist>")
    out.append("</kwslist>")
    return "\n".join(out) + "\n"
