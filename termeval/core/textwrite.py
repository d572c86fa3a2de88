"""Text lines built with numpy, without a Python string per field (large class dirs).

A field is a `Field`: one text per row as a uint8 matrix (zero padding on the left when
`right`, else on the right) and the text lengths; `join_lines` lays the fields of every row
side by side into one bytes object. `time_field` writes doubles exactly as
textio.fast_fmt_times (Python's repr, shortest round trip, '.0' dropped): a value is written
as the integer m over 10**k for the smallest k at which m / 10**k is the double again (the
division is correctly rounded and m, 10**k exact: that is float() of the text), and only
when that m is the one such integer at that k; other values (exponent range, -0, ties)
go through fast_fmt_times itself.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_POW10 = np.array([float(10 ** i) for i in range(23)])
_POW10I = np.array([10 ** i for i in range(19)], dtype=np.int64)


@dataclass
class Field:
    text: np.ndarray      # (n, width) uint8
    length: np.ndarray    # (n,) int64
    right: bool = False   # text right-aligned in its row (padding on the left)


def literal(text: str, n: int) -> Field:
    raw = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    return Field(np.broadcast_to(raw, (n, len(raw))), np.full(n, len(raw), dtype=np.int64))


def table_field(table: list[str], codes: np.ndarray) -> Field:
    """Texts table[codes[i]] (only the distinct texts are encoded, once)."""
    encoded = [t.encode("utf-8") for t in table]
    width = max(1, max(map(len, encoded), default=1))
    mat = np.frombuffer(b"".join(e.ljust(width, b"\0") for e in encoded), dtype=np.uint8).reshape(len(encoded), width)
    length = np.array([len(e) for e in encoded], dtype=np.int64)
    return Field(mat[codes], length[codes])


_PAIRS = np.array([[48 + i // 10, 48 + i % 10] for i in range(100)], dtype=np.uint8).view(np.uint16).ravel()


def _digits(values: np.ndarray, width: int) -> np.ndarray:
    """(n, width) uint8: the decimal digits of non-negative int64 values, right-aligned and
    zero-padded (two digits, one uint16 from a table, per division)."""
    half = (width + 1) // 2
    pairs = np.empty((half, len(values)), dtype=np.uint16)
    q = values
    for j in range(half - 1, -1, -1):
        q, r = np.divmod(q, 100)
        np.take(_PAIRS, r, out=pairs[j])
    return np.ascontiguousarray(pairs.T).view(np.uint8)[:, width % 2:]


def _ndigits(values: np.ndarray) -> np.ndarray:
    """Number of decimal digits of non-negative values (1 for 0)."""
    return np.maximum(np.searchsorted(_POW10I, values, side="right"), 1).astype(np.int64)


def int_field(values: np.ndarray, min_digits: int = 1) -> Field:
    """Non-negative integers in decimal, zero-padded to at least `min_digits`."""
    values = np.asarray(values, dtype=np.int64)
    ndig = np.maximum(_ndigits(values), min_digits)
    width = int(ndig.max()) if len(values) else min_digits
    return Field(_digits(values, width), ndig, right=True)


def _round_trip(a: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(hits, m): how many integers m near a * 10**k give m / 10**k == a (m < 2**53), and one."""
    t = a * _POW10[k]
    small = t < 2.0 ** 53 - 2
    guess = np.rint(np.where(small, t, 0)).astype(np.int64)
    hits = np.zeros(len(a), dtype=np.int64)
    pick = guess.copy()
    for d in (-1, 0, 1):                  # |a * 10**k - the exact product| < 1
        cand = guess + d
        ok = small & (cand >= 0) & (cand.astype(np.float64) / _POW10[k] == a)
        hits += ok
        pick = np.where(ok, cand, pick)
    return hits, pick


def _shortest(a: np.ndarray, start: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(found, m, k): a == m / 10**k with the fewest fraction digits k, where that m is the
    only k-digit decimal giving a (as repr's shortest text). A unique m at `start` digits
    gives the answer by dropping its trailing zeros: a decimal with fewer digits would be a
    second m at `start` digits otherwise. Beyond `start`, digit counts are tried one by one."""
    n = len(a)
    m = np.zeros(n, dtype=np.int64)
    k = np.full(n, start, dtype=np.int64)
    hits, m[:] = _round_trip(a, start)
    found = hits == 1
    for _ in range(start):
        tens = found & (k > 0) & (m % 10 == 0)
        m[tens] //= 10
        k[tens] -= 1
    rest = np.flatnonzero(hits == 0)      # (two hits: a tie, left to the fallback)
    for digits in range(start + 1, 18):
        if not len(rest):
            break
        hits, pick = _round_trip(a[rest], digits)
        one = rest[hits == 1]
        m[one], k[one], found[one] = pick[hits == 1], digits, True
        rest = rest[hits == 0]
    return found, m, k


def time_field(x: np.ndarray, fallback) -> Field:
    """Texts of `fallback(x)` (textio.fast_fmt_times) computed with numpy where it is exact:
    positional repr range, not -0 (the others: fallback)."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    a = np.abs(x)
    with np.errstate(invalid="ignore"):
        todo = np.isfinite(x) & (a < 1e16) & ((a >= 1e-4) | (x == 0)) & ~((x == 0) & np.signbit(x))
    found, m, k = _shortest(np.where(todo, a, 0.0))
    found &= todo
    m[~found], k[~found] = 0, 0
    w = int(_ndigits(m.max(initial=0)[None])[0])
    w = max(w, int(k.max(initial=0)) + 1)
    dig = _digits(m, w)                       # right-aligned digits of m
    col = np.arange(w + 1)[None, :]
    left = np.hstack((dig, np.full((n, 1), 48, dtype=np.uint8)))   # column c: dig[c]
    right = np.hstack((np.full((n, 1), 48, dtype=np.uint8), dig))  # column c: dig[c - 1]
    frac = k[:, None]
    mat = np.where((frac > 0) & (col < w - frac), left, right)     # the point's column:
    mat[(frac > 0) & (col == w - frac)] = 46                        # int digits move left
    length = _ndigits(m // _POW10I[k]) + k + (k > 0)
    mat = np.hstack((np.full((n, 1), 48, dtype=np.uint8), mat))     # room for a sign
    neg = np.flatnonzero((x < 0) & found)
    mat[neg, mat.shape[1] - 1 - length[neg]] = 45
    length[neg] += 1
    slow = np.flatnonzero(~found)
    if len(slow):
        texts = [t.encode("utf-8") for t in fallback(x[slow])]
        wide = max(mat.shape[1], max(map(len, texts)))
        if wide > mat.shape[1]:
            mat = np.hstack((np.zeros((n, wide - mat.shape[1]), dtype=np.uint8), mat))
        for i, t in zip(slow.tolist(), texts):
            mat[i, wide - len(t):] = np.frombuffer(t, dtype=np.uint8)
            length[i] = len(t)
    return Field(mat, length, right=True)


def join_lines(fields: list[Field]) -> bytes:
    """The rows' fields side by side, as one bytes object: the fields' matrices next to each
    other, row after row, read without their padding."""
    text = np.hstack([f.text for f in fields])
    keep = np.hstack([(np.arange(f.text.shape[1])[None, :] >= (f.text.shape[1] - f.length)[:, None]) if f.right
                      else (np.arange(f.text.shape[1])[None, :] < f.length[:, None]) for f in fields])
    return text[keep].tobytes()


def write_rows(f, n: int, fields_of, block: int = 1 << 17) -> None:
    """Write the lines of rows 0..n-1, `fields_of(lo, hi)` giving the fields of rows lo..hi-1
    (a block at a time: the index matrices stay a few tens of MB)."""
    for lo in range(0, n, block):
        f.write(join_lines(fields_of(lo, min(n, lo + block))))
