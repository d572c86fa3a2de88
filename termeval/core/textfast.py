"""Vectorised column parsing for `textio.read_table`: tokens stay byte ranges of the chunk.

The str.split path of read_table makes one Python object per token (56 M at x10 of the
bench corpus) and parses floats through float() one by one. Here, on the uint8 view of a
chunk whose token boundaries are already known:
- floats: a plain decimal (`[+-]digits[.digits]`, at most 18 digits, mantissa <= 2**53) is
  read as uint64 words of its bytes, checked and turned into its digits' integer m with
  SWAR arithmetic (8 digits per word), k = digits after the point; m / 10**k is then the
  correctly rounded double (both operands are exact doubles and IEEE division rounds
  correctly: Clinger's fast path), i.e. what float() gives. Other tokens made only of
  `0-9 . + - e E` go through numpy's bytes -> double cast (float() semantics);
- strings (Factoriser): tokens become zero-padded uint64 words; equal neighbours collapse
  into runs (a sorted file column is a few runs); run heads are looked up by a uint64 key in
  the sorted keys of the texts already seen (their full bytes compared), and only new texts
  are decoded, in first-seen order, into the caller's {text: code} table, exactly as the
  str.split path's dict.setdefault numbers them.
Every function returns None when it cannot be sure to match the str.split path (an odd
token, a non-finite value, a very long token): read_table then takes that path for the chunk,
which also produces the error message.
"""
from __future__ import annotations

import functools
import re

import numpy as np

# characters str.split() cuts at but bytes.split() does not: with one of them in a chunk the
# str.split path has its own tokens (read_table keeps that path for the chunk)
_ODD_ASCII = (b"\x1c", b"\x1d", b"\x1e", b"\x1f")
_ODD_UTF8 = {b"\xc2": re.compile(b"\xc2[\x85\xa0]"), b"\xe1": re.compile(b"\xe1\x9a\x80"),   # by lead byte
             b"\xe2": re.compile(b"\xe2(?:\x80[\x80-\x8a\xa8\xa9\xaf]|\x81\x9f)"),
             b"\xe3": re.compile(b"\xe3\x80\x80")}

_FLOAT_CHARS = np.zeros(256, dtype=bool)
_FLOAT_CHARS[list(b"0123456789.+-eE")] = True
_POW10 = np.array([float(10 ** i) for i in range(20)])   # exact doubles (10**22 is the last)
_POW10U = np.array([10 ** i for i in range(20)], dtype=np.uint64)
_MAX_DIGITS = 18          # digits of a fast-path decimal (its integer fits a uint64)
_MAX_STRING = 64          # longer tokens: the str.split path (fixed-width rows would be wide)
_DECODE_EACH = 512        # run heads decoded one by one below this count (no key lookup)


def plain_chunk(piece: bytes) -> bool:
    """True when str.split() and bytes.split() cut `piece` at the same places."""
    if any(x in piece for x in _ODD_ASCII):       # one-byte searches run at memchr speed
        return False
    return piece.isascii() or not any(lead in piece and odd.search(piece) for lead, odd in _ODD_UTF8.items())


_PAD = _MAX_STRING + 8     # zero bytes around a chunk: a word read near its ends stays inside


def token_bounds(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) of each token: the places where ASCII whitespace begins or
    ends (with whitespace assumed around the chunk, they alternate start, end, ...)."""
    ws = np.empty(len(b) + 2, dtype=bool)
    ws[0] = ws[-1] = True
    np.logical_or(b == 32, (b - np.uint8(9)) < 5, out=ws[1:-1])   # \t \n \v \f \r and space
    edges = np.flatnonzero(ws[1:] != ws[:-1])
    return edges[0::2], edges[1::2]


def line_heads(b: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first token of each non-blank line, its 1-based line number within the chunk)."""
    newline = np.flatnonzero(b == 10)
    # bound[i]: tokens before the end of line i (line i: tokens bound[i - 1] .. bound[i] - 1)
    bound = np.concatenate(([0], np.searchsorted(starts, newline), [len(starts)]))
    line = np.flatnonzero(bound[1:] > bound[:-1])
    return bound[line], line + 1


def token_words(b: np.ndarray, s: np.ndarray, e: np.ndarray, words: int, right: bool = False) -> list[np.ndarray]:
    """Tokens b[s:e] (at most 8 * words bytes) as `words` uint64 arrays: word j holds bytes
    8j..8j+7 of the token zero-padded on the right (on the left if `right`: the last byte of
    the token is then the last byte of the last word); read as unaligned 8-byte loads."""
    buf = np.concatenate((np.zeros(_PAD, dtype=np.uint8), b, np.zeros(_PAD, dtype=np.uint8)))
    loads = np.ndarray((len(buf) - 7,), dtype=np.uint64, buffer=buf, strides=(1,))
    at = (e - 8 * words if right else s) + _PAD
    keep = _keep_table(words, right)
    length = e - s
    return [loads[at + 8 * j] & np.take(keep[:, j], length) for j in range(words)]


@functools.lru_cache(maxsize=None)
def _keep_table(words: int, right: bool) -> np.ndarray:
    """[length, word] -> uint64 with 0xFF in the bytes a token of that length occupies."""
    width = 8 * words
    keep = np.arange(width)[None, :] < np.arange(width + 1)[:, None]
    if right:
        keep = keep[:, ::-1]
    return np.ascontiguousarray(keep).astype(np.uint8).__mul__(np.uint8(255)).view(np.uint64)


_U = np.uint64
_ONES = _U(0x0101010101010101)
_LOW7 = _U(0x7F7F7F7F7F7F7F7F)
_HIGH4 = _U(0xF0F0F0F0F0F0F0F0)
_LOW4 = _U(0x0F0F0F0F0F0F0F0F)


def _zero_bytes(x: np.ndarray) -> np.ndarray:
    """1 in each byte of x that is zero, 0 elsewhere (exact: no carry between bytes)."""
    return ~(((x & _LOW7) + _LOW7) | x | _LOW7) >> _U(7)


def _byte_sum(x: np.ndarray) -> np.ndarray:
    """Sum of the bytes of x (each 0 or 1)."""
    return (x * _ONES) >> _U(56)


def _eight_digits(v: np.ndarray) -> np.ndarray:
    """The number written by 8 digit bytes (values 0..9, the first in the lowest byte)."""
    v = (v * _U(10 << 8 | 1)) >> _U(8)
    v = ((v & _U(0x00FF00FF00FF00FF)) * _U(100 << 16 | 1)) >> _U(16)
    return ((v & _U(0x0000FFFF0000FFFF)) * _U(10000 << 32 | 1)) >> _U(32)


def parse_floats(b: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """Doubles of the tokens b[s:e], equal to float(token); None if one is not a finite
    number made of `0-9 . + - e E` (the caller then parses the chunk the slow way)."""
    n = len(s)
    if n == 0:
        return np.zeros(0)
    first = b[s]
    neg = first == 45
    p = s + (neg | (first == 43))                   # after the sign
    length = e - p
    other = (length == 0) | (length > _MAX_DIGITS + 1)
    p[other] = e[other]                             # (the others: empty rows)
    words = max(1, (min(int(length.max()), _MAX_DIGITS + 1) + 7) // 8)
    # right-aligned words, 0 left of the token; '.' and the padding become '0' (the point's
    # '0' is taken out of the number below): then every byte must be a digit
    whole = npoint = frac = bad = None
    for j, w in enumerate(token_words(b, p, e, words, right=True)):
        point = _zero_bytes(w ^ _U(0x2E2E2E2E2E2E2E2E))                 # 1 at '.'
        digits = w ^ (point * _U(0x1E)) | _zero_bytes(w) * _U(0x30)
        odd = ((digits & _HIGH4) ^ _U(0x3030303030303030)) | (((digits & _LOW4) + _U(0x0606060606060606)) & _HIGH4)
        value = _eight_digits(digits & _LOW4)
        count = _byte_sum(point)
        after = 8 * (words - j) - 1 - _byte_sum((point - _U(1)) & _ONES).astype(np.int64)  # chars after a '.'
        after[count == 0] = 0
        if j == 0:
            whole, npoint, frac, bad = value, count, after, odd
        else:
            whole = whole * _U(10 ** 8) + value
            npoint += count
            frac += after
            bad |= odd
    other |= (bad != 0) | (npoint > 1) | (npoint.astype(np.int64) == length)
    frac[other | (npoint == 0)] = 0
    scale = _POW10U[frac]
    above = whole // scale
    m = (above // _U(10)) * scale + (whole - above * scale)           # the point's '0' taken out
    m = np.where(npoint == 1, m, whole)
    other |= m > _U(1 << 53)
    out = m.astype(np.float64) / _POW10[frac]
    np.negative(out, out=out, where=neg)            # "-0" is -0.0, as float("-0")
    if other.any():
        sel = np.flatnonzero(other)
        rest = _parse_rest(b, s[sel], e[sel])
        if rest is None:
            return None
        out[sel] = rest
    return out


def _parse_rest(b: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """float() of tokens outside the fast path (exponents, many digits) via numpy's cast."""
    width = int((e - s).max())
    if width > _MAX_STRING:
        return None
    words = (width + 7) // 8
    rows = np.stack(token_words(b, s, e, words), axis=1).view(np.uint8)
    if not _FLOAT_CHARS[rows[rows != 0]].all():
        return None
    try:   # numpy's bytes -> double cast is float() of the text (trailing NULs are dropped)
        values = rows.view(f"S{8 * words}").ravel().astype(np.float64)
    except ValueError:
        return None
    return values if np.isfinite(values).all() else None


_MIXERS = [np.uint64(0x9E3779B97F4A7C15 + 2 * j) for j in range(_MAX_STRING // 8)]  # odd


class Factoriser:
    """Codes of a string column, chunk after chunk, in `table` ({text: code}): new texts get
    the next code in the order they are first seen, as dict.setdefault over the tokens would.
    Known texts are looked up by a uint64 key (the token's 8-byte words mixed; a token of at
    most 8 bytes is its own key) in a sorted array, and checked against their full bytes."""

    def __init__(self, table: dict[str, int]) -> None:
        self.table = table
        self.keys = np.zeros(0, dtype=np.uint64)           # sorted
        self.words = np.zeros((_MAX_STRING // 8, 0), dtype=np.uint64)  # [word, text]
        self.nwords = np.zeros(0, dtype=np.int64)          # words up to the last nonzero one
        self.codes = np.zeros(0, dtype=np.int64)

    def __call__(self, piece: bytes, b: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
        """Codes of the tokens piece[s:e]; None for a token too long (or a key clash)."""
        n = len(s)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        width = int((e - s).max())
        if width > _MAX_STRING:
            return None
        words = token_words(b, s, e, (width + 7) // 8)       # tokens hold no NUL: padding is unambiguous
        change = words[0][1:] != words[0][:-1]
        for w in words[1:]:
            change |= w[1:] != w[:-1]
        head = np.concatenate(([0], np.flatnonzero(change) + 1))  # runs of equal tokens
        run = np.diff(np.append(head, n))
        if len(head) <= _DECODE_EACH:
            table = self.table
            codes = np.array([table.setdefault(piece[i:j].decode("utf-8"), len(table))
                              for i, j in zip(s[head].tolist(), e[head].tolist())], dtype=np.int64)
            return np.repeat(codes, run)
        hw = [w[head] for w in words]
        key = hw[0].copy()
        for j in range(1, len(hw)):                     # zero words add nothing: the key of a
            key ^= hw[j] * _MIXERS[j]                   # text does not depend on the chunk
        codes = self._known(key, hw)
        if codes is None:
            return None
        new = np.flatnonzero(codes < 0)
        if len(new):
            _, first, inverse = np.unique(key[new], return_index=True, return_inverse=True)
            rows = new[first]
            if not all((w[new] == w[rows][inverse.ravel()]).all() for w in hw):
                return None                             # two texts with one key: slow path
            added = np.empty(len(rows), dtype=np.int64)
            hs, he = s[head[rows]].tolist(), e[head[rows]].tolist()
            for u in np.argsort(first, kind="stable").tolist():
                added[u] = self.table.setdefault(piece[hs[u]:he[u]].decode("utf-8"), len(self.table))
            codes[new] = added[inverse.ravel()]
            self._remember(key[rows], [w[rows] for w in hw], added)
        return np.repeat(codes, run)

    def _known(self, key: np.ndarray, hw: list[np.ndarray]) -> np.ndarray | None:
        """Codes of the keys already seen (-1 for new ones); None if a key's text differs."""
        codes = np.full(len(key), -1, dtype=np.int64)
        if not len(self.keys):
            return codes
        pos = np.searchsorted(self.keys, key)
        pos[pos == len(self.keys)] = 0
        found = np.flatnonzero(self.keys[pos] == key)
        at = pos[found]
        same = self.nwords[at] <= len(hw)
        for j, w in enumerate(hw):
            same &= self.words[j][at] == w[found]
        if not same.all():
            return None
        codes[found] = self.codes[at]
        return codes

    def _remember(self, key: np.ndarray, hw: list[np.ndarray], codes: np.ndarray) -> None:
        full = np.zeros((self.words.shape[0], len(key)), dtype=np.uint64)
        for j, w in enumerate(hw):
            full[j] = w
        nwords = np.zeros(len(key), dtype=np.int64)
        for j, w in enumerate(hw):
            nwords[w != 0] = j + 1
        keys = np.concatenate((self.keys, key))
        order = np.argsort(keys, kind="stable")
        self.keys, self.codes = keys[order], np.concatenate((self.codes, codes))[order]
        self.words = np.concatenate((self.words, full), axis=1)[:, order]
        self.nwords = np.concatenate((self.nwords, nwords))[order]


class Column:
    """A 1-D array filled chunk by chunk, grown and at last shrunk in place (realloc): a big
    file's column is never held twice (its chunks and their concatenation). Pages reserved
    beyond the rows are never touched, so a generous first guess costs no memory."""

    def __init__(self, dtype: type, capacity: int) -> None:
        self.values = np.empty(max(capacity, 16), dtype=dtype)
        self.n = 0

    def add(self, part: np.ndarray) -> None:
        end = self.n + len(part)
        if end > len(self.values):
            self.values.resize((max(end, len(self.values) * 5 // 4),), refcheck=False)
        self.values[self.n:end] = part
        self.n = end

    def done(self) -> np.ndarray:
        self.values.resize((self.n,), refcheck=False)
        return self.values
