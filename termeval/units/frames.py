"""Gold phones as 10 ms frames, and the units of the same files beside them.

discophon compares units with gold phones on a 10 ms grid (STEP_PHONES): a phone lasting
k x 10 ms is k frames, and each unit of `step` ms is repeated step / 10 times. From a data
dir of steps/prepare_gold.sh (any format) the phones are put on that grid in one of two ways:

  error   (default, discophon's rule) every file's phones tile it from 0 on the 10 ms grid:
          the first starts at 0, each starts where the previous ends, each lasts a whole
          number (>= 1) of 10 ms frames; anything else is an error naming the line
  centre  frame i (i x 10 ms .. (i + 1) x 10 ms) takes the phone holding its centre; gaps
          are silence (`SIL`); the file has round(end / 10 ms) frames (ZeroSpeech .phn files
          at 2.5 ms offsets, TextGrids at any precision)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.datadir import load_gold
from termeval.core.errors import InputError

SIL = "SIL"


@dataclass
class GoldFrames:
    """Phone frames of every file: file i is phone[starts[i]:starts[i+1]] (codes into labels)."""
    files: list[str]
    labels: list[str]
    phone: np.ndarray          # int32 codes, files concatenated
    starts: np.ndarray         # int64, len(files) + 1
    first_line: np.ndarray     # int64, the source line of each file's first phone
    line_of: "LineMap"         # frame -> source line, for errors
    path: str
    speaker: list[str] | None = None    # of each file (a data dir's utt2spk)

    def index(self) -> dict[str, int]:
        return {f: i for i, f in enumerate(self.files)}

    def length(self) -> np.ndarray:
        return np.diff(self.starts)


@dataclass
class LineMap:
    """The source line of the interval holding a gold frame: intervals of `frames` frames each,
    in frame order, at `lines`."""
    frame_start: np.ndarray     # int64, first frame of each interval
    lines: np.ndarray           # int64

    def line(self, frame: int) -> int:
        return int(self.lines[int(np.searchsorted(self.frame_start, frame, side="right")) - 1])


def from_intervals(files: list[str], file: np.ndarray, on_cs: np.ndarray, off_cs: np.ndarray,
                   label: np.ndarray, labels: list[str], lines: np.ndarray, path: str) -> GoldFrames:
    """Frames of intervals already checked to tile their files (sorted by file then onset, times
    in whole 10 ms frames)."""
    dur = (off_cs - on_cs).astype(np.int64)
    phone = np.repeat(label.astype(np.int32), dur)
    frame_start = np.zeros(len(dur), np.int64)
    np.cumsum(dur[:-1], out=frame_start[1:])
    per_file = np.bincount(file, weights=dur, minlength=len(files)).astype(np.int64)
    starts = np.zeros(len(files) + 1, np.int64)
    np.cumsum(per_file, out=starts[1:])
    first = np.searchsorted(file, np.arange(len(files)))
    first_line = lines[np.minimum(first, len(lines) - 1)].astype(np.int64)
    return GoldFrames(files, labels, phone, starts, first_line, LineMap(frame_start, lines.astype(np.int64)), path)


def on_grid(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(centiseconds, whether each double is the one nearest to a whole number of 10 ms)."""
    cs = np.rint(t * 100.0)
    return cs.astype(np.int64), (cs / 100.0 == t)


def check_tiling(file: np.ndarray, on_cs: np.ndarray, off_cs: np.ndarray, fail) -> None:
    """Each file's intervals start at 0, each where the previous ends, each >= 1 frame;
    fail(i, message) raises for interval i."""
    new = np.r_[True, file[1:] != file[:-1]] if len(file) else np.zeros(0, bool)
    prev_off = np.r_[0, off_cs[:-1]] if len(file) else off_cs
    expected = np.where(new, 0, prev_off)
    bad = np.flatnonzero(on_cs != expected)
    short = np.flatnonzero(off_cs - on_cs < 1)
    first = min([int(x[0]) for x in (bad, short) if len(x)], default=None)
    if first is None:
        return
    if len(short) and first == int(short[0]):
        fail(first, "lasts less than one 10 ms frame (each phone lasts at least 10 ms)")
    elif new[first]:
        fail(first, f"the file's first phone starts at {on_cs[first] / 100:g} s, not 0 "
                    "(the phones must tile the file from 0)")
    else:
        fail(first, f"starts at {on_cs[first] / 100:g} s where the previous phone ends at "
                    f"{prev_off[first] / 100:g} s (the phones must tile the file without gap or overlap)")


def from_data_dir(data_dir: str, off_grid: str) -> GoldFrames:
    """The phones of a prepared data dir as 10 ms frames (`off_grid`: error or centre)."""
    gold = load_gold(data_dir, ("phones",))
    t = gold.phones
    path = f"{data_dir}/phones"
    lines = np.arange(1, len(t) + 1, dtype=np.int64)     # a prepared data dir: one interval a line
    if off_grid == "centre":
        out = _centre_frames(gold.files, t, lines, path)
        out.speaker = list(gold.speaker)
        return out
    on_cs, on_ok = on_grid(t.onset)
    off_cs, off_ok = on_grid(t.offset)
    bad = np.flatnonzero(~(on_ok & off_ok))
    if len(bad):
        i = int(bad[0])
        x = float(t.onset[i] if not on_ok[i] else t.offset[i])
        raise InputError(f"time {x!r} is not on the 10 ms grid the units are scored on (discophon's rule); "
                         "--off-grid centre labels each 10 ms frame by the phone at its centre", path, int(lines[i]))

    def fail(i: int, message: str) -> None:
        raise InputError(f"file '{gold.files[int(t.file[i])]}': phone {message}; --off-grid centre labels "
                         "each 10 ms frame by the phone at its centre (gaps as SIL)", path, int(lines[i]))
    check_tiling(t.file.astype(np.int64), on_cs, off_cs, fail)
    present = np.unique(t.file)
    if len(present) != len(gold.files):
        missing = sorted(set(range(len(gold.files))) - set(present.tolist()))
        raise InputError(f"file '{gold.files[missing[0]]}' has no phone", path)
    out = from_intervals(gold.files, t.file.astype(np.int64), on_cs, off_cs, t.label, list(t.labels), lines, path)
    out.speaker = list(gold.speaker)
    return out


def _centre_frames(files: list[str], t, lines: np.ndarray, path: str) -> GoldFrames:
    """Frame i of a file takes the interval holding (i + 0.5) x 10 ms; none: SIL."""
    labels = list(t.labels)
    sil = labels.index(SIL) if SIL in labels else len(labels)
    if sil == len(labels):
        labels.append(SIL)
    file = t.file.astype(np.int64)
    nf = len(files)
    last = np.full(nf, -1, np.int64)
    last[file] = np.arange(len(file))          # the last interval of each file (sorted by onset)
    if np.any(last < 0):
        raise InputError(f"file '{files[int(np.argmax(last < 0))]}' has no phone", path)
    n = np.rint(t.offset[last] * 100.0).astype(np.int64)
    starts = np.zeros(nf + 1, np.int64)
    np.cumsum(n, out=starts[1:])
    frame_file = np.repeat(np.arange(nf), n)
    centre = (np.arange(starts[-1]) - starts[frame_file] + 0.5) / 100.0
    # intervals of one file are sorted and do not overlap (prepare_gold): the last onset <= centre;
    # files laid end to end, 1 s apart, on one time axis
    base = starts[:-1] / 100.0 + np.arange(nf)
    pos = np.searchsorted(base[file] + t.onset, base[frame_file] + centre, side="right") - 1
    inside = (pos >= 0) & (file[np.maximum(pos, 0)] == frame_file) & (t.offset[np.maximum(pos, 0)] > centre)
    phone = np.where(inside, t.label[np.maximum(pos, 0)], sil).astype(np.int32)
    first_line = lines[np.searchsorted(file, np.arange(nf))]
    fs = np.flatnonzero(np.r_[True, (pos[1:] != pos[:-1]) | (frame_file[1:] != frame_file[:-1])]) \
        if len(pos) else np.zeros(0, np.int64)
    return GoldFrames(list(files), labels, phone, starts, first_line,
                      LineMap(fs, lines[np.clip(pos[fs], 0, len(lines) - 1)]), path)
