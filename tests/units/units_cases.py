"""Generated inputs of the unit scoring differential tests, from fixed seeds, in plain Python
(random.Random: the same stream on every Python and in the reference tools' environments, which
run this file without termeval: local/record_units_fixtures.sh).

discophon cases: a dataset dir (alignment/alignment-<lang>-<split>.txt) and a predictions dir
(units-<lang>-<split>.jsonl), scored with --kind and --step-units; fairseq cases: its script's
inputs (phone frame labels <set>.tsv, the manifest <set>.tsv, the labels <set>.km) and the same
gold as a discophon alignment file (which steps/prepare_gold.sh --format discophon reads).
"""
from __future__ import annotations

import hashlib
import json
import os
import random

PHONES = ["a", "e", "i", "o", "u", "p", "t", "k", "b", "d", "g", "m", "n", "s", "z", "f", "v", "l", "r", "j",
          "w", "h", "ʃ", "ʒ", "tʃ", "ŋ", "ɲ", "ə", "ɛ", "ɔ", "x", "c", "ɟ", "q", "ʔ", "θ", "ð", "y", "ø", "œ",
          "ɯ", "ʊ"]
N_PHONEMES = {"deu": 41, "swa": 29, "tam": 29, "tha": 40, "tur": 27, "ukr": 35, "cmn": 42, "eng": 39, "eus": 29,
              "fra": 34, "jpn": 42, "wol": 39}


def _file(rnd: random.Random, fid: str, inventory: list[str], n_phones: tuple[int, int], dur: tuple[int, int],
          sil_only: bool = False) -> list[tuple[str, int, int, str]]:
    """Intervals (file, onset frame, offset frame, label) tiling a file from 0."""
    out, t = [], 0
    labels = inventory + ["SIL"]
    for _ in range(rnd.randint(*n_phones)):
        d = rnd.randint(*dur)
        out.append((fid, t, t + d, "SIL" if sil_only else rnd.choice(labels)))
        t += d
    return out


def _units(rnd: random.Random, frames: list[str], code: dict[str, int], repeat: int, n_units: int, noise: float,
           delta: int = 0, spread: int = 3) -> list[int]:
    """Units following the phones (each phone's own few units), noisy; delta +1: one unit past
    the gold (floor + 1: exactly one unit's frames more when the frames divide), -1: one unit
    short (ceil - 1), 0: ceil; +-k beyond 1: that many units more or fewer than ceil."""
    n = (len(frames) + repeat - 1) // repeat
    n = len(frames) // repeat + 1 if delta == 1 else n + delta
    n = max(1, n)
    out = []
    for j in range(n):
        p = frames[min(j * repeat + rnd.randrange(repeat), len(frames) - 1)]
        u = (code[p] * spread + rnd.randrange(spread)) % n_units
        out.append(rnd.randrange(n_units) if rnd.random() < noise else u)
    return out


def _time(frames: int) -> str:
    s = f"{frames / 100:.2f}"
    return s[:-3] if s.endswith(".00") else s


def alignment_text(rows: list[tuple[str, int, int, str]], shuffle: random.Random | None = None) -> str:
    lines = [f"{f} {_time(a)} {_time(b)} {p}" for f, a, b, p in rows]
    if shuffle is not None:
        shuffle.shuffle(lines)       # discophon sorts by file and onset
    return "#file onset offset #phone\n" + "".join(x + "\n" for x in lines)


DISCOPHON = {
    # name: (seed, kind, step, pairs, files, phones/file, frames/phone, noise, options)
    "basic": (1, "many-to-one", 20, [("deu", "dev"), ("deu", "test"), ("eng", "test")], 12, (3, 40), (2, 14), 0.2, {}),
    "one_to_one": (2, "one-to-one", 20, [("swa", "dev"), ("fra", "test")], 10, (3, 30), (2, 12), 0.3, {}),
    "units_10ms": (3, "many-to-one", 10, [("tur", "dev"), ("tur", "test")], 10, (3, 30), (1, 9), 0.15, {}),
    "units_10ms_o2o": (4, "one-to-one", 10, [("ukr", "dev")], 8, (3, 30), (1, 9), 0.15, {}),
    "trim_limit": (5, "many-to-one", 20, [("tam", "dev"), ("tha", "test")], 16, (2, 20), (1, 10), 0.2,
                   {"delta": [-1, 1, 0, 0, -1, 1]}),
    "trim_limit_40ms": (6, "many-to-one", 40, [("cmn", "dev")], 16, (2, 20), (1, 10), 0.2, {"delta": [-1, 1, 0]}),
    "silence_only": (7, "many-to-one", 20, [("eus", "dev"), ("eus", "test")], 10, (1, 6), (3, 30), 0.2,
                     {"sil_only": 0.4}),
    "single_phone": (8, "many-to-one", 20, [("wol", "dev"), ("jpn", "test")], 8, (2, 12), (2, 20), 0.3,
                     {"inventory": 1}),
    "single_phone_o2o": (9, "one-to-one", 20, [("wol", "test")], 8, (2, 12), (2, 20), 0.3, {"inventory": 1}),
    "midpoints": (10, "many-to-one", 10, [("deu", "dev")], 10, (5, 40), (1, 5), 0.0, {"midpoints": True}),
    "midpoints_20ms": (11, "many-to-one", 20, [("deu", "test")], 10, (5, 40), (1, 5), 0.0, {"midpoints": True}),
    "long_files": (12, "many-to-one", 20, [("eng", "dev")], 3, (2400, 2600), (7, 9), 0.25, {}),
    "long_files_o2o": (13, "one-to-one", 20, [("fra", "dev")], 2, (2400, 2600), (7, 9), 0.25, {}),
    "ties_unused_units": (14, "many-to-one", 20, [("tha", "dev")], 6, (2, 6), (2, 2), 0.0,
                          {"inventory": 4, "spread": 1, "tail_unit": True}),
    "shuffled_lines_30ms": (15, "many-to-one", 30, [("swa", "test"), ("tam", "test")], 12, (3, 25), (3, 12), 0.2,
                            {"shuffle": True}),
    "all_pairs": (16, "many-to-one", 20, [(x, s) for x in N_PHONEMES for s in ("dev", "test")], 3, (3, 20),
                  (2, 10), 0.2, {"train": True}),
}
DISCOPHON.update({f"random_{k}": (100 + k, "one-to-one" if k % 3 == 0 else "many-to-one", (10, 20, 20, 40)[k % 4],
                                  [(list(N_PHONEMES)[k % 12], ("dev", "test")[k % 2])], 6 + k % 5, (1, 25), (1, 12),
                                  0.1 * (k % 6), {"delta": [0, -1, 1], "sil_only": 0.1})
                  for k in range(24)})

# bad inputs: (base case, change): discophon raises, termeval names file, line and utterance
DISCOPHON_ERRORS = {
    "err_length": ("basic", "length"), "err_unit_range": ("basic", "unit_range"),
    "err_unit_range_o2o": ("one_to_one", "unit_range_o2o"), "err_empty_units": ("basic", "empty_units"),
    "err_missing_file": ("basic", "missing_file"), "err_extra_file": ("basic", "extra_file"),
    "err_gap": ("basic", "gap"), "err_not_from_zero": ("basic", "not_from_zero"), "err_off_grid": ("basic", "off_grid"),
    "err_too_many_phones": ("basic", "too_many_phones"), "err_duplicate_file": ("basic", "duplicate"),
    "err_unknown_language": ("basic", "unknown_language"), "err_null_unit": ("basic", "null_unit"),
}


def discophon_case(name: str) -> tuple[dict[str, str], dict]:
    """{relative path: text} of a case (dataset/..., predictions/...) and its options."""
    if name in DISCOPHON_ERRORS:
        base, change = DISCOPHON_ERRORS[name]
        files, opts = discophon_case(base)
        return _break(files, change, random.Random(name)), opts
    seed, kind, step, pairs, nfiles, nph, dur, noise, extra = DISCOPHON[name]
    rnd = random.Random(seed)
    files: dict[str, str] = {}
    for lang, split in pairs:
        n_inv = extra.get("inventory", N_PHONEMES[lang])
        inventory = PHONES[:n_inv]
        code = {p: i for i, p in enumerate(["SIL"] + PHONES)}
        n_units = 256 if kind == "many-to-one" else N_PHONEMES[lang] + 1
        rows, units = [], []
        for f in range(nfiles):
            fid = f"{lang}-{split}-{f:04d}"
            sil = rnd.random() < extra.get("sil_only", 0)
            iv = _file(rnd, fid, inventory, nph, dur, sil_only=sil)
            if extra.get("midpoints"):
                iv = _midpoint_file(rnd, fid, inventory, step)
            rows += iv
            frames = [p for _, a, b, p in iv for _ in range(b - a)]
            delta = extra.get("delta", [0])[f % len(extra.get("delta", [0]))]
            us = _units(rnd, frames, code, step // 10, n_units, noise, delta, extra.get("spread", 3))
            if extra.get("tail_unit"):
                us.append((len(inventory) + 7) % n_units)     # only in the trimmed tail: an all-zero column
            if extra.get("midpoints"):
                us = _midpoint_units(iv, step, code, n_units)
            units.append({"file": fid, "units": us})
        files[f"dataset/alignment/alignment-{lang}-{split}.txt"] = alignment_text(
            rows, random.Random(seed) if extra.get("shuffle") else None)
        files[f"predictions/units-{lang}-{split}.jsonl"] = "".join(json.dumps(u) + "\n" for u in units)
        if extra.get("train"):
            files[f"predictions/units-{lang}-train-10h.jsonl"] = json.dumps({"file": "x", "units": [1]}) + "\n"
    return files, {"kind": kind, "step_units": step}


def _midpoint_file(rnd: random.Random, fid: str, inventory: list[str], step: int) -> list[tuple[str, int, int, str]]:
    """Phones of 1-5 frames: gold boundaries 10-50 ms apart, whose windows are split at midpoints."""
    out, t, prev = [], 0, None
    for _ in range(rnd.randint(8, 30)):
        d = rnd.choice([1, 2, 3, 4, 5]) * (step // 10 if step > 10 else 1)
        p = rnd.choice([x for x in inventory[:6] if x != prev])
        out.append((fid, t, t + d, p))
        prev, t = p, t + d
    return out


def _midpoint_units(iv: list[tuple[str, int, int, str]], step: int, code: dict[str, int], n_units: int) -> list[int]:
    """One unit per phone, switching at the midpoint (in ms) between a boundary and the next
    when the grid allows it, or one frame after it: predictions exactly on and just past the split."""
    r = step // 10
    frames = [p for _, a, b, p in iv for _ in range(b - a)]
    n = (len(frames) + r - 1) // r
    bounds = [b for _, _, b, _ in iv[:-1]]
    switch = set()
    for k, b in enumerate(bounds):
        nxt = bounds[k + 1] if k + 1 < len(bounds) else b + 4
        mid_ms = (b * 10 + nxt * 10) // 2
        if mid_ms % step == 0:
            switch.add(mid_ms // step)
        switch.add(b * 10 // step + (k % 2))
    out, cur = [], 0
    for j in range(n):
        if j in switch:
            cur += 1
        out.append((cur * 5 + code[frames[min(j * r, len(frames) - 1)]]) % n_units)
    return out


def _break(files: dict[str, str], change: str, rnd: random.Random) -> dict[str, str]:
    files = dict(files)
    al = sorted(k for k in files if k.startswith("dataset/"))[0]
    un = al.replace("dataset/alignment/alignment-", "predictions/units-").replace(".txt", ".jsonl")
    lines = files[un].splitlines(keepends=True)
    rows = [json.loads(x) for x in lines]
    k = rnd.randrange(len(rows))
    gold = files[al].splitlines(keepends=True)
    if change == "length":
        rows[k]["units"] += rows[k]["units"][:2] + [1]
    elif change in ("unit_range", "unit_range_o2o"):
        rows[k]["units"][-1] = 256 if change == "unit_range" else 99
    elif change == "empty_units":
        rows[k]["units"] = []
    elif change == "missing_file":
        del rows[k]
    elif change == "extra_file":
        rows.append({"file": "zz-extra", "units": [1, 2, 3]})
    elif change == "duplicate":
        rows.append(dict(rows[k]))
    elif change == "null_unit":
        rows[k]["units"][0] = None
    elif change == "gap":
        f, a, b, p = gold[5].split()
        gold[5] = f"{f} {a} {float(b) + 0.01:.2f} {p}\n"
    elif change == "not_from_zero":
        f, a, b, p = gold[1].split()
        gold[1] = f"{f} 0.01 {b} {p}\n"
    elif change == "off_grid":
        f, a, b, p = gold[3].split()
        f2, a2, b2, p2 = gold[4].split()
        gold[3], gold[4] = f"{f} {a} {float(b) + 0.0025:.4f} {p}\n", f"{f2} {float(a2) + 0.0025:.4f} {b2} {p2}\n"
    elif change == "too_many_phones":
        for j in range(4, 8):    # four new phones inside the first file: one row too many
            f, a, b, p = gold[j].split()
            gold[j] = f"{f} {a} {b} X{j}\n"
    elif change == "unknown_language":
        files["predictions/units-xyz-dev.jsonl"] = files[un]
    if change in ("gap", "not_from_zero", "off_grid", "too_many_phones"):
        files[al] = "".join(gold)
    elif change != "unknown_language":
        files[un] = "".join(json.dumps(r) + "\n" for r in rows)
    return files


# fairseq: (seed, files, upsample, phones/file, frames/phone, noise, labels with tone digits, extra)
FAIRSEQ = {
    "fs_basic": (21, 12, 2, (3, 40), (2, 14), 0.2, False, {}),
    "fs_tones": (22, 12, 2, (3, 40), (2, 14), 0.2, True, {}),
    "fs_upsample1": (23, 10, 1, (3, 30), (1, 9), 0.15, False, {}),
    "fs_mismatch": (24, 14, 2, (3, 30), (2, 12), 0.2, True, {"delta": [-4, 5, 0, -1, 1, 9]}),
    "fs_missing_extra": (25, 12, 2, (3, 30), (2, 12), 0.2, False, {"missing": 3, "extra": 2}),
    "fs_long": (26, 3, 2, (2400, 2600), (7, 9), 0.25, True, {}),
    "fs_sil_only": (27, 10, 2, (1, 6), (3, 30), 0.2, False, {"sil_only": 0.4}),
}
FAIRSEQ.update({f"fs_random_{k}": (200 + k, 5 + k % 6, (1, 2, 2, 4)[k % 4], (1, 25), (1, 12), 0.1 * (k % 5),
                                   k % 2 == 0, {"delta": [0, -2, 3], "missing": k % 3, "extra": k % 2})
                for k in range(12)})


def fairseq_case(name: str) -> tuple[dict[str, str], dict]:
    """fairseq's inputs (fs/valid.tsv manifest, fs/valid.km labels, fs/phn/valid.tsv frame phones)
    and the same gold as a discophon alignment file (gold.txt), units as a Kaldi text archive
    (units.txt), with the upsample factor."""
    seed, nfiles, up, nph, dur, noise, tones, extra = FAIRSEQ[name]
    rnd = random.Random(seed)
    inventory = [p + (str(rnd.randint(1, 4)) if tones and p in "aeiou" else "") for p in PHONES[:12]]
    inventory += [p + str(t) for p in "aeiou" for t in (1, 2, 3, 4)] if tones else []
    code = {p: i for i, p in enumerate(["SIL"] + inventory)}
    rows, phn, lab, manifest, kaldi = [], [], [], ["/root"], []
    for f in range(nfiles):
        fid = f"spk{f % 3}-utt{f:04d}"
        iv = _file(rnd, fid, inventory, nph, dur, sil_only=rnd.random() < extra.get("sil_only", 0))
        rows += iv
        frames = [p for _, a, b, p in iv for _ in range(b - a)]
        delta = extra.get("delta", [0])[f % len(extra.get("delta", [0]))]
        us = _units(rnd, frames, code, up, 100, noise, delta)
        if f >= extra.get("missing", 0):                 # the first `missing` files have no units
            manifest.append(f"{fid}.flac\t{len(us) * 320}")
            lab.append(" ".join(map(str, us)))
            kaldi.append(f"{fid} " + " ".join(map(str, us)))
        phn.append(f"{fid}\t" + ",".join(frames))
    for e in range(extra.get("extra", 0)):             # units of utterances without gold
        us = [rnd.randrange(100) for _ in range(rnd.randint(3, 40))]
        manifest.append(f"extra{e}.flac\t{len(us) * 320}")
        lab.append(" ".join(map(str, us)))
        kaldi.append(f"extra{e} " + " ".join(map(str, us)))
    files = {"fs/valid.tsv": "\n".join(manifest) + "\n", "fs/valid.km": "\n".join(lab) + "\n",
             "fs/phn/valid.tsv": "\n".join(phn) + "\n", "gold.txt": alignment_text(rows),
             "units.txt": "\n".join(kaldi) + "\n"}
    return files, {"upsample": up, "frame_shift": up / 100}


def write(files: dict[str, str], root: str) -> None:
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def digest(files: dict[str, str]) -> str:
    """Identity of a case's inputs (a changed generator is caught, not compared)."""
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel].encode() + b"\0")
    return h.hexdigest()[:16]
