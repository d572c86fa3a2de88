"""The cases of tests/differential/cases.py written in each published tool's own input format
(what tests/differential/run_tools.py hands to the tool's code). numpy only, no termeval.

Two scripts add a searched systematic shift to one side before matching (jasonppy's
unit_analysis_boundary_only.py to the predictions, cheoljun95/sdhubert's
BoundaryDetectionEvaluator to the gold), and the best entry of their search is never exactly 0:
np.arange(-0.06, 0.031, 0.005)[12] and np.arange(-0.05, 0.05, 0.005)[10] are both
-2.7755575615628914e-17. A calibration utterance (cases.calibration) makes that entry the best,
and the shifted side is written as the preimages of the case's times (`preimage`: the double q
with q + shift == t), so that the script matches exactly the times termeval is given with no
shift (`seen`: the few times no preimage reaches are given to termeval as the script sees
them); the runner checks the shift the script chose.
"""
from __future__ import annotations

import functools
import json
import math
import os

import numpy as np

from tests.differential.cases import SIL, Case, Utt, sec

HARWATH_SHIFT = float(np.arange(-0.06, 0.031, 0.005)[12])
SDHUBERT_SHIFT = float(np.arange(-0.05, 0.05, 0.005)[10])
N_CLUSTERS = 5


def preimage(t: float, shift: float) -> float:
    """The double q nearest t - shift with q + shift == t (float64), so that a script adding
    `shift` sees t; t itself when no double does (t in [0.25, 0.5) with an odd last bit: t - 1 ulp
    / 2 always rounds to an even neighbour): the script then sees seen(t, shift) = t + shift."""
    q = t - shift
    for _ in range(4):
        if q + shift == t:
            return q
        q = math.nextafter(q, math.inf if q + shift < t else -math.inf)
    return t


def seen(t: float, shift: float) -> float:
    """The time a script adding `shift` to preimage(t) works with (t, or its neighbour)."""
    return preimage(t, shift) + shift


def _alignment(rows: list[tuple[int, int, str]]) -> str:
    return " ".join(f"{sec(a)}__{lab}__{sec(b)}" for a, b, lab in rows)


def harwath(case: Case, d: str) -> dict:
    """data.json (SpokenCOCO-style items: wav, text_alignment, phone_alignment without silence)
    and exp/data_dict.pkl (word_boundaries: the predicted segments, as preimages of the shift)."""
    import pickle
    os.makedirs(os.path.join(d, "exp"), exist_ok=True)
    items, dd = [], {}
    for u in case.utts:
        items.append({"wav": u.name, "text_alignment": _alignment(u.words),
                      "phone_alignment": _alignment([p for p in u.phones if p[2] != SIL])})
        seg = [[preimage(a / 1000, HARWATH_SHIFT), preimage(b / 1000, HARWATH_SHIFT)] for a, b, _ in u.pred]
        dd[u.name] = {"word_boundaries": np.asarray(seg, dtype=np.float64).reshape(-1, 2)}
    with open(os.path.join(d, "data.json"), "w") as f:
        json.dump({"data": items}, f)
    with open(os.path.join(d, "exp", "data_dict.pkl"), "wb") as f:
        pickle.dump(dd, f)
    level = {"word": "text", "phone": "phone"}[case.params["level"]]
    return {"data_json": os.path.join(d, "data.json"), "exp_dir": os.path.join(d, "exp"), "level": level,
            "tolerance": case.params["tolerance_ms"] / 1000, "shift": HARWATH_SHIFT}


def features(labels: list[str]) -> np.ndarray:
    """Segment features whose nearest one-hot centre (and argmax) is the cluster's index."""
    k = np.array([int(x[1:]) for x in labels], dtype=np.int64)
    noise = (np.arange(len(k) * N_CLUSTERS).reshape(-1, N_CLUSTERS) * 37 % 11) / 110.0
    return np.eye(N_CLUSTERS)[k] + noise if len(k) else np.zeros((0, N_CLUSTERS))


def _syllable_json(utts: list[Utt], shift: float | None) -> dict:
    t = (lambda ms: ms / 1000) if shift is None else (lambda ms: preimage(ms / 1000, shift))
    return {u.name: {"file_name": f"{u.name}.flac",
                     "syllables": [{"start": t(a), "end": t(b), "label": lab} for a, b, lab in u.syllables]}
            for u in utts}


def _npy(u: Utt, d: str) -> None:
    seg = np.asarray([[a / 1000, b / 1000] for a, b, _ in u.pred], dtype=np.float64).reshape(-1, 2)
    labels = [lab for _, _, lab in u.pred]
    np.save(os.path.join(d, f"{u.name}.npy"),
            {"segments": seg, "segment_features": features(labels),
             "units": np.array([int(x[1:]) for x in labels], dtype=np.int64)}, allow_pickle=True)


def sdhubert(case: Case, d: str) -> dict:
    """segments/<utt>.npy ({segments, segment_features, units}), test.json (syllables as written),
    test_shifted.json (their preimages under the evaluator's shift), val.json (the calibration
    utterance that pins the shift search; its segments in the same directory)."""
    from tests.differential.cases import calibration
    seg = os.path.join(d, "segments")
    os.makedirs(seg, exist_ok=True)
    cal = calibration("cal", case.params["tolerance_ms"], onsets_only=True)
    for u in case.utts + [cal]:
        _npy(u, seg)
    paths = {}
    for name, utts, shift in (("test", case.utts, None), ("test_shifted", case.utts, SDHUBERT_SHIFT),
                              ("val", [cal], SDHUBERT_SHIFT)):
        paths[name] = os.path.join(d, f"{name}.json")
        with open(paths[name], "w") as f:
            json.dump(_syllable_json(utts, shift), f)
    return {"segments": seg, **paths, "shift": SDHUBERT_SHIFT, "clusters": N_CLUSTERS}


def discophon(case: Case, d: str) -> dict:
    """alignment.txt (`#file onset offset #phone`, the phones tiling each file, SIL included) and
    units.jsonl ({"file", "units"})."""
    with open(os.path.join(d, "alignment.txt"), "w") as f:
        f.write("#file onset offset #phone\n")
        for u in case.utts:
            f.writelines(f"{u.name} {sec(a)} {sec(b)} {lab}\n" for a, b, lab in u.phones)
    with open(os.path.join(d, "units.jsonl"), "w") as f:
        f.writelines(json.dumps({"file": u.name, "units": u.units}) + "\n" for u in case.utts)
    return {"alignment": os.path.join(d, "alignment.txt"), "units": os.path.join(d, "units.jsonl"),
            "step_units": case.params["step_ms"], "margins": case.params["margins_ms"]}


def textgrid(u: Utt) -> str:
    """A Praat TextGrid (long text format) with the words tier tiling [0, dur] (empty marks in
    the gaps) and the phones tier."""
    def tier(name: str, rows: list[tuple[int, int, str]]) -> list[str]:
        full, t = [], 0
        for a, b, lab in rows:
            if a > t:
                full.append((t, a, ""))
            full.append((a, b, "" if lab == SIL else lab))
            t = b
        if t < u.dur or not full:
            full.append((t, u.dur, ""))
        out = ['        class = "IntervalTier"', f'        name = "{name}"', "        xmin = 0",
               f"        xmax = {sec(u.dur)}", f"        intervals: size = {len(full)}"]
        for i, (a, b, lab) in enumerate(full, 1):
            out += [f"        intervals [{i}]:", f"            xmin = {sec(a)}", f"            xmax = {sec(b)}",
                    f'            text = "{lab}"']
        return out
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {sec(u.dur)}",
             "tiers? <exists>", "size = 2", "item []:", "    item [1]:"] + tier("words", u.words) + \
        ["    item [2]:"] + tier("phones", u.phones)
    return "\n".join(lines) + "\n"


def malan(case: Case, d: str) -> dict:
    """disc/<utt>.list (`<end seconds> <cluster>` per segment, from 0) and gold/<utt>.TextGrid."""
    for sub in ("disc", "gold"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    for u in case.utts:
        with open(os.path.join(d, "disc", f"{u.name}.list"), "w") as f:
            f.writelines(f"{sec(b)} {lab}\n" for _, b, lab in u.pred)
        with open(os.path.join(d, "gold", f"{u.name}.TextGrid"), "w") as f:
            f.write(textgrid(u))
    return {"disc": os.path.join(d, "disc"), "gold": os.path.join(d, "gold"),
            "frames_per_ms": case.params["frame_ms"], "tolerance": case.params["tolerance_frames"]}


def unsupseg(case: Case, d: str) -> dict:
    """Per utterance the gold boundary frames (every interval end but the last, as the .phn
    reader), the peak frames and the number of frames."""
    rows = []
    for u in case.utts:
        gold = [b // case.params["frame_ms"] for _, b, _ in u.phones[:-1]]
        rows.append({"gold": gold, "peaks": u.units, "n": u.dur // case.params["frame_ms"]})
    return {"utterances": rows, "prominence": case.params["prominence"]}


def wordseg(case: Case, d: str) -> dict:
    return {k: case.params[k] for k in ("gold", "seg", "prep")}


def vqwordseg(case: Case, d: str) -> dict:
    """The corpus of local/make_segmentation.py vqwordseg (seed, utts), in its vqwordseg/ layout."""
    make_vqwordseg(case, d)
    return {"root": os.path.join(d, "vqwordseg"), "tolerance": case.params["tolerance_frames"]}


def make_vqwordseg(case: Case, d: str) -> None:
    import argparse
    _make_segmentation().vqwordseg(argparse.Namespace(out_dir=d, seed=case.seed, utts=case.params["utts"]))


@functools.cache
def _make_segmentation():
    """local/make_segmentation.py as a module (loaded once)."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "local", "make_segmentation.py")
    spec = importlib.util.spec_from_file_location("make_segmentation", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


WRITERS = {"harwath": harwath, "sdhubert": sdhubert, "discophon": discophon, "malan": malan,
           "unsupseg": unsupseg, "wordseg": wordseg, "vqwordseg": vqwordseg}
