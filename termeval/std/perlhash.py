"""The order in which Perl 5.36 lists a hash's keys (`keys %h`) when run as F4DE's KWSEval.pl runs
it (`PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0`): KWSEval's reports and files follow Perl hash orders
in a few places (the terms without a detected block, the blocks summed into a DET's figures, the
files of an ECF's duration, the columns of an empty condition), which are fixed for a given perl
build under that seed. Re-derived from perl 5.36.0's hv.c, hv_func.h, sbox32_hash.h and
perl_siphash.h (x86_64, 64-bit hashes):

- the key's 32-bit hash: SBOX32 for keys of at most 24 bytes (hash = state[0] XOR one table word
  per byte position and byte value; the table filled by an xorshift128 generator seeded from
  the zero seed), SipHash-1-3 (both 32-bit halves XORed) for longer keys;
- a new hash has 8 buckets; a new key goes to the head of bucket `hash & max`; when it lands
  in a non-empty bucket and keys + keys/2 > max, the buckets double (each chain walked in
  order, the entries that move prepended to their new bucket); a list assignment of n > 7
  pairs first sizes the hash for 1.5 n keys;
- `keys` visits the buckets in the order `i XOR 0xbe49d17f` (the constant PL_hash_rand_bits
  of seed 0, no perturbation), each chain from its head;
- a lexical hash of a sub or loop body (`my %h = ();`) is cleared when its scope ends but keeps
  its buckets (unless a reference to it survives), so its next use starts with as many buckets
  as it ever grew to (PadHash).

Keys are the strings' UTF-8 bytes (F4DE's ids are ASCII).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
SBOX32_MAX_LEN = 24
RAND_BITS = 0xBE49D17F          # PL_hash_rand_bits for PERL_HASH_SEED=0 (util.c get_hash_seed)


def _rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & M32


def _rotl64(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & M64


@lru_cache(maxsize=1)
def _sbox_state() -> list[int]:
    """sbox32_seed_state128 of the zero seed: state[0], then 24 x 256 table words."""
    seed = [0, 0, 0, 0]
    s = [seed[1] ^ 0x786F6273, seed[0] ^ 0x68736168, seed[2] ^ 0x646F6F67, seed[3] ^ 0x74736166]
    s = [v or d for v, d in zip(s, (1, 2, 4, 8))]

    def mix(s0, s1, s2, s3):
        for _ in range(128):
            s0 = (_rotl32(s0, 13) - s3) & M32
            s1 ^= s2
            s3 = (_rotl32(s3, 9) + s1) & M32
            s2 ^= s0
            s0 = _rotl32(s0, 14) ^ s3
            s1 = (_rotl32(s1, 25) - s2) & M32
            s3 ^= s1
            s2 = (_rotl32(s2, 4) - s0) & M32
        return s0, s1, s2, s3

    s0, s1, s2, s3 = mix(*s)
    s0 ^= ~seed[3] & M32
    s1 ^= ~seed[2] & M32
    s2 ^= ~seed[1] & M32
    s3 ^= ~seed[0] & M32
    s0, s1, s2, s3 = (v or d for v, d in zip((s0, s1, s2, s3), (8, 4, 2, 1)))
    s0, s1, s2, s3 = mix(s0, s1, s2, s3)
    out = [0]
    for _ in range(256 * SBOX32_MAX_LEN + 1):
        t = (s0 ^ (s0 << 5)) & M32
        s0, s1, s2 = s1, s2, s3
        s3 = (s3 ^ (s3 >> 29)) ^ (t ^ (t >> 12))
        out.append(s3)
    out[0] = out.pop()          # the last draw is state[0]
    return out


def _siphash13(data: bytes) -> int:
    """S_perl_hash_siphash_1_3_with_state of the zero seed, folded to 32 bits."""
    v0, v1, v2, v3 = 0x736F6D6570736575, 0x646F72616E646F6D, 0x6C7967656E657261, 0x7465646279746573

    def rnd(v0, v1, v2, v3):
        v0 = (v0 + v1) & M64
        v1 = _rotl64(v1, 13) ^ v0
        v0 = _rotl64(v0, 32)
        v2 = (v2 + v3) & M64
        v3 = _rotl64(v3, 16) ^ v2
        v0 = (v0 + v3) & M64
        v3 = _rotl64(v3, 21) ^ v0
        v2 = (v2 + v1) & M64
        v1 = _rotl64(v1, 17) ^ v2
        v2 = _rotl64(v2, 32)
        return v0, v1, v2, v3

    n = len(data)
    end = n - (n & 7)
    for i in range(0, end, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        v0, v1, v2, v3 = rnd(v0, v1, v2, v3)
        v0 ^= m
    b = ((n << 56) | int.from_bytes(data[end:], "little")) & M64
    v3 ^= b
    v0, v1, v2, v3 = rnd(v0, v1, v2, v3)
    v0 ^= b
    v2 ^= 0xFF
    for _ in range(3):
        v0, v1, v2, v3 = rnd(v0, v1, v2, v3)
    h = v0 ^ v1 ^ v2 ^ v3
    return (h & M32) ^ (h >> 32)


def perl_hash(key: str) -> int:
    """PERL_HASH of a key under PERL_HASH_SEED=0 (perl 5.36, 64-bit)."""
    data = key.encode("utf-8")
    if len(data) > SBOX32_MAX_LEN:
        return _siphash13(data)
    st = _sbox_state()
    h = st[0]
    for i, c in enumerate(data):
        h ^= st[1 + 256 * i + c]
    return h


class PerlHash:
    """A Perl hash's buckets under KWSEval's seed: stores, deletes and `keys` order."""

    def __init__(self, keys: Iterable[str] = (), presize: int = 0, buckets: int = 8) -> None:
        """`presize`: a list assignment of that many pairs; `buckets`: the bucket count the hash
        starts with (8 for a new hash; a `my %h` of a sub or loop body keeps, from one call or
        iteration to the next, the buckets it grew to: hv_clear does not shrink them)."""
        self.max = buckets - 1
        self.buckets: list[list[str]] = [[] for _ in range(buckets)]
        self.hashes: dict[str, int] = {}
        if presize > 7:         # pp_aassign's hv_ksplit(hash, pairs) of a list assignment
            want = presize + (presize >> 1)
            size = buckets
            while want > size:
                size <<= 1
            self.max = size - 1
            self.buckets = [[] for _ in range(size)]
        for k in keys:
            self.store(k)

    def store(self, key: str) -> None:
        if key in self.hashes:
            return
        h = perl_hash(key)
        self.hashes[key] = h
        chain = self.buckets[h & self.max]
        collision = bool(chain)
        chain.insert(0, key)
        n = len(self.hashes)
        if collision and n + (n >> 1) > self.max:
            self._split()

    def _split(self) -> None:
        old = self.max + 1
        self.buckets += [[] for _ in range(old)]
        self.max = 2 * old - 1
        for i in range(old):
            stay = []
            for k in self.buckets[i]:
                j = self.hashes[k] & self.max
                if j != i:
                    self.buckets[j].insert(0, k)
                else:
                    stay.append(k)
            self.buckets[i] = stay

    def delete(self, key: str) -> None:
        h = self.hashes.pop(key, None)
        if h is not None:
            self.buckets[h & self.max].remove(key)

    def keys(self) -> list[str]:
        out = []
        for i in range(self.max + 1):
            out += self.buckets[(i ^ RAND_BITS) & self.max]
        return out

    def __len__(self) -> int:
        return len(self.hashes)


def perl_keys(keys: Iterable[str], presize: int = 0, buckets: int = 8) -> list[str]:
    """`keys %h` of a hash whose keys were stored in this order (starting with `buckets`)."""
    return PerlHash(keys, presize, buckets).keys()


class PadHash:
    """A `my %h` declared in a sub or a loop body: cleared at each exit, it keeps its buckets,
    so each use starts with the most it ever had (perl's leave_scope: hv_clear)."""

    def __init__(self) -> None:
        self.size = 8

    def keys(self, stored: Iterable[str]) -> list[str]:
        """`keys %h` after storing `stored` in this use of the hash."""
        h = PerlHash(stored, buckets=self.size)
        self.size = h.max + 1
        return h.keys()
