"""Fragment -> phone transcription, the tdev2 rule (tde-spec §3.2), vectorised.

tdev2 (`Disc.get_transcription` + `tde.utils.check_boundary`) takes the phones p = [a, b)
with a < e and b > s (strict, half-open interval-tree overlap), sorted by onset, keeps every
middle phone unconditionally, and keeps the first and the last phone iff

    round(b - a, 3) >= 0.060  (Python round)  ->  np.round(o, 3) >= 0.030   (numpy round)
    otherwise                                  ->  o / (b - a) >= 0.5         (not rounded)

with o = min(e, b) - max(s, a). Python rounds the decimal value of the double (banker's
rounding on the binary value); numpy rounds x * 1000 with rint. Both are reproduced
bit for bit: the Python one through the exact threshold below, the numpy one by calling the
same numpy routine on arrays (identical to the scalar `round(np.float64, 3)` it uses).

Phones of a file are sorted and do not overlap, so the kept phones of a fragment are a
contiguous index range [k0, k1) of the phone arrays; k1 <= k0 means an empty transcription
(tdev2 silently drops such fragments; we count and list them).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.datadir import Gold, file_starts
from termeval.core.errors import InputError
from termeval.core.intervals import search

# Smallest double d with Python round(d, 3) >= 0.06 (0.0595 itself is 0.05949999... in binary).
LONG_PHONE = 0.059500000000000004
MIN_TIME = 0.030
MIN_FRACTION = 0.5

SIL = "SIL"
NON_SPEECH_COVERAGE = ("SIL", "SPN")   # labels tdev2 leaves out of coverage

# reasons a fragment gets no transcription (written to details/discarded)
NO_PHONE = "no_phone_overlaps"          # in an unaligned region or past the end of the file
BELOW_RULE = "no_phone_passes_30ms_50pct_rule"


@dataclass
class Phones:
    """Phone arrays of a gold data dir, as tdev2 sees them (exact duplicates collapsed)."""
    file: np.ndarray      # int32 file index
    onset: np.ndarray     # float64
    offset: np.ndarray    # float64
    label: np.ndarray     # int32 index into labels
    labels: list[str]
    starts: np.ndarray    # phones of file f are starts[f]:starts[f+1]
    sil: int              # label index of SIL or -1

    def __len__(self) -> int:
        return len(self.label)      # (a job's Phones has labels only: Corpus.labels_only)


def load_phones(gold: Gold) -> Phones:
    """Phone arrays from `gold`; exact duplicate lines collapsed (tdev2 uses sets).

    Overlapping phones inside a file make the tdev2 rule depend on interval-tree order,
    so they are an error (no real ZeroSpeech alignment has them).
    """
    t = gold.phones
    f, on, off, lab = t.file, t.onset, t.offset, t.label
    if len(on) and not strictly_sorted(f, on):     # data dirs come sorted: no sort then
        order = np.lexsort((lab, off, on, f))
        f, on, off, lab = f[order], on[order], off[order], lab[order]
    if len(on):
        dup = np.zeros(len(on), dtype=bool)
        dup[1:] = (f[1:] == f[:-1]) & (on[1:] == on[:-1]) & (off[1:] == off[:-1]) & (lab[1:] == lab[:-1])
        if dup.any():
            keep = ~dup
            f, on, off, lab = f[keep], on[keep], off[keep], lab[keep]
        bad = np.flatnonzero((f[1:] == f[:-1]) & (on[1:] < off[:-1]))
        if len(bad):
            i = int(bad[0])
            raise InputError(
                f"phones overlap in file {gold.files[f[i]]} ({on[i]!r}-{off[i]!r} and "
                f"{on[i + 1]!r}-{off[i + 1]!r}): the tdev2 transcription is undefined there",
                gold.path + "/phones")
        if np.any(off <= on):
            i = int(np.flatnonzero(off <= on)[0])
            raise InputError(f"phone with offset <= onset in file {gold.files[f[i]]} at {on[i]!r}",
                             gold.path + "/phones")
    starts = file_starts(f, len(gold.files))
    # no copy of arrays that have the right type already (the gold's own, shared read-only)
    return Phones(file=f.astype(np.int32, copy=False), onset=on.astype(np.float64, copy=False),
                  offset=off.astype(np.float64, copy=False), label=lab.astype(np.int32, copy=False),
                  labels=list(t.labels), starts=starts,
                  sil=t.label_index(SIL))


def strictly_sorted(f: np.ndarray, on: np.ndarray) -> bool:
    """Sorted by file, then strictly increasing onsets (the (file, onset, ...) sort is then the
    identity)."""
    return bool(np.all((f[1:] > f[:-1]) | ((f[1:] == f[:-1]) & (on[1:] > on[:-1]))))


def keep_edge(a: np.ndarray, b: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """tdev2 `check_boundary` for edge phones [a, b) of fragments [s, e], elementwise."""
    d = b - a
    o = np.minimum(e, b) - np.maximum(s, a)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = o / d
    return np.where(d >= LONG_PHONE, np.round(o, 3) >= MIN_TIME, frac >= MIN_FRACTION)


def covered_range(ph: Phones, file: np.ndarray, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi): phones of `file` with onset < e and offset > s (strict, as intervaltree)."""
    return (search(ph.starts, ph.offset, file, s, side="right"),
            search(ph.starts, ph.onset, file, e, side="left"))


def transcribe(ph: Phones, file: np.ndarray, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kept phone range [k0, k1) of each fragment and the number of covered phones.

    k1 <= k0 (normalised to k0 == k1) means an empty transcription.
    """
    lo, hi = covered_range(ph, file, s, e)
    n = np.maximum(hi - lo, 0)
    k0 = lo.copy()
    k1 = np.maximum(hi, lo)
    has = n >= 1
    if has.any():
        i = np.flatnonzero(has)
        p = lo[i]
        k0[i] += ~keep_edge(ph.onset[p], ph.offset[p], s[i], e[i])
    two = n >= 2
    if two.any():
        i = np.flatnonzero(two)
        p = hi[i] - 1
        k1[i] -= ~keep_edge(ph.onset[p], ph.offset[p], s[i], e[i])
    empty = k1 <= k0
    k1[empty] = k0[empty]
    return k0, k1, n


class Keys:
    """Exact keys of phone ranges [k0, k1), as ids (range_ids: no Python object per fragment).

    * ngram key: the phone labels (tdev2 `ngram`, SIL included);
    * token key: the (onset, offset, label) values of the phones *without the file*
      (tdev2 `token_ngram`, the grouping key quirk): equal times and labels in two files
      give the same key;
    * stripped text: the labels without SIL as a str (one code point per label), for the
      C edit distance of NED (made for the distinct strings only).
    The per-phone tables behind the token and stripped keys are built on first use (a job
    needs the stripped text, the merge the token keys). local=True (a job's labels-only
    Phones): the stripped text is made from the labels of the given ranges alone, no table
    over every phone (the same ids and strings, memory in proportion to the ranges).
    """

    def __init__(self, ph: Phones, local: bool = False) -> None:
        self.ph = ph
        self.local = local
        self._tok: np.ndarray | None = None
        self._cp: np.ndarray | None = None
        self._pos: np.ndarray | None = None

    @property
    def tok(self) -> np.ndarray:
        """Per phone, the id of its (onset, offset, label) among all phones of the corpus
        (int32 below 2^31 phones)."""
        if self._tok is None:
            ph = self.ph
            if len(ph):
                order = np.lexsort((ph.label, ph.offset, ph.onset))
                new = np.zeros(len(ph), dtype=bool)
                new[0] = True
                for col in (ph.onset, ph.offset, ph.label):     # one sorted column at a time
                    c = col[order]
                    new[1:] |= c[1:] != c[:-1]
                    del c
                # int32 ids, filled in place: the merge's peak at 13 M phones (issue 24)
                dtype = np.int32 if len(ph) < 2 ** 31 else np.int64
                ids = np.cumsum(new, dtype=dtype)
                del new
                ids -= 1
                pid = np.empty(len(ph), dtype=dtype)
                pid[order] = ids
                del order, ids
            else:
                pid = np.zeros(0, dtype=np.int64)
            self._tok = pid
        return self._tok

    def _stripped(self) -> tuple[np.ndarray, np.ndarray]:
        if self._cp is None:
            ph = self.ph
            cp = ph.label.astype("<u4")       # (labels >= 0) one temporary of 4 bytes a phone
            cp += 0x100
            cp[cp >= 0xD800] += 0x800          # skip the surrogate range
            nonsil = ph.label != ph.sil if ph.sil >= 0 else np.ones(len(ph), dtype=bool)
            self._cp = cp[nonsil]
            del cp
            n = len(nonsil)
            self._pos = np.zeros(n + 1, dtype=np.int32 if n < 2 ** 31 else np.int64)
            np.cumsum(nonsil, out=self._pos[1:])
        return self._cp, self._pos

    def release(self) -> None:
        """Forget the per-phone tables (rebuilt on next use)."""
        self._tok = self._cp = self._pos = None

    def ngram_ids(self, k0: np.ndarray, k1: np.ndarray) -> tuple[np.ndarray, int]:
        """(id of each range's label string, number of distinct strings)."""
        ids, first = range_ids(self.ph.label, k0, k1)
        return ids, len(first)

    def token_ids(self, k0: np.ndarray, k1: np.ndarray) -> tuple[np.ndarray, int]:
        ids, first = range_ids(self.tok, k0, k1)
        return ids, len(first)

    def _stripped_local(self, k0: np.ndarray, k1: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The code points of the ranges' non-SIL labels, concatenated, and each range's
        [a, z) in them (what _stripped gives for these ranges, without the per-phone table)."""
        k0 = np.asarray(k0, dtype=np.int64)
        length = np.maximum(np.asarray(k1, dtype=np.int64) - k0, 0)
        ends = np.cumsum(length)
        begins = ends - length
        n = int(ends[-1]) if len(ends) else 0
        at = np.arange(n, dtype=np.int64)
        at -= np.repeat(begins - k0, length)           # the phone at each concatenated position
        lab = np.asarray(self.ph.label[at])
        del at
        cp = lab.astype("<u4")
        cp += 0x100
        cp[cp >= 0xD800] += 0x800          # skip the surrogate range (as _stripped)
        nonsil = lab != self.ph.sil if self.ph.sil >= 0 else np.ones(n, dtype=bool)
        del lab
        cp = cp[nonsil]
        pos = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(nonsil, out=pos[1:])
        return cp, pos[begins], pos[ends]

    def stripped_ids(self, k0: np.ndarray, k1: np.ndarray) -> tuple[np.ndarray, list[str]]:
        """(id of each range's SIL-less string, the distinct strings)."""
        if self.local:
            cp, a, z = self._stripped_local(k0, k1)
        else:
            cp, pos = self._stripped()
            a, z = pos[k0], pos[k1]
        ids, first = range_ids(cp, a, z)
        # the distinct strings: their code points side by side, decoded once (UTF-32: one code
        # point a character, so slicing the text is decoding each range), then cut
        a0, length = a[first], np.maximum(z[first] - a[first], 0)
        ends = np.cumsum(length)
        at = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) - np.repeat(ends - length - a0, length)
        text = cp[at].tobytes().decode("utf-32-le")
        cuts = [0, *ends.tolist()]
        return ids, [text[i:j] for i, j in zip(cuts[:-1], cuts[1:])]

    def ngram_text(self, k0: int, k1: int) -> str:
        labels = self.ph.labels
        return " ".join(labels[x] for x in self.ph.label[k0:k1].tolist())


def range_ids(values: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ids of the sequences values[a[i]:b[i]] (equal sequences, equal ids), numbered in
    first-seen order as a dict would; and the first range of each id. Ranges of one length
    are compared as integer keys (`_row_ids`: the values packed into 64-bit words, exact), or
    as rows of bytes (np.unique on a void view) when they do not pack: no Python object each."""
    a = np.asarray(a, dtype=np.int64)
    n = len(a)
    length = np.maximum(np.asarray(b, dtype=np.int64) - a, 0)
    ids = np.empty(n, dtype=np.int64)
    firsts = []
    base = 0
    lo, bits = _value_bits(values)
    for ln in np.flatnonzero(np.bincount(length)).tolist() if n else []:
        idx = np.flatnonzero(length == ln)
        if ln == 0:
            local, first = np.zeros(len(idx), dtype=np.int64), idx[:1]
        else:
            rows = values[a[idx][:, None] + np.arange(ln)]
            first_local, local = _row_ids(rows, lo, bits)
            del rows
            first = idx[first_local]
        ids[idx] = local.ravel() + base
        firsts.append(first)
        base += len(first)
    if not n:
        return ids, np.zeros(0, dtype=np.int64)
    first = np.concatenate(firsts)
    order = np.argsort(first, kind="stable")       # renumber in first-seen order
    rank = np.empty(len(first), dtype=np.int64)
    rank[order] = np.arange(len(first))
    return rank[ids], first[order]


def _value_bits(values: np.ndarray) -> tuple[int, int | None]:
    """(least value, bits of the largest offset from it), or (0, None) for values that are not
    integers."""
    if not len(values) or values.dtype.kind not in "iu":
        return 0, None
    lo, hi = int(values.min()), int(values.max())
    return lo, (hi - lo).bit_length()


def _row_ids(rows: np.ndarray, lo: int, bits: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(first row of each distinct row, the id of each row) for the rows of one length. The
    columns, offset by `lo`, are packed `bits` each into a 64-bit key, after the ids of the
    columns before them when a row needs more than one key: a bijection at every step, so
    exact. Rows that cannot be packed so are compared as bytes."""
    m, ln = rows.shape
    if bits == 0:                                  # one value: every row the same
        return np.zeros(1, dtype=np.int64), np.zeros(m, dtype=np.int64)
    if bits is None or (ln * bits > 64 and bits + (m - 1).bit_length() > 64):
        rows = np.ascontiguousarray(rows)
        key = rows.view(np.dtype((np.void, rows.dtype.itemsize * ln))).ravel()
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
        return first, inv.ravel()
    off = rows.astype(np.uint64)
    off -= np.uint64(lo % (1 << 64))               # modulo 2**64: the offsets, exact
    prev, prev_bits, j = None, 0, 0
    while True:
        take = min(ln - j, (64 - prev_bits) // bits)       # >= 1 (checked above)
        key = np.zeros(m, dtype=np.uint64) if prev is None else prev.astype(np.uint64) << np.uint64(take * bits)
        for c in range(j, j + take):
            key |= off[:, c] << np.uint64((j + take - 1 - c) * bits)
        j += take
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
        if j >= ln:
            return first, inv.ravel()
        prev, prev_bits = inv.ravel(), (len(first) - 1).bit_length()
