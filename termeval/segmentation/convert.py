"""Segmentations as papers' code writes them -> the interval file steps/score_segmentation.sh
reads, `<utt> <onset> <offset> [<cluster>]` (seconds from the utterance start, one line a
segment, sorted by utterance then onset). One reader per format (utils/convert_segments.sh
--from ...):

  malan-list    s-malan/evaluation: a directory of per-utterance `<utt>.list` files (searched
                recursively; a single .list file also works), one `<end seconds> [<label>]` line
                a segment; the first segment starts at 0, every other at the previous end (as
                its clust_eval.py reads them). Either every line of a file has a label or none.
                The times are written as they are in the file (no rounding).
  sdhubert-npy  cheoljun95/sdhubert: a directory of per-utterance `<utt>.npy` files (recursive),
                each np.save of a dict with `segments` ((n, 2) seconds) and `segment_features`
                ((n, D)). np.save pickles a dict, so reading one runs pickle: refused unless
                --allow-pickle true, and even then only numpy arrays, dtypes and plain Python
                values are unpickled (any other global in the file is an error). SD-HuBERT
                clusters segments with a k-means model (a joblib pickle, not read here): give its
                centres as a plain (K, D) .npy (`km.cluster_centers_`) with --centroids, and its
                reducer (a K-vector of ints) with --reducer, and each segment is labelled by the
                nearest centre (squared Euclidean distance, the lowest index on ties), mapped
                through the reducer; without --centroids the segments carry no label. A plain
                (non-object) (n, 2) array is read as the segments, without pickle.
  units         one utterance a line, `<utt> <u1> <u2> ...`: unit k covers frames
                [k, k+1) of --frame-shift seconds; a segment is a run of equal units, so a
                boundary falls wherever the unit changes; its label is the unit. Times are
                k * frame_shift rounded to 9 decimals (1 ns).

Bad input is a one-line error naming the file (and line): a duplicate utterance, a time that
is not a finite number, ends that do not increase, a segment array of the wrong shape, too many
files (MAX_FILES) or a file too large (MAX_NPY_BYTES).

Examples
--------
>>> runs_of(["a", "a", "b", "b", "b", "a"])
([0, 2, 5], [2, 5, 6], ['a', 'b', 'a'])
"""
from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path
from typing import Iterator

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import fmt_time, iter_lines, parse_float
from termeval.segmentation.options import CONVERT_FORMATS

FORMATS = CONVERT_FORMATS
MAX_FILES = 5_000_000               # per-utterance files read at most
MAX_NPY_BYTES = 1 << 31             # one .npy at most 2 GiB
TIME_DECIMALS = 9                   # units: k * frame_shift rounded to 1 ns


def _files(path: str, ext: str) -> list[tuple[str, str]]:
    """(utterance id, path) of every *ext file under `path` (or `path` itself), sorted by id;
    a duplicate id is an error."""
    if os.path.isfile(path):
        found = [path] if path.endswith(ext) else []
    elif os.path.isdir(path):
        found = []
        for p in Path(path).rglob("*" + ext):
            found.append(str(p))
            if len(found) > MAX_FILES:
                raise InputError(f"more than {MAX_FILES} {ext} files", path)
    else:
        raise InputError("no such file or directory", path)
    if not found:
        raise InputError(f"no {ext} files here", path)
    seen: dict[str, str] = {}
    for p in found:
        utt = os.path.basename(p)[: -len(ext)]
        if not utt or any(c.isspace() for c in utt):
            raise InputError("the file name (the utterance id) is empty or holds whitespace", p)
        if utt in seen:
            raise InputError(f"utterance '{utt}' also comes from {seen[utt]}", p)
        seen[utt] = p
    return sorted(seen.items())


def _time(text: str, path: str, line: int) -> float:
    return parse_float(text, path, line, "time")


def read_malan_lists(path: str) -> Iterator[str]:
    """The interval lines of s-malan's .list files (module doc)."""
    for utt, p in _files(path, ".list"):
        start, prev, labelled = "0", 0.0, None
        for n, line in iter_lines(p):
            fields = line.split()
            if not fields:
                continue
            if len(fields) > 2:
                raise InputError("expected '<end seconds> [<label>]'", p, n)
            if labelled is not None and labelled != (len(fields) == 2):
                raise InputError("either every line has a label or none has", p, n)
            labelled = len(fields) == 2
            end = _time(fields[0], p, n)
            if end <= prev:
                raise InputError(f"end {fields[0]} is not after the previous end {start}", p, n)
            yield " ".join([utt, start, fields[0]] + fields[1:]) + "\n"
            start, prev = fields[0], end


def runs_of(units: list[str]) -> tuple[list[int], list[int], list[str]]:
    """(first frame, end frame, unit) of each run of equal units."""
    a = np.asarray(units, dtype=object)
    heads = np.concatenate(([0], np.flatnonzero(a[1:] != a[:-1]) + 1)).astype(np.int64) if len(a) else \
        np.zeros(0, dtype=np.int64)
    ends = np.append(heads[1:], len(a))
    return heads.tolist(), ends.tolist(), [str(x) for x in a[heads]]


def read_units(path: str, frame_shift: float) -> Iterator[str]:
    """The interval lines of a unit-sequence file (module doc)."""
    if not os.path.isfile(path):
        raise InputError("no such file", path)
    seen: dict[str, int] = {}
    for n, line in iter_lines(path):
        fields = line.split()
        if not fields:
            continue
        utt = fields[0]
        if utt in seen:
            raise InputError(f"utterance '{utt}' already on line {seen[utt]}", path, n)
        seen[utt] = n
        heads, ends, labels = runs_of(fields[1:])
        on = np.round(np.asarray(heads, dtype=np.float64) * frame_shift, TIME_DECIMALS)
        off = np.round(np.asarray(ends, dtype=np.float64) * frame_shift, TIME_DECIMALS)
        yield "".join(f"{utt} {fmt_time(a)} {fmt_time(b)} {lab}\n" for a, b, lab in zip(on.tolist(), off.tolist(), labels))


class _NumpyOnly(pickle.Unpickler):
    """Unpickles numpy arrays, dtypes, scalars and plain Python values only."""
    ALLOWED = {(m, n) for m in ("numpy.core.multiarray", "numpy._core.multiarray") for n in ("_reconstruct", "scalar")} | \
        {("numpy", "ndarray"), ("numpy", "dtype")}

    def find_class(self, module: str, name: str):
        if (module, name) in self.ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"global '{module}.{name}' is not a numpy array part")


def load_npy(path: str, allow_pickle: bool) -> object:
    """The content of a .npy file: a plain array read without pickle, or (allow_pickle) the
    object array's single item unpickled by _NumpyOnly."""
    if os.path.getsize(path) > MAX_NPY_BYTES:
        raise InputError(f"larger than {MAX_NPY_BYTES >> 30} GiB", path)
    with open(path, "rb") as f:
        try:
            version = np.lib.format.read_magic(f)
            header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, _, dtype = header(f)
        except ValueError as e:
            raise InputError(f"not a .npy file ({str(e)[:60]})", path) from None
        if not dtype.hasobject:
            f.seek(0)
            return np.load(f, allow_pickle=False)
        if not allow_pickle:
            raise InputError("holds a pickled object (SD-HuBERT's np.save of a dict): reading it runs pickle; "
                             "pass --allow-pickle true for files you trust", path)
        try:
            obj = _NumpyOnly(f).load()
        except Exception as e:      # a broken or foreign pickle: one line, whatever it raised
            raise InputError(f"cannot unpickle ({type(e).__name__}: {str(e)[:80]})", path) from None
    return obj.item() if isinstance(obj, np.ndarray) and obj.shape == () else obj


def _matrix(x: object, what: str, path: str, cols: int | None = None) -> np.ndarray:
    """x as a finite 2-d float array (with `cols` columns), else an error naming `what`."""
    a = np.asarray(x) if isinstance(x, np.ndarray) else None
    if a is None or a.ndim != 2 or (cols is not None and a.shape[1] != cols) or a.dtype.kind not in "fiu":
        shape = "none" if a is None else f"{a.dtype} {a.shape}"
        raise InputError(f"'{what}' must be a numeric (n, {cols or 'D'}) array, got {shape}", path)
    a = a.astype(np.float64)
    if not np.isfinite(a).all():
        raise InputError(f"'{what}' holds a value that is not a finite number", path)
    return a


def nearest_centroid(features: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Index of the nearest centre (squared Euclidean distance; the lowest index on ties) of
    each row, as k-means' predict; rows in blocks (bounded memory)."""
    c2 = np.einsum("kd,kd->k", centroids, centroids)
    out = np.empty(len(features), dtype=np.int64)
    step = max(1, 4_000_000 // max(len(centroids), 1))
    for a in range(0, len(features), step):
        x = features[a:a + step]
        d = c2[None, :] - 2.0 * (x @ centroids.T)          # + |x|^2, the same for every centre
        out[a:a + step] = np.argmin(d, axis=1)
    return out


def read_sdhubert_npy(path: str, allow_pickle: bool, centroids: str | None = None,
                      reducer: str | None = None) -> Iterator[str]:
    """The interval lines of SD-HuBERT's per-utterance .npy files (module doc)."""
    cent = _matrix(load_npy(centroids, False), "centroids", centroids) if centroids else None
    red = np.asarray(load_npy(reducer, False)) if reducer else None
    if red is not None and (red.ndim != 1 or red.dtype.kind not in "iu" or (cent is not None and len(red) != len(cent))):
        raise InputError(f"the reducer must be a vector of {len(cent) if cent is not None else 'K'} integers, "
                         f"got {red.dtype} {red.shape}", reducer)
    for utt, p in _files(path, ".npy"):
        obj = load_npy(p, allow_pickle)
        d = obj if isinstance(obj, dict) else {"segments": obj}
        if "segments" not in d:
            raise InputError(f"no 'segments' in the file (keys: {', '.join(map(str, d))[:80]})", p)
        seg = _matrix(d["segments"], "segments", p, 2)
        bad = (seg[:, 0] < 0) | (seg[:, 1] < seg[:, 0])
        if bad.any():
            raise InputError(f"segment {int(np.argmax(bad))}: onset must be >= 0 and not after the offset", p)
        labels = None
        if cent is not None:
            if "segment_features" not in d:
                raise InputError("no 'segment_features' to label with --centroids", p)
            feats = _matrix(d["segment_features"], "segment_features", p, cent.shape[1])
            if len(feats) != len(seg):
                raise InputError(f"{len(seg)} segments but {len(feats)} segment_features", p)
            k = nearest_centroid(feats, cent)
            labels = (red[k] if red is not None else k).tolist()
        yield "".join(f"{utt} {fmt_time(a)} {fmt_time(b)}" + ("" if labels is None else f" {labels[i]}") + "\n"
                      for i, (a, b) in enumerate(seg.tolist()))


def convert_lines(source_format: str, path: str, frame_shift: float | None = None, allow_pickle: bool = False,
                  centroids: str | None = None, reducer: str | None = None) -> Iterator[str]:
    """The interval file's text (chunks) of the segmentation `path` written in `source_format`."""
    if source_format == "malan-list":
        return read_malan_lists(path)
    if source_format == "units":
        if frame_shift is None:
            raise InputError("--from units needs --frame-shift (seconds per unit)")
        return read_units(path, frame_shift)
    return read_sdhubert_npy(path, allow_pickle, centroids, reducer)


# ----------------------------------------------------------------------------- the step (termeval/steps)

def run(opts, run_task) -> dict:
    """convert_segments on its ConvertSegmentsOptions: the interval file written whole through
    the driver's `run_task`; {"segments": lines written, "output": path}."""
    chunks = convert_lines(opts.source_format, opts.source, opts.frame_shift, opts.allow_pickle, opts.centroids,
                           opts.reducer)
    out_root, name = os.path.split(os.path.abspath(opts.output))

    def write(tmp: str) -> int:
        n = 0
        with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="\n") as f:
            for text in chunks:
                f.write(text)
                n += text.count("\n")
        return n

    return {"segments": run_task("convert_segments", out_root, [name], write, inputs=opts.paths("input")),
            "output": opts.output}


def show(opts, res: dict) -> None:
    print(f"convert_segments: {res['segments']} segments ({opts.source_format}) -> {opts.output}", file=sys.stderr)
