"""Differential tests: termeval.tde.zrc2020 vs the reference tdev2 package on random micro-corpora.

Random phone alignments (with SIL, SPN, gaps, short and long phones), words made of runs of
phones (homophones included), and class files with duplicates, overlapping fragments,
fragments across silences or gaps, one-member classes, fragments shorter than a phone and
fragments in unaligned regions. Every metric is compared with what `tde.measures.*` compute
on the same files (skipped when the reference package is not installed).
"""
from __future__ import annotations

import os
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, event, given, settings, strategies as st  # noqa: E402

from termeval.core.datadir import load_classes, load_gold  # noqa: E402
from termeval.tde.zrc2020.stats import score  # noqa: E402
from termeval.tde.zrc2020.testing import write_class_dir, write_data_dir  # noqa: E402
from tde_reference import reference, reference_scores, same  # noqa: E402


def ms(x: int) -> str:
    return repr(x / 1000)


@st.composite
def corpora(draw):
    nfiles = draw(st.integers(1, 3))
    phn, wrd, spans = [], [], {}
    for fi in range(nfiles):
        name = f"f{fi}"
        t = draw(st.sampled_from([0, 0, 15]))
        phones = []
        for _ in range(draw(st.integers(3, 14))):
            if draw(st.integers(0, 9)) == 0:
                t += draw(st.integers(5, 80))          # an unaligned gap
            d = draw(st.sampled_from([10, 20, 25, 40, 55, 60, 65, 80, 100, 150]))
            lab = draw(st.sampled_from(["a", "b", "c", "d", "SIL", "SPN"]))
            phones.append((t, t + d, lab))
            t += d
        phn += [f"{name} {ms(a)} {ms(b)} {lab}" for a, b, lab in phones]
        # words: runs of consecutive non-SIL phones; at least one word per file
        i, nw = 0, 0
        while i < len(phones):
            if phones[i][2] == "SIL" or draw(st.integers(0, 3)) == 0:
                i += 1
                continue
            j = i + 1
            while j < len(phones) and j - i < 3 and phones[j][2] != "SIL" and phones[j][0] == phones[j - 1][1] \
                    and draw(st.booleans()):
                j += 1
            wrd.append(f"{name} {ms(phones[i][0])} {ms(phones[j - 1][1])} {draw(st.sampled_from(['x', 'y', 'z', 'w']))}")
            nw += 1
            i = j
        if nw == 0:
            k = next((k for k, p in enumerate(phones) if p[2] != "SIL"), 0)
            wrd.append(f"{name} {ms(phones[k][0])} {ms(phones[k][1])} x")
        spans[name] = (phones[0][0], t, phones)
    classes = []
    made = []
    for _ in range(draw(st.integers(1, 5))):
        frags = []
        for _ in range(draw(st.integers(1, 6))):
            kind = draw(st.integers(0, 5))
            if kind == 0 and made:
                frags.append(draw(st.sampled_from(made)))          # duplicate, maybe in another class
                continue
            name = draw(st.sampled_from(sorted(spans)))
            t0, t1, phones = spans[name]
            if kind in (1, 2):                                     # near phone boundaries
                a = draw(st.sampled_from(phones))[0] + draw(st.integers(-35, 35))
                b = draw(st.sampled_from(phones))[1] + draw(st.integers(-35, 35))
            elif kind == 3:                                        # very short
                a = draw(st.integers(t0 - 20, t1))
                b = a + draw(st.integers(1, 15))
            else:
                a = draw(st.integers(t0 - 20, t1 + 20))
                b = a + draw(st.integers(1, 400))
            if b <= a:
                a, b = b, a
            if b == a:
                b = a + 1
            f = f"{name} {ms(a)} {ms(b)}"
            made.append(f)
            frags.append(f)
        classes.append(frags)
    return phn, wrd, classes


def write(tmp, phn, wrd, classes):
    paths = {k: os.path.join(tmp, k) for k in ("x.phn", "x.wrd", "x.class")}
    with open(paths["x.phn"], "w") as f:
        f.write("".join(x + "\n" for x in phn))
    with open(paths["x.wrd"], "w") as f:
        f.write("".join(x + "\n" for x in wrd))
    with open(paths["x.class"], "w") as f:
        f.write("".join(f"Class {i}\n" + "".join(x + "\n" for x in c) + "\n" for i, c in enumerate(classes)))
    return paths


@settings(max_examples=int(os.environ.get("TERMEVAL_TDE_EXAMPLES", "80")), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(corpus=corpora(), nj=st.integers(1, 3))
def test_against_reference(corpus, nj):
    R = reference()
    phn, wrd, classes = corpus
    with tempfile.TemporaryDirectory() as tmp:
        paths = write(tmp, phn, wrd, classes)
        ref = reference_scores(R, paths)
        write_data_dir(paths["x.phn"], paths["x.wrd"], os.path.join(tmp, "data"))
        write_class_dir(paths["x.class"], os.path.join(tmp, "exp"))
        gold = load_gold(os.path.join(tmp, "data"))
        ours, counts = score(gold, load_classes(os.path.join(tmp, "exp", "classes"), gold), nj=nj)
    event(f"tied word choice: {bool(counts['tied_word_choices'])}")
    event(f"grouping defined: {ref['grouping_precision'] == ref['grouping_precision']}")
    event(f"token hits: {counts['token_hits'] > 0}")
    keys = [k for k in ref if not (k.startswith(("token_", "type_")) and counts["tied_word_choices"])]
    diff = {k: (ours[k], ref[k]) for k in keys if not same(ours[k], ref[k])}
    assert not diff, (diff, phn, wrd, classes)
