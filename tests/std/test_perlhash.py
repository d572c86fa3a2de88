"""termeval.std.perlhash: perl 5.36's `keys` order under KWSEval.pl's PERL_HASH_SEED=0
PERL_PERTURB_KEYS=0. The expected values below were printed by perl 5.36.0 (Debian 12) itself;
with a perl 5.36 on PATH, random insert/delete histories are compared with it too."""
from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from termeval.std.perlhash import PerlHash, perl_hash, perl_keys


def test_key_hashes():
    # perl -MHash::Util=hash_value -e 'printf "%x", hash_value($k)' under seed 0
    assert perl_hash("a") == 0x8E711474 and perl_hash("b") == 0x46A62277 and perl_hash("c") == 0x411148AC
    assert perl_hash("x" * 25) == 0xB7793405                   # > 24 bytes: SipHash-1-3
    assert perl_hash("abcdefghijklmnopqrstuvwxyz0123") == 0xD58A0AE8


def test_orders_perl_printed():
    # my %h; $h{$_} = 1 for ...; print join ",", keys %h
    assert perl_keys(list("abcdefgh")) == list("hcefdbga")
    assert perl_keys([f"KW-{i}" for i in range(1, 21)]) == [
        "KW-15", "KW-9", "KW-3", "KW-19", "KW-13", "KW-17", "KW-2", "KW-4", "KW-6", "KW-10", "KW-14", "KW-20",
        "KW-7", "KW-1", "KW-5", "KW-18", "KW-11", "KW-16", "KW-8", "KW-12"]
    # my %h = map { $_ => 1 } qw(a b c d e f g h): a list assignment sizes the hash first
    assert perl_keys(list("abcdefgh"), presize=8) == list("hfecdbga")
    # DETCurveSet's %totals / %means of an empty condition (the columns F4DE adds)
    assert perl_keys(["|#Targ", "|#Corr", "|#FA", "|#Miss"]) == ["|#FA", "|#Miss", "|#Targ", "|#Corr"]
    assert perl_keys(["|#Targ", "|#Corr", "|#FA", "|#Miss", "|PFA", "|PMISS"]) == [
        "|PFA", "|#FA", "|#Miss", "|#Targ", "|PMISS", "|#Corr"]


def test_delete_keeps_the_others_in_place():
    h = PerlHash(list("abcdefgh"))
    h.delete("e")
    h.delete("zz")
    assert h.keys() == [k for k in "hcefdbga" if k != "e"] and len(h) == 7


@pytest.mark.skipif(not shutil.which("perl"), reason="no perl")
def test_random_histories_against_perl():
    v = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True).stdout
    if not v.startswith("v5.36"):
        pytest.skip(f"perl {v}: the hash order is perl 5.36's")
    rng = random.Random(5)
    q = lambda s: "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"   # noqa: E731
    prog, want = ["use strict;"], []
    for _ in range(60):
        pool = [rng.choice([f"KW-{rng.randint(0, 999):03d}", f"F{rng.randint(0, 99):02d}", "x" * rng.randint(1, 40)])
                for _ in range(rng.randint(0, 50))]
        h = PerlHash()
        prog.append("{ my %h;")
        for k in pool:
            prog.append(f"$h{{{q(k)}}}=1;")
            h.store(k)
            if rng.random() < 0.2:
                d = rng.choice(pool)
                prog.append(f"delete $h{{{q(d)}}};")
                h.delete(d)
        prog.append('print join("\\x01", keys %h), "\\n"; }')
        want.append(h.keys())
    out = subprocess.run(["perl"], input="\n".join(prog), capture_output=True, text=True,
                         env={"PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0", "PATH": "/usr/bin:/bin"}).stdout
    got = [line.split("\x01") if line else [] for line in out.split("\n")[:len(want)]]
    assert got == want
