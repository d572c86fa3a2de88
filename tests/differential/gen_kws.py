"""Seeded random KWS cases for the differential harness against F4DE's KWSEval.pl.

`make_case(seed)` -> {file name: text} of one case: an ECF with several excerpts (files, channels,
source types bnews/cts/splitcts/confmtg, some files with two excerpts), an RTTM (LEXEME words of a
small vocabulary with CJK and right-to-left words, SPEAKER/NON-LEX lines, some words outside the
ECF), a KWLIST (one- to three-word terms with Characters/NGramOrder attributes, as Kaldi's
annotate_kwlist.pl adds them, terms that never occur), and a KWSLIST (detections near
occurrences with jitter, overlapping and edge-touching ones, false alarms, tied scores, hard
0/1 scores, YES/NO decided by one threshold, detections in a file outside the ECF, terms without
a detected_kwlist block). The same seed gives the same case (random.Random is stable).
"""
from __future__ import annotations

import random

SOURCES = ("bnews", "cts", "splitcts", "confmtg")
VOCAB = ("yes", "sure", "why", "not", "hello", "world", "the", "cat", "Dog", "new-york",
         "听", "到", "听到", "喂", "你好", "שלום", "עולם", "مرحبا", "كتاب", "a", "to", "t")


def _f3(x: float) -> str:
    return "%.3f" % x


# how a case writes its RTTM and detection times (F4DE echoes them as read in alignment.csv)
TIME_FORMATS = ("%.3f", "%.4f", "%.2f", "%g")


def _words(rng: random.Random, ecf: list, words_per_file: int, ascii_only: bool = False) -> list:
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
            w = rng.choice(VOCAB[: rng.randint(6, 10 if ascii_only else len(VOCAB))])
            out.append((f, c, round(t, 3), du, w))
            t = round(t + du + rng.choice((0.0, 0.0, 0.05, 0.3, 0.6, 1.2)), 3)
            n += 1
    return out


def seed_cjk(words: list) -> bool:
    return any(ord(c) > 127 for w in words for c in w[4])


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


def _terms(rng: random.Random, words: list, said_only: bool = False) -> list:
    """(kwid, text): terms taken from the RTTM (1-3 consecutive words) and some never said."""
    out = []
    seen = set()
    n = rng.randint(3, 9)
    for k in range(40):
        if len(out) >= n:
            break
        if (rng.random() < 0.2 and not said_only) or not words:
            text = rng.choice(("zebra", "blue moon", "never said") + (("ネコ",) if seed_cjk(words) else ()))
        else:
            i = rng.randrange(len(words))
            m = rng.choice((1, 1, 1, 2, 2, 3))
            seq = [w for w in words[i:i + m] if w[:2] == words[i][:2]]
            text = " ".join(w[4] for w in seq)
        if text in seen:
            continue
        seen.add(text)
        out.append((f"KW-{len(out) + 1:03d}", text))
    return out


def _detections(rng: random.Random, terms: list, occ: dict, ecf: list) -> dict:
    """{kwid: [(file, chan, tbeg, dur, score)]}; None: no block for that term."""
    files = [(f, c) for f, c, *_ in ecf] + [("OUTSIDE", 1)]
    scores = [0.0, 1.0, 0.5, 0.25, 0.75] + [round(rng.random(), 3) for _ in range(6)]
    out = {}
    for kwid, _ in terms:
        r = rng.random()
        if r < 0.12:
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
    for kwid, text in terms:
        tw = text.split()
        for i in range(len(words) - len(tw) + 1):
            seq = words[i:i + len(tw)]
            if [w[4] for w in seq] != tw or any(w[:2] != seq[0][:2] for w in seq):
                continue
            if any(b[2] - (a[2] + a[3]) > gap for a, b in zip(seq, seq[1:])):
                continue
            out.setdefault(kwid, []).append((seq[0][0], seq[0][1], seq[0][2], round(seq[-1][2] + seq[-1][3] - seq[0][2], 3)))
    return out


def make_case(seed: int, said_only: bool = False) -> dict[str, str]:
    """One case; `said_only`: every term taken from the reference's words (none never said)."""
    rng = random.Random(seed)
    ecf = _ecf(rng)
    # F4DE dies writing a non-ASCII term text to bsum.csv: 60 % of the cases are ASCII only
    words = _words(rng, ecf, rng.choice((30, 60, 120)), ascii_only=rng.random() < 0.6)
    terms = _terms(rng, words, said_only)
    occ = _occurrences(terms, words)
    dets = _detections(rng, terms, occ, ecf)
    thr = rng.choice((0.5, 0.3, 0.75, 1.0, 0.0))
    lower = rng.random() < 0.5
    total = sum(d for *_, d, _ in ecf)
    ecf_xml = [f'<ecf source_signal_duration="{_f3(total)}" language="english" version="01">']
    ecf_xml += [f'  <excerpt audio_filename="{f}.sph" channel="{c}" tbeg="{_f3(tb)}" dur="{_f3(du)}" '
                f'source_type="{st}"/>' for f, c, tb, du, st in ecf]
    ecf_xml.append("</ecf>")
    tf = rng.choice(TIME_FORMATS)
    rttm = []
    for f, c, tb, du, st in ecf:
        rttm.append(f"SPEAKER {f} {c} {_f3(tb)} {_f3(du)} <NA> <NA> spk{c} <NA>")
    for f, c, tb, du, w in words:
        rttm.append(f"LEXEME {f} {c} {tf % tb} {tf % du} {w} lex spk{c} <NA>")
    kw = [f'<kwlist ecf_filename="ecf.xml" version="01" language="english" encoding="UTF-8" '
          f'compareNormalize="{"lowercase" if lower else ""}">']
    for kwid, text in terms:
        n = len(text.split())
        chars = len(text.replace(" ", ""))
        kw.append(f'<kw kwid="{kwid}"><kwtext>{text}</kwtext><kwinfo>'
                  f'<attr><name>NGramOrder</name><value>{n:03d}</value></attr>'
                  f'<attr><name>Characters</name><value>{chars:03d}</value></attr></kwinfo></kw>')
    kw.append("</kwlist>")
    sl = ['<kwslist kwlist_filename="kwlist.xml" language="english" system_id="">']
    for kwid, _ in terms:
        if dets[kwid] is None:
            continue
        sl.append(f'<detected_kwlist kwid="{kwid}" search_time="1.0" oov_count="0">')
        for f, c, tb, du, s in dets[kwid]:
            dec = "YES" if s >= thr and not (thr == 0.0 and s == 0.0) else "NO"
            sl.append(f'<kw file="{f}" channel="{c}" tbeg="{tf % tb}" dur="{tf % du}" score="{s}" '
                      f'decision="{dec}"/>')
        sl.append("</detected_kwlist>")
    sl.append("</kwslist>")
    return {"ecf.xml": "\n".join(ecf_xml) + "\n", "rttm": "\n".join(rttm) + "\n",
            "kwlist.xml": "\n".join(kw) + "\n", "kwslist.xml": "\n".join(sl) + "\n"}
