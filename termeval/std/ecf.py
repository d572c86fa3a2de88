"""ECF (Experiment Control File) reader: the audio excerpts that were searched.

Accepts the three dialects (F4DE/KWS, STDEval 2006, MediaEval SWS/QUESST; docs/std.md §1.1): only
`excerpt` elements with `audio_filename`, `channel`, `tbeg`, `dur` (and optional
`source_type`) are used. File ids are normalised with `file_id` (directory and audio
extension stripped) on every input, so `docA.wav` in an ECF matches `docA` in a detection list.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import numpy as np

from termeval.core.errors import InputError
from termeval.std.perlhash import perl_keys
from termeval.std import xmlsafe
from termeval.std.align import grouped_rank

AUDIO_EXTENSIONS = {"sph", "wav", "flac", "mp3", "ogg", "opus", "m4a", "aac", "raw", "pcm", "au",
                    "aif", "aiff", "nist", "wv"}


def file_id(name: str) -> str:
    """Normalised file id: basename without an audio extension ('a/b/docA.wav' -> 'docA')."""
    base = os.path.basename(name.strip())
    stem, dot, ext = base.rpartition(".")
    if dot and stem and ext.lower() in AUDIO_EXTENSIONS:
        return stem
    return base


INT32 = (-2 ** 31, 2 ** 31 - 1)


def channel_number(text: str, lineno: int | None = None, path: str | None = None) -> int:
    """A channel attribute/field as an int32 (channels are stored as int32 arrays)."""
    try:
        ch = int(text)
    except (TypeError, ValueError):
        raise InputError(f"channel '{xmlsafe.clip(text)}' is not an integer", path, lineno) from None
    if not INT32[0] <= ch <= INT32[1]:
        raise InputError(f"channel {xmlsafe.clip(text)} is out of the int32 range", path, lineno)
    return ch


def round4(x):
    """F4DE's `sprintf("%.4f", x)` read back as a double, exactly.

    Vectorised as rint(x * 1e4) / 1e4 (half to even, like printf on an exact tie); the
    product is rounded, so values within a few ulps of a half-way point are redone with
    Python's correctly rounded '%.4f'.
    """
    x = np.asarray(x, dtype=np.float64)
    y = x * 1e4
    r = np.rint(y) / 1e4
    with np.errstate(invalid="ignore"):
        near = np.abs(np.abs(y - np.floor(y)) - 0.5) <= np.abs(y) * 2.0 ** -49 + 1e-300
    if np.any(near):
        flat, xf = r.reshape(-1), x.reshape(-1)
        for i in np.flatnonzero(near.reshape(-1)):
            flat[i] = float("%.4f" % xf[i])
        r = flat.reshape(x.shape)
    return r


@dataclass
class Ecf:
    """Excerpts as parallel arrays (one row per excerpt, file order).

    file: object array of normalised file ids; channel: int32; tbeg, dur: float64;
    tend: float64 = round4(tbeg + dur) (F4DE rounds excerpt ends); source_type: object array.
    """
    file: np.ndarray
    channel: np.ndarray
    tbeg: np.ndarray
    dur: np.ndarray
    tend: np.ndarray
    source_type: np.ndarray
    path: str = ""
    attrs: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.file)

    def subset(self, mask: np.ndarray) -> "Ecf":
        return Ecf(self.file[mask], self.channel[mask], self.tbeg[mask], self.dur[mask],
                   self.tend[mask], self.source_type[mask], self.path, self.attrs)

    def total_duration(self, rule: str = "union", buckets: int = 8) -> float:
        """T_audio in seconds. Excerpts are grouped by file (channel ignored, as F4DE does).

        rule='union': overlapping excerpts of a file are merged (their union is counted);
        rule='f4de': F4DE KWSecf::calcTotalDur: excerpts sorted by (tbeg, tend), each one's
        end cut at the next excerpt's start when that starts earlier; 'splitcts' counts half;
        summed file after file in the order of its `my %excerpts` (starting with `buckets`).
        """
        if len(self) == 0:
            return 0.0
        order = np.lexsort((self.tend, self.tbeg, self.file.astype(str)))
        f = self.file[order]
        b = self.tbeg[order]
        e = self.tend[order]
        same_next = np.zeros(len(f), dtype=bool)
        same_next[:-1] = f[1:] == f[:-1]
        if rule == "f4de":
            nb = np.empty_like(b)
            nb[:-1] = b[1:]
            nb[-1] = np.inf
            end = np.where(same_next & (nb < e), nb, e)
            w = np.where(self.source_type[order] == "splitcts", 0.5, 1.0)
            parts = ((end - b) * w).tolist()
            # summed one by one as F4DE does: the files in its hash's order (`keys %excerpts`,
            # stored in ECF order), each file's excerpts by begin
            by_file: dict = {}
            for k, fid in enumerate(f.tolist()):
                by_file.setdefault(fid, []).append(parts[k])
            total = 0.0
            for fid in perl_keys([str(x) for x in dict.fromkeys(self.file.tolist())], buckets=buckets):
                for v in by_file[fid]:
                    total += v
            return total
        # union per file: running max of ends within a file
        total = 0.0
        starts = np.flatnonzero(np.r_[True, ~same_next[:-1]])
        stops = np.r_[starts[1:], len(f)]
        for s0, s1 in zip(starts, stops):
            bb, ee = b[s0:s1], e[s0:s1]
            cm = np.maximum.accumulate(ee)
            prev = np.r_[-np.inf, cm[:-1]]
            total += float(np.sum(np.clip(ee - np.maximum(bb, prev), 0, None)))
        return total


def read_ecf(path: str) -> Ecf:
    """Read an ECF XML file (any dialect). Negative or non-numeric times are input errors."""
    files, chans, tbegs, durs, types = [], [], [], [], []
    root: list[str] = []
    attrs: dict = {}

    def start(tag: str, a: dict) -> None:
        if not root:
            root.append(tag)
            if tag != "ecf":
                raise InputError(f"expected an <ecf> root element, found <{xmlsafe.clip(tag)}>")
            attrs.update(a)
            return
        if tag != "excerpt":
            return
        if "audio_filename" not in a or "dur" not in a:
            raise InputError("<excerpt> needs audio_filename and dur attributes")
        tb = _num(a.get("tbeg", "0"), "tbeg")
        du = _num(a["dur"], "dur")
        if tb < 0 or du < 0:
            raise InputError(f"negative excerpt time (tbeg={xmlsafe.clip(a.get('tbeg'))}, dur={xmlsafe.clip(a['dur'])})")
        if not math.isfinite(tb + du):
            raise InputError(f"excerpt end tbeg + dur is too large (tbeg={xmlsafe.clip(a.get('tbeg'))}, "
                             f"dur={xmlsafe.clip(a['dur'])})")
        ch = channel_number(a.get("channel", "1"))
        files.append(file_id(a["audio_filename"]))
        chans.append(ch)
        tbegs.append(tb)
        durs.append(du)
        types.append(a.get("source_type", ""))

    xmlsafe.parse(path, start)
    if not root:
        raise InputError("empty ECF", path)
    tb = np.asarray(tbegs, dtype=np.float64)
    du = np.asarray(durs, dtype=np.float64)
    return Ecf(np.asarray(files, dtype=object), np.asarray(chans, dtype=np.int32), tb, du,
               round4(tb + du), np.asarray(types, dtype=object), path, attrs)


def ecf_from_durations(durations: dict[str, float], path: str = "") -> Ecf:
    """An ECF with one channel-1 excerpt [0, dur] per file (Kaldi utt2dur / reco2dur)."""
    names = list(durations)
    du = np.asarray([durations[n] for n in names], dtype=np.float64)
    tb = np.zeros(len(names))
    return Ecf(np.asarray([file_id(n) for n in names], dtype=object), np.ones(len(names), np.int32),
               tb, du, round4(du), np.asarray([""] * len(names), dtype=object), path, {})


def _num(text: str, what: str) -> float:
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise InputError(f"{what} '{xmlsafe.clip(text)}' is not a number") from None
    if not math.isfinite(v):
        raise InputError(f"{what} '{xmlsafe.clip(text)}' is not a finite number")
    return v


def in_ecf(ecf_key: np.ndarray, ecf_tbeg: np.ndarray, ecf_tend: np.ndarray, key: np.ndarray,
           beg: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Boolean mask: [beg, end] lies inside some excerpt with the same (file, channel) key.

    F4DE's belongsInECF (beg >= excerpt.tbeg and end <= excerpt.tend, tend rounded to 4
    decimals), vectorised: with excerpts sorted by start, the test is
    max(tend of the excerpts with tbeg <= beg) >= end, a prefix maximum per key. Keys are
    integers (e.g. file_code * n_channels + channel); items whose key is not in the ECF are
    outside. No tolerance, as in F4DE: pass `end` = tbeg + dur in doubles, unrounded (a
    detection ending at 387.29200000000003 is outside an excerpt ending at 387.2920).
    """
    n = len(key)
    out = np.zeros(n, dtype=bool)
    m = len(ecf_key)
    if n == 0 or m == 0:
        return out
    order = np.lexsort((ecf_tbeg, ecf_key))
    ek_s, tb_s, te_s = ecf_key[order], ecf_tbeg[order], ecf_tend[order].astype(np.float64)
    bounds = np.flatnonzero(np.r_[True, ek_s[1:] != ek_s[:-1], True])
    if len(bounds) - 1 < m:  # some key has several excerpts: prefix max of tend per key
        for s0, s1 in zip(bounds[:-1], bounds[1:]):
            if s1 - s0 > 1:
                te_s[s0:s1] = np.maximum.accumulate(te_s[s0:s1])
    last = grouped_rank(ek_s, tb_s, key, beg, side="right") - 1
    j = np.maximum(last, 0)
    return (last >= 0) & (ek_s[j] == key) & (te_s[j] >= end)
