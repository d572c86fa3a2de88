#!/usr/bin/env python3
"""Generate the bundled synthetic example corpus (deterministic, no downloads).

Usage: local/make_example.py [--seed N] <out-dir>
 e.g.: local/make_example.py --seed 1 data/local/example

Writes one alignment of a small synthetic corpus (a lexicon of ~50 words over 25 phones,
4 speakers x 6 recordings of 10-15 s, pauses between some words, phones of 40-150 ms on a
10 ms grid) in the three gold formats, plus a discovered-class file from a simulated
term-discovery system:

  zr/example.phn, zr/example.wrd          ZeroSpeech `file onset offset label` (seconds);
                                          silences are explicit SIL lines in .phn, absent
                                          from .wrd
  zr/index.json                           the zr/ dir as a zrc dataset (language english:
                                          example.phn, example.wrd), for
                                          score_zrc_submission.sh --zrc-dataset
  ctm/phones.ctm, ctm/phones.txt,          Kaldi `ali-to-phones --ctm-output` style phone CTM
  ctm/segments, ctm/words.ctm,            (utterance-relative, integer position-dependent
  ctm/words.reco.ctm                      phones), its symbol table, the segments file, the
                                          word CTM keyed by utterance (utterance-relative, as
                                          steps/get_train_ctm.sh makes it before convert_ctm.pl)
                                          and the same words recording-relative (NIST form)
  textgrid/<reco>.TextGrid                MFA style: tiers `words`, `phones`; empty = silence
  utt2spk                                 `<reco> <speaker>`; speaker = id before the first '-'
  lexicon.txt                             `<word> <phones>`
  classes/example.classes                 discovered classes (ZeroSpeech format)
  classes/example.pairs                   some of its matches as `f1 on1 off1 f2 on2 off2 score`
  README                                  what the files are

The same seed always gives the same bytes (Python's `random.Random`, whose integer/choice
streams are stable across Python versions; every time is an integer number of 10 ms frames,
or of milliseconds for class fragments, formatted from the integer).
"""
from __future__ import annotations

import os
import random
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from termeval.run.cli import make_parser, run  # noqa: E402
from termeval.core.textio import write_text  # noqa: E402

CONSONANTS = ["P", "T", "K", "B", "D", "G", "M", "N", "NG", "F", "S", "SH", "HH", "L", "R", "W",
              "Y", "Z"]
VOWELS = ["AA", "AE", "AH", "EH", "IY", "OW", "UW"]
PHONES = CONSONANTS + VOWELS                      # 25 phones
SIL = "SIL"
SPELL = {"P": "p", "T": "t", "K": "k", "B": "b", "D": "d", "G": "g", "M": "m", "N": "n", "NG": "ng",
         "F": "f", "S": "s", "SH": "sh", "HH": "h", "L": "l", "R": "r", "W": "w", "Y": "y", "Z": "z",
         "AA": "a", "AE": "ae", "AH": "u", "EH": "e", "IY": "i", "OW": "o", "UW": "oo"}
# Alternative spellings used to make homophones.
RESPELL = [("k", "c"), ("f", "ph"), ("i", "ee"), ("oo", "ou"), ("s", "ss"), ("o", "oh")]
N_SPEAKERS = 4
N_RECORDINGS = 6


def fr(n: int) -> str:
    """Integer 10 ms frames as seconds with 2 decimals (exact: formatted from the integer)."""
    return f"{n // 100}.{n % 100:02d}"


def ms(n: int) -> str:
    """Integer milliseconds as seconds with 3 decimals."""
    return f"{n // 1000}.{n % 1000:03d}"


def tg_time(n: int) -> str:
    """Frames as the shortest decimal (Praat style: 0, 1.5, 12.34)."""
    s = fr(n).rstrip("0").rstrip(".")
    return s or "0"


# --------------------------------------------------------------------------------------------
# Lexicon


def _syllable(rng: random.Random, first: bool) -> list[str]:
    syl = [] if (first and rng.random() < 0.15) else [rng.choice(CONSONANTS)]
    syl.append(rng.choice(VOWELS))
    if rng.random() < 0.25:
        syl.append(rng.choice(["N", "M", "S", "K", "T", "L", "R"]))
    return syl


def spell(pron: tuple[str, ...]) -> str:
    return "".join(SPELL[p] for p in pron)


def make_lexicon(rng: random.Random) -> list[tuple[str, tuple[str, ...]]]:
    """~50 (word, pronunciation) pairs: 36 random words, 8 that extend another word (shared
    prefixes/suffixes), 4 homophones (same pronunciation, another spelling)."""
    prons: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()
    while len(prons) < 36:
        n_syl = rng.choice([1, 2, 2, 2, 3, 3])
        pron: list[str] = []
        for k in range(n_syl):
            syl = _syllable(rng, k == 0)
            while pron and syl[0] == pron[-1]:   # no doubled phone across syllables
                syl = _syllable(rng, k == 0)
            pron += syl
        t = tuple(pron)
        if len(t) >= 2 and t not in seen:
            seen.add(t)
            prons.append(t)
    n_base = len(prons)
    while len(prons) < n_base + 8:            # words sharing a sub-string with another word
        base = prons[rng.randrange(n_base)]
        extra = tuple(_syllable(rng, False))
        t = base + extra if rng.random() < 0.6 else extra + base
        if t not in seen and all(x != y for x, y in zip(t, t[1:])):
            seen.add(t)
            prons.append(t)
    lex: list[tuple[str, tuple[str, ...]]] = []
    words: set[str] = set()
    for p in prons:
        w = spell(p)
        while w in words:                     # two pronunciations with the same spelling
            w += "h"
        words.add(w)
        lex.append((w, p))
    homo = 0
    for i in rng.sample(range(len(lex)), len(lex)):
        if homo == 4:
            break
        w, p = lex[i]
        for a, b in RESPELL:
            if a in w and w.replace(a, b, 1) not in words:
                w2 = w.replace(a, b, 1)
                words.add(w2)
                lex.append((w2, p))
                homo += 1
                break
    return lex


# --------------------------------------------------------------------------------------------
# Corpus: integer frames everywhere


@dataclass
class Recording:
    reco: str
    speaker: str
    phones: list[tuple[int, int, str, str]] = field(default_factory=list)  # on, off, phone, pos
    words: list[tuple[int, int, str]] = field(default_factory=list)
    utts: list[tuple[int, int]] = field(default_factory=list)               # segment on, off
    word_utt: list[int] = field(default_factory=list)                        # utterance of each word

    @property
    def end(self) -> int:
        return self.phones[-1][1]


def _phone_frames(rng: random.Random, phone: str, rate: float) -> int:
    lo, hi = (6, 15) if phone in VOWELS else (4, 10)
    return max(4, min(15, round(rng.randint(lo, hi) * rate)))


def make_corpus(rng: random.Random, lex: list[tuple[str, tuple[str, ...]]]) -> list[Recording]:
    # Zipf-like word frequencies over a shuffled lexicon, so that words repeat.
    order = rng.sample(range(len(lex)), len(lex))
    weights = [0.0] * len(lex)
    for rank, i in enumerate(order):
        weights[i] = 1.0 / (rank + 1) ** 0.8
    recs = []
    for s in range(N_SPEAKERS):
        spk = f"s{s + 1:02d}"
        rate = [0.9, 1.0, 1.1, 1.0][s % 4]
        for r in range(N_RECORDINGS):
            rec = Recording(f"{spk}-r{r + 1:02d}", spk)
            t = 0
            n_utt = rng.choice([3, 3, 4])
            for u in range(n_utt):
                if u > 0:
                    t += rng.randint(40, 120)            # pause between utterances: a gap
                seg_on = t
                if u == 0:                                # leading silence, inside utterance 1
                    d = rng.randint(20, 60)
                    rec.phones.append((t, t + d, SIL, ""))
                    t += d
                n_words = rng.randint(5, 9)
                for k in range(n_words):
                    if k > 0 and rng.random() < 0.2:     # a pause inside the utterance
                        d = rng.randint(15, 40)
                        rec.phones.append((t, t + d, SIL, ""))
                        t += d
                    w, pron = lex[rng.choices(range(len(lex)), weights)[0]]
                    w_on = t
                    for j, p in enumerate(pron):
                        pos = "S" if len(pron) == 1 else "B" if j == 0 else "E" if j == len(pron) - 1 else "I"
                        d = _phone_frames(rng, p, rate)
                        rec.phones.append((t, t + d, p, pos))
                        t += d
                    rec.words.append((w_on, t, w))
                    rec.word_utt.append(u)
                if u == n_utt - 1:                        # trailing silence, inside the last one
                    d = rng.randint(20, 60)
                    rec.phones.append((t, t + d, SIL, ""))
                    t += d
                rec.utts.append((seg_on, t))
            recs.append(rec)
    return recs


# --------------------------------------------------------------------------------------------
# Gold formats


def all_phones_zr(rec: Recording) -> list[tuple[int, int, str]]:
    """Phones with every silence explicit: utterance-internal SILs plus the between-utterance
    gaps (what the gold preparation fills in for the CTM form)."""
    out: list[tuple[int, int, str]] = []
    prev = 0
    for on, off, p, _ in rec.phones:
        if on > prev:
            out.append((prev, on, SIL))
        out.append((on, off, p))
        prev = off
    return out


def write_zr(out: str, recs: list[Recording]) -> None:
    write_text(os.path.join(out, "zr", "example.phn"), "".join(
        f"{r.reco} {fr(a)} {fr(b)} {p}\n" for r in recs for a, b, p in all_phones_zr(r)))
    write_text(os.path.join(out, "zr", "example.wrd"), "".join(
        f"{r.reco} {fr(a)} {fr(b)} {w}\n" for r in recs for a, b, w in r.words))
    write_text(os.path.join(out, "zr", "index.json"), ZRC_INDEX)


# zr/ as a zrc dataset dir: its index.json names the alignments of one language, english
ZRC_INDEX = """{"subsets": {"english": {"items": {
 "alignment_phones": {"item_type": "file_item", "file_type": "phn", "file": "example.phn"},
 "alignment_words": {"item_type": "file_item", "file_type": "wrd", "file": "example.wrd"}}}}}
"""


def phone_table() -> list[str]:
    """OpenFst symbols in the order Kaldi's utils/prepare_lang.sh writes them."""
    syms = ["<eps>"]
    for p in ["SIL", "SPN"]:
        syms += [p] + [f"{p}_{s}" for s in "BEIS"]
    for p in sorted(PHONES):
        syms += [f"{p}_{s}" for s in "BEIS"]
    return syms + ["#0", "#1", "#2", "#3"]


def utt_id(rec: Recording, u: int) -> str:
    return f"{rec.reco}-{u + 1:03d}"


def write_ctm(out: str, recs: list[Recording]) -> None:
    syms = phone_table()
    ids = {s: i for i, s in enumerate(syms)}
    write_text(os.path.join(out, "ctm", "phones.txt"), "".join(f"{s} {i}\n" for i, s in enumerate(syms)))
    seg, pctm, wctm, wuctm = [], [], [], []
    for r in recs:
        for u, (a, b) in enumerate(r.utts):
            uid = utt_id(r, u)
            seg.append(f"{uid} {r.reco} {fr(a)} {fr(b)}\n")
            for on, off, p, pos in r.phones:
                if a <= on and off <= b:
                    sym = p if not pos else f"{p}_{pos}"
                    pctm.append(f"{uid} 1 {fr(on - a)} {fr(off - on)} {ids[sym]}\n")
        for (on, off, w), u in zip(r.words, r.word_utt):
            wctm.append(f"{r.reco} A {fr(on)} {fr(off - on)} {w}\n")
            wuctm.append(f"{utt_id(r, u)} 1 {fr(on - r.utts[u][0])} {fr(off - on)} {w}\n")
    write_text(os.path.join(out, "ctm", "segments"), "".join(seg))
    write_text(os.path.join(out, "ctm", "phones.ctm"), "".join(pctm))
    write_text(os.path.join(out, "ctm", "words.ctm"), "".join(wuctm))
    write_text(os.path.join(out, "ctm", "words.reco.ctm"), "".join(wctm))


def textgrid_text(rec: Recording) -> str:
    end = rec.end
    words: list[tuple[int, int, str]] = []
    prev = 0
    for on, off, w in rec.words:
        if on > prev:
            words.append((prev, on, ""))
        words.append((on, off, w))
        prev = off
    if prev < end:
        words.append((prev, end, ""))
    phones = [(a, b, "" if p == SIL else p) for a, b, p in all_phones_zr(rec)]
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "",
             "xmin = 0 ", f"xmax = {tg_time(end)} ", "tiers? <exists> ", "size = 2 ", "item []: "]
    for k, (name, ivs) in enumerate((("words", words), ("phones", phones)), 1):
        lines += [f"    item [{k}]:", '        class = "IntervalTier" ', f'        name = "{name}" ',
                  "        xmin = 0 ", f"        xmax = {tg_time(end)} ", f"        intervals: size = {len(ivs)} "]
        for j, (a, b, lab) in enumerate(ivs, 1):
            lines += [f"        intervals [{j}]:", f"            xmin = {tg_time(a)} ",
                      f"            xmax = {tg_time(b)} ", f'            text = "{lab}" ']
    return "\n".join(lines) + "\n"


def write_textgrids(out: str, recs: list[Recording]) -> None:
    for r in recs:
        write_text(os.path.join(out, "textgrid", f"{r.reco}.TextGrid"), textgrid_text(r))


# --------------------------------------------------------------------------------------------
# Simulated term discovery: fragments in integer milliseconds


def make_classes(rng: random.Random, recs: list[Recording], lex) -> tuple[list[list[tuple[str, int, int]]], dict]:
    """Classes of (reco, onset ms, offset ms) with the errors real systems make."""
    dur = {r.reco: r.end * 10 for r in recs}
    occ: dict[str, list[tuple[str, int, int]]] = {}
    for r in recs:
        for on, off, w in r.words:
            occ.setdefault(w, []).append((r.reco, on * 10, off * 10))
    pron = dict(lex)

    def jitter(f: tuple[str, int, int]) -> tuple[str, int, int]:
        reco, a, b = f
        if rng.random() < 0.8:
            a += rng.choice([-1, 1]) * rng.randint(10, 40)
        if rng.random() < 0.8:
            b += rng.choice([-1, 1]) * rng.randint(10, 40)
        a = max(0, a)
        b = min(dur[reco], b)
        if b - a < 50:
            b = min(dur[reco], a + 50)
        return (reco, a, b)

    stats = {"word": 0, "split": 0, "merged": 0, "across_pause": 0, "false": 0, "singleton": 0,
             "duplicated": 0}
    cands = sorted(w for w, o in occ.items() if len(o) >= 2 and len(pron[w]) >= 3)
    rng.shuffle(cands)
    classes: list[list[tuple[str, int, int]]] = []
    used: set[str] = set()
    # merged clusters: two word types that share a pronunciation prefix of >= 2 phones, or homophones
    pairs = [(a, b) for a in cands for b in cands if a < b and pron[a][:2] == pron[b][:2]]
    for a, b in pairs:
        if stats["merged"] == 2:
            break
        if a in used or b in used:
            continue
        members = rng.sample(occ[a], min(3, len(occ[a]))) + rng.sample(occ[b], min(3, len(occ[b])))
        rng.shuffle(members)
        classes.append([jitter(f) for f in members])
        used |= {a, b}
        stats["merged"] += 1
    for w in cands:
        if w in used:
            continue
        o = list(occ[w])
        rng.shuffle(o)
        x = rng.random()
        if x < 0.15:                              # missed entirely
            continue
        if x < 0.3 and len(o) >= 4 and stats["split"] < 3:   # split cluster
            h = len(o) // 2
            classes.append([jitter(f) for f in o[:h]])
            classes.append([jitter(f) for f in o[h:]])
            stats["split"] += 1
            continue
        keep = o[:max(2, round(len(o) * rng.uniform(0.6, 1.0)))]
        cl = [jitter(f) for f in keep]
        if stats["duplicated"] == 0 and len(cl) >= 2:        # a fragment listed twice
            cl.append(cl[0])
            stats["duplicated"] += 1
        classes.append(cl)
        stats["word"] += 1
    # fragments across a pause: a word, the pause after it and the start of the next word
    across: dict[str, list[tuple[str, int, int]]] = {}
    for r in recs:
        for k in range(len(r.words) - 1):
            (a, b, w), (c, d, _) = r.words[k], r.words[k + 1]
            if r.word_utt[k] == r.word_utt[k + 1] and c > b:
                across.setdefault(w, []).append((r.reco, a * 10, c * 10 + 60))
    for w in sorted(across, key=lambda x: (-len(across[x]), x))[:2]:
        if len(across[w]) >= 2:
            classes.append([jitter(f) for f in across[w][:4]])
            stats["across_pause"] += 1
    # false matches: random stretches of random recordings
    for _ in range(3):
        cl = []
        for _ in range(rng.randint(2, 3)):
            r = rng.choice(recs)
            a = rng.randint(0, dur[r.reco] - 700)
            cl.append((r.reco, a, a + rng.randint(200, 600)))
        classes.append(cl)
        stats["false"] += 1
    # a singleton class
    w = sorted(occ)[rng.randrange(len(occ))]
    classes.append([jitter(occ[w][0])])
    stats["singleton"] += 1
    return classes, stats


def write_classes(out: str, classes: list[list[tuple[str, int, int]]], rng: random.Random) -> None:
    text = "".join(f"Class {c}\n" + "".join(f"{f} {ms(a)} {ms(b)}\n" for f, a, b in cl) + "\n"
                   for c, cl in enumerate(classes))
    write_text(os.path.join(out, "classes", "example.classes"), text)
    pairs = []
    for cl in classes[:10]:
        for x, y in zip(cl, cl[1:]):
            if x != y:
                pairs.append(f"{x[0]} {ms(x[1])} {ms(x[2])} {y[0]} {ms(y[1])} {ms(y[2])} "
                             f"{rng.randint(500, 999) / 1000:.3f}\n")
    write_text(os.path.join(out, "classes", "example.pairs"), "".join(pairs))


README = """\
Synthetic example corpus generated by local/make_example.py --seed {seed} (termeval).
Deterministic: the same seed always writes the same bytes. Nothing here is real speech.

Corpus: {n_spk} speakers x {n_rec} recordings ({n_reco} recordings, {total} s in total), {n_utt}
utterances, {n_words} word tokens of {n_types} types, {n_phones} phone tokens (silence excluded).
Lexicon: {n_lex} words over 25 phones (lexicon.txt); some words extend others (shared
sub-strings), some are homophones (same pronunciation, different spelling). Phones last
40-150 ms; every time is a whole number of 10 ms frames, written with 2 decimals.

Recording ids are `<speaker>-r<nn>` (speaker = the part before the first '-', e.g. s01);
utt2spk lists `<recording> <speaker>`. Utterances are segments `<recording>-<nnn>` of a
recording: the first starts at 0 with a leading silence, the last ends with a trailing
silence, and utterances are separated by pauses that belong to no utterance. Pauses inside
utterances are SIL phones. The recording ends at the end of its last (silence) phone.

The same alignment in three gold formats (they prepare to identical data dirs):
  zr/example.phn, zr/example.wrd   ZeroSpeech `<file> <onset> <offset> <label>`, recording
        time; .phn covers every recording from 0 to its end, every silence an explicit SIL
        line (also the pauses between utterances); .wrd lists words only (no SIL).
  zr/index.json    the zr/ directory as a zrc dataset (english = example.phn, example.wrd):
        `steps/score_zrc_submission.sh --zrc-dataset data/local/example/zr <submission>`.
  ctm/phones.ctm   `<utt> 1 <start> <dur> <phone-id>` as written by
        `ali-to-phones --ctm-output`: utterance-relative, integer ids of position-dependent
        phones (X_B X_I X_E X_S; silence is the bare SIL); the pauses between utterances are
        not covered (gaps, to be filled with SIL).
  ctm/phones.txt   OpenFst symbol table as utils/prepare_lang.sh writes it (<eps> 0, SIL and
        SPN with their position variants, X_B X_E X_I X_S for every phone, #0..#3).
  ctm/segments     `<utt> <recording> <start> <end>`.
  ctm/words.ctm    word CTM keyed by utterance, utterance-relative (`<utt> 1 <start> <dur>
        <word>`), to be used with ctm/segments like phones.ctm; ctm/words.reco.ctm holds the
        same words as a recording-relative NIST CTM (`<recording> A <start> <dur> <word>`, as
        utils/convert_ctm.pl writes it).
  textgrid/<recording>.TextGrid   MFA-style long TextGrid, UTF-8, tiers `words` then
        `phones`, intervals covering 0..duration, silence = empty label.

classes/example.classes   ZeroSpeech discovered-class file from a simulated term-discovery
        system (times in ms precision): {n_cls} classes, {n_frag} fragments: {word} word
        clusters with boundaries jittered by 10-40 ms and some occurrences missed, split
        clusters ({split} word types cut into two classes), merged clusters ({merged} classes
        mixing two word types that share a prefix), fragments across a pause ({across_pause}
        classes), false matches ({false} classes of random stretches), a singleton class, and
        one fragment listed twice in its class. Well-formed for the reference tools too
        (single spaces, a blank line after every class).
classes/example.pairs     {n_pairs} matches of the first classes as `f1 on1 off1 f2 on2 off2 score`.
"""


def generate(out: str, seed: int = 1) -> dict:
    rng = random.Random(seed)
    lex = make_lexicon(rng)
    recs = make_corpus(rng, lex)
    write_text(os.path.join(out, "lexicon.txt"), "".join(f"{w} {' '.join(p)}\n" for w, p in sorted(lex)))
    write_text(os.path.join(out, "utt2spk"), "".join(f"{r.reco} {r.speaker}\n" for r in recs))
    write_zr(out, recs)
    write_ctm(out, recs)
    write_textgrids(out, recs)
    classes, stats = make_classes(rng, recs, lex)
    write_classes(out, classes, rng)
    with open(os.path.join(out, "classes", "example.pairs")) as f:
        n_pairs = sum(1 for _ in f)
    info = dict(seed=seed, n_spk=N_SPEAKERS, n_rec=N_RECORDINGS, n_reco=len(recs),
                total=fr(sum(r.end for r in recs)), n_utt=sum(len(r.utts) for r in recs),
                n_words=sum(len(r.words) for r in recs),
                n_types=len({w for r in recs for _, _, w in r.words}),
                n_phones=sum(1 for r in recs for p in r.phones if p[2] != SIL), n_lex=len(lex),
                n_cls=len(classes), n_frag=sum(len(c) for c in classes), n_pairs=n_pairs, **stats)
    write_text(os.path.join(out, "README"), README.format(**info))
    return info


def main(argv):
    p = make_parser(__doc__)
    p.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    p.add_argument("out_dir")
    a = p.parse_args(argv)
    info = generate(a.out_dir, a.seed)
    print(f"{os.path.basename(sys.argv[0])}: wrote {a.out_dir}: {info['n_reco']} recordings, "
          f"{info['total']} s, {info['n_words']} words, {info['n_cls']} classes", file=sys.stderr)


if __name__ == "__main__":
    run(main)
