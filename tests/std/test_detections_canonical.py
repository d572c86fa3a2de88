"""The canonical-detection path of the KWSLIST/STDLIST reader (numpy on the file's bytes) reads
what the exact (expat callback) parser reads, and leaves to the other paths whatever it does
not recognise (the same values, or the exact parser's error)."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.core.errors import InputError
from termeval.std import detections as D

FIELDS = ("term_ids", "file_ids", "term", "file", "chan", "tbeg", "dur", "score", "decision", "fmt",
          "blocks", "min_score", "max_score", "system_id")


def kwslist(dets: list[str], tag="kw", root="kwslist", block="detected_kwlist", id_="kwid", between="\n") -> str:
    half = len(dets) // 2
    body = "".join(f'<{block} {id_}="K{i}">\n' + between.join(part) + f"\n</{block}>\n"
                   for i, part in enumerate((dets[:half], dets[half:])))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} system_id="s">\n{body}</{root}>\n'.replace("<kw ", f"<{tag} ")


def det(f="a.wav", c="1", b="1.5", d="0.25", s="0.5", x="YES"):
    return f'<kw file="{f}" channel="{c}" tbeg="{b}" dur="{d}" score="{s}" decision="{x}"/>'


def same(a, b):
    for k in FIELDS:
        x, y = getattr(a, k), getattr(b, k)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), k
        else:
            assert x == y, k


CASES = {
    "plain": [det(), det("b", "2", "3", "1e-3", "-2.5", "NO"), det("café", "1", "0", "0", "7", "")],
    "stdlist": [det(), det("b", s="1")],
    "gt in a value": [det("a>b"), det()],
    "space before />": [det(), det().replace('"/>', '" />')],
    "other order": [det(), det().replace('channel="1" tbeg="1.5"', 'tbeg="1.5" channel="1"')],
    "decision case": [det(x="yes"), det(x=" NO ")],
    "long file name": [det("x" * 80), det()],
    "odd number": [det(b="1_0"), det()],
}


@pytest.mark.parametrize("case", list(CASES))
def test_canonical_reads_what_the_exact_parser_reads(tmp_path, case):
    p = tmp_path / "k.xml"
    text = kwslist(CASES[case])
    if case == "stdlist":
        text = kwslist(CASES[case], "term", "stdlist", "detected_termlist", "termid")
    p.write_text(text, encoding="utf-8")
    canon = D._canonical(text.split("?>", 1)[1].encode(), list(D._BLOCK.finditer(text.split("?>", 1)[1].encode())))
    assert (canon is not None) == (case in ("plain", "stdlist", "gt in a value", "decision case",
                                            "long file name", "odd number"))
    same(D.read_detections(str(p)), D._read_xml(str(p)))


def test_a_detection_outside_its_block_is_the_exact_parsers_error(tmp_path):
    p = tmp_path / "k.xml"
    text = kwslist([det(), det()]).replace("</detected_kwlist>\n</kwslist>", f"</detected_kwlist>\n{det()}\n</kwslist>")
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="outside a detected_kwlist") as e:
        D.read_detections(str(p))
    assert e.value.path == str(p)


def test_a_detection_after_a_nested_block_is_the_exact_parsers_error(tmp_path):
    p = tmp_path / "k.xml"
    text = kwslist([det(), det()]).replace('<detected_kwlist kwid="K1">\n',
                                           '<detected_kwlist kwid="K1">\n<detected_kwlist kwid="K2b">\n'
                                           f'{det()}\n</detected_kwlist>\n')
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="outside a detected_kwlist"):
        D.read_detections(str(p))


def test_negative_duration_named_as_the_exact_parser_names_it(tmp_path):
    p = tmp_path / "k.xml"
    p.write_text(kwslist([det(), det(d="-1")]), encoding="utf-8")
    with pytest.raises(InputError, match=r"negative duration dur=-1 \(term 'K1', detection #1\)"):
        D.read_detections(str(p))
