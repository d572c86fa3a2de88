"""The STD engine features F4DE KWSEval's suite exercises: segment alignment (-g), term-text
normalisation (-x charsplit/notASCII/deleteHyphens), one condition per attribute value (-q),
named source-type conditions (-Y), conditional reports (-O -B) and CSV reports (-y CSV).

F4DE parity: every report of its tests 2a, 2b, 2c, 6b, 7b-7e and 9 (../shared/reference/f4de)
byte-identical (headline numbers and per-term rows included); skipped without ../shared.
Hand-made cases check the segment cutting, the per-segment rules and the character split."""
from __future__ import annotations

import os
import re

import numpy as np
import pytest

from termeval.core.errors import InputError
from termeval.std import f4de_reports, segalign, textnorm
from termeval.std.detections import read_detections
from termeval.std.ecf import read_ecf
from termeval.std.kwsdir import load_kws_dir
from termeval.std.options import StdOptions
from termeval.std.score import (Params, score_conditions, score_std, source_type_condition,
                                term_conditions)
from termeval.std.stage import conditions_of, params_of

T5 = ("test5.short.ecf.xml", "test5.rttm", "test5.kwslist.xml", "test5.kwlist.xml")
T6 = ("test6.ecf.xml", "test6.rttm", "test6.kwslist.xml", "test6.kwlist.xml")
T8 = ("test8.ecf.xml", "test8.cantonese.rttm", "test8.cantonese.kwslist.xml", "test8.cantonese.kwlist.xml")
T9 = ("test9.ecf.xml", "test9.rttm", "test9.kwslist.xml", "test9.kwlist.xml")
# expected report, inputs, Params overrides, --term-normalization, condition (-q / -Y spec)
CASES = [("res_test2a.txt", T6, {}, "", "Y:BN+CTS:BNEWS,CTS"),
         ("res_test2b.txt", T6, {}, "", "q:Characters:regex=^[35]$"),
         ("res_test2c.txt", T6, {}, "", "q:Characters:regex=^[35]$"),
         ("res_test6b.txt", T5, {"alignment": "segment"}, "", None),
         ("res_test7b.txt", T8, {}, "charsplit", None),
         ("res_test7c.txt", T8, {}, "charsplit,notASCII", None),
         ("res_test7d.txt", T8, {}, "charsplit,deleteHyphens", None),
         ("res_test7e.txt", T8, {}, "charsplit,deleteHyphens,notASCII", None),
         ("res_test9.txt", T9, {"alignment": "segment"}, "", None)]


def _expected(shared, name):
    with open(os.path.join(shared, "reference", "f4de", "expected", name), encoding="utf-8") as f:
        body = f.read().split("[[STDOUT]]\n", 1)[1].split("[[STDERR]]", 1)[0]
    parts = re.split(r"^(?:Conditional )?(?:Block )?Summary Report: -\n", body, flags=re.M)
    return parts[1], parts[2].rstrip("\n") + "\n"


def _run(shared, files, kw, norm, cond):
    c = os.path.join(shared, "reference", "f4de", "common")
    ecf, rttm, kws, kwl = (os.path.join(c, f) for f in files)
    k = load_kws_dir(c, ecf=ecf, rttm=rttm, termlist=kwl, term_normalization=norm)
    d = read_detections(kws)
    p = Params(preset="nist2006", compat_f4de=True, **kw)
    res = score_std(k, d, p)
    conds = None
    if cond:
        kind, spec = cond.split(":", 1)
        cl = [source_type_condition(spec)] if kind == "Y" else term_conditions(k.terms, spec)
        conds = score_conditions(k, d, p, cl)
    return res, conds


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_reports_equal_f4de(shared, case):
    res, conds = _run(shared, *case[1:])
    texts = f4de_reports.report_texts(res, conds)
    got = (texts["cond.sum.txt"], texts["cond.bsum.txt"]) if conds else (texts["sum.txt"], texts["bsum.txt"])
    want = _expected(shared, case[0])
    assert got[0] == want[0]
    assert got[1] == want[1]


def test_headlines(shared):
    """The numbers behind the reports, at full precision (docs/std-metrics.md, KWSEval features)."""
    r, _ = _run(shared, T9, {"alignment": "segment"}, "", None)
    assert r.extra["trials_per_term"] == 8 and r.extra["n_segments"] == 8
    assert r.metrics["atwv"] == pytest.approx(1 - 999.9 * (0 + 2 / 7 + 1 / 7) / 3)
    assert r.metrics["mtwv"] == pytest.approx(5 / 6) and r.metrics["mtwv_threshold"] == 0.952
    r, _ = _run(shared, T5, {"alignment": "segment"}, "", None)
    # TERM-01/02 have a target in each of the 10 segments: no P_fa, no TWV, out of the P_fa mean
    assert np.isnan(r.twv.term_twv[:2]).all() and r.metrics["atwv"] == pytest.approx(1 - (0 + 0.5 + 0.6) / 3)
    r, _ = _run(shared, T8, {}, "charsplit,deleteHyphens,notASCII", None)
    assert r.terms.texts[:4] == ["听 到", "到", "到", "听"] and r.metrics["atwv"] == pytest.approx(0.8)


def test_condition_without_references_has_rows(shared):
    """Characters-5 holds only TERM-04 (no reference): undefined figures, no crash (F4DE dies)."""
    _, conds = _run(shared, *CASES[1][1:])
    (n3, r3, s3), (n5, r5, s5) = conds
    assert (n3, n5) == ("Characters-3", "Characters-5") and s5.sum() == 1
    assert r5.metrics["atwv"] is None and r5.metrics["mtwv"] is None and r5.metrics["n_terms"] == 0
    from termeval.std.figures import std_condition
    assert std_condition(r5, (10,))["map"] is None and std_condition(r3, (10,))["map"] is not None
    csv = f4de_reports.report_texts(r3, conds, fmt="csv")
    assert set(csv) == {"sum.csv", "bsum.csv", "cond.sum.csv", "cond.bsum.csv"}
    assert csv["cond.sum.csv"].splitlines()[2] == ('"Characters-5","0","0","0","0","0","0","0","NA","NA","NA",'
                                                   '"NA","NA","NA","NA","NaN"')


# --- hand-made cases ---------------------------------------------------------------------------

def _write(tmp_path, rttm, ecf_excerpts, kwlist, kwslist):
    (tmp_path / "rttm").write_text(rttm)
    ex = "".join(f'<excerpt audio_filename="{f}" channel="1" tbeg="{b}" dur="{d}" source_type="bnews"/>\n'
                 for f, b, d in ecf_excerpts)
    (tmp_path / "ecf.xml").write_text(f'<ecf source_signal_duration="100" language="x" version="1">\n{ex}</ecf>\n')
    kws = "".join(f'<kw kwid="{i}"><kwtext>{t}</kwtext></kw>\n' for i, t in kwlist)
    (tmp_path / "kwlist.xml").write_text(f'<kwlist language="x" encoding="UTF-8" compareNormalize="">\n{kws}</kwlist>\n')
    body = ""
    for kwid, dets in kwslist:
        body += f'<detected_kwlist kwid="{kwid}">\n' + "".join(
            f'<kw file="A" channel="1" tbeg="{b}" dur="{d}" score="{s}" decision="{y}"/>\n' for b, d, s, y in dets)
        body += "</detected_kwlist>\n"
    (tmp_path / "kwslist.xml").write_text(f'<kwslist kwlist_filename="k">\n{body}</kwslist>\n')
    return load_kws_dir(str(tmp_path)), read_detections(str(tmp_path / "kwslist.xml"))


RTTM = """SPEAKER A 1 1.0 2.0 <NA> <NA> s1 <NA>
LEXEME A 1 1.0 0.5 ab lex s1 <NA>
LEXEME A 1 2.0 0.5 ab lex s1 <NA>
SPEAKER A 1 2.5 1.5 <NA> <NA> s2 <NA>
LEXEME A 1 3.5 0.5 ab lex s2 <NA>
SPEAKER A 1 4.0 1.0 <NA> <NA> s1 <NA>
LEXEME A 1 4.2 0.3 ab lex s1 <NA>
LEXEME A 1 4.6 0.3 cd lex s1 <NA>
SPEAKER A 1 8.0 1.0 <NA> <NA> s2 <NA>
LEXEME A 1 8.5 0.4 x lex s2 <NA>
"""


def test_segments_cut_by_speaker_turns(tmp_path):
    """Excerpt 0-10: gap 0-1, s1 1-3 extended by the overlapping s2 turn to 1-4, s1 4-5 starts a
    new segment at 4, gap 5-8, s2 8-9, tail 9-10: 6 segments, 3 of them speech."""
    kws, _ = _write(tmp_path, RTTM, [("A", 0, 10)], [("K1", "ab")], [])
    turns = segalign.read_speaker_turns(str(tmp_path / "rttm"))
    seg, tags = segalign.build_segments(read_ecf(str(tmp_path / "ecf.xml")), turns)
    assert seg.beg.tolist() == [0, 1, 4, 5, 8, 9] and seg.end.tolist() == [1, 4, 5, 8, 9, 10]
    assert seg.speech.tolist() == [False, True, True, False, True, False]
    lseg = segalign.lexeme_segments(kws.lexemes, tags)
    assert lseg.tolist() == [1, 1, 1, 2, 2, 4]


def test_segment_alignment_rules(tmp_path):
    """'ab' occurs 3 times in segment 1-4 (one reference) and once in 4-5; 'ab cd' once in 4-5.
    Of two detections in one segment only the higher-scored counts; one in no segment is
    ignored; a segment without the term is a false alarm."""
    dets = [("K1", [(1.0, 0.5, 0.6, "YES"), (3.0, 0.5, 0.9, "YES"), (8.2, 0.5, 0.7, "YES"), (11.0, 1.0, 0.8, "YES")]),
            ("K2", [(4.2, 0.7, 0.95, "YES")])]
    kws, d = _write(tmp_path, RTTM, [("A", 0, 10)], [("K1", "ab"), ("K2", "ab cd")], dets)
    r = score_std(kws, d, Params(preset="nist2006", alignment="segment"))
    assert r.extra["trials_per_term"] == 6
    assert r.ntrue.tolist() == [2, 1] and r.n_hits.tolist() == [1, 1] and r.n_fa.tolist() == [1, 0]
    assert r.metrics["n_detections"] == 3      # the 0.6 duplicate and the 11.0 one are not trials
    assert r.twv.term_pfa[0] == pytest.approx(1 / 4)


def test_charsplit_text():
    cs = textnorm.charsplit_text
    assert cs("听到") == "听 到" and cs("到-") == "到 -" and cs(" a  b ") == "a b"
    assert cs("hello", not_ascii=True) == "hello" and cs("听to到", not_ascii=True) == "听 to 到"
    assert cs("ab-cd", delete_hyphens=True) == "a b c d"
    assert cs("ab-cd", not_ascii=True, delete_hyphens=True) == "ab cd"
    assert textnorm.parse_modes("CharSplit,notascii") == (True, True, False)
    with pytest.raises(InputError):
        textnorm.parse_modes("charsplit,bogus")
    assert textnorm.mode_warnings("notASCII") and not textnorm.mode_warnings("charsplit,notASCII")


def test_charsplit_lexeme_times(tmp_path):
    """A 3-character LEXEME 1.0 + 1.0 s: parts of 0.333 s at 1.0, 1.333, 1.666."""
    rttm = "SPEAKER A 1 0 5 <NA> <NA> s <NA>\nLEXEME A 1 1.0 1.0 abc lex s <NA>\n"
    kws, _ = _write(tmp_path, rttm, [("A", 0, 5)], [("K1", "bc")], [])
    lex = textnorm.charsplit_lexemes(kws.lexemes, False, False)
    assert lex.token.tolist() == ["a", "b", "c"]
    assert lex.tbeg.tolist() == [1.0, 1.333, 1.666] and lex.tend.tolist() == [1.333, 1.666, 1.999]
    k2 = load_kws_dir(str(tmp_path), term_normalization="charsplit")
    assert len(k2.occ) == 1 and k2.occ.beg[0] == 1.333 and k2.occ.end[0] == 1.999


def test_options_map_to_conditions(tmp_path):
    rttm = "LEXEME A 1 1.0 0.5 ab lex s <NA>\n"
    kws, _ = _write(tmp_path, rttm, [("A", 0, 10)], [("K1", "ab")], [])
    kws.terms.attrs[0]["N"] = "3"
    base = dict(kws_dir=str(tmp_path), detections=str(tmp_path / "kwslist.xml"), preset="nist2006")
    a = StdOptions(**base, term_attr="N:regex=3", term_attr_mode="per-value", source_type="BN:bnews")
    assert [c.name for c in conditions_of(a, kws)] == ["N-3", "BN"]
    p = params_of(a)
    assert p.term_attr is None and p.source_types is None    # the main run scores everything
    p = params_of(StdOptions(**base, term_attr="N:3", source_type="bnews,cts"))
    assert p.term_attr == ("N", "3") and p.source_types == ["bnews", "cts"]
    with pytest.raises(InputError, match="--term-normalization: unknown value 'nope'"):
        StdOptions(**base, term_normalization="charsplit,nope").validate()
    with pytest.raises(InputError):
        source_type_condition("BN:")


def test_segment_needs_rttm(tmp_path):
    (tmp_path / "hitlist").write_text("KW1 1 100 150 0\n")
    (tmp_path / "utt2dur").write_text("u1 10.0\n")
    (tmp_path / "keywords.txt").write_text("KW1 ab\n")
    with pytest.raises(InputError):
        load_kws_dir(str(tmp_path), term_normalization="charsplit")


def test_global_measures_columns(shared):
    """-zG MAP / MAPpct: F4DE's string-ordered AP per term (%.2f, %.1f as a percentage) and the
    set means; a condition without a computable AP gets NA where F4DE divides by zero."""
    res, conds = _run(shared, *CASES[1][1:])
    t = f4de_reports.report_texts(res, conds, measures=("MAP", "MAPpct"))
    head, row3, row5 = t["cond.sum.txt"].splitlines()[-4], *t["cond.sum.txt"].splitlines()[-2:]
    assert head.split("|")[-3:-1] == ["   MAP   ", "  MAP%   "]
    assert row3.split("|")[-3:-1] == ["    0.65 ", "    64.9 "] and row5.split("|")[-3:-1] == ["      NA ", "      NA "]
    ap = [ln.split("|")[-3].strip() for ln in t["bsum.txt"].splitlines() if "TERM-0" in ln]
    assert ap == ["0.65", "0.29", "0.40", ""]     # TERM-04 is not evaluated
    with pytest.raises(ValueError):
        f4de_reports.report_texts(res, None, measures=("Optimum",))


def test_segment_no_term_with_pfa(tmp_path):
    """One segment, one term said in it: N - targets = 0, so no P_fa: ATWV and MTWV undefined
    (F4DE's mean of no P_fa is undefined), P_miss still defined."""
    rttm = "SPEAKER A 1 0 5 <NA> <NA> s <NA>\nLEXEME A 1 1.0 0.5 ab lex s <NA>\n"
    kws, d = _write(tmp_path, rttm, [("A", 0, 5)], [("K1", "ab")], [("K1", [(1.0, 0.5, 0.9, "YES")])])
    r = score_std(kws, d, Params(preset="nist2006", alignment="segment"))
    assert r.extra["trials_per_term"] == 1 and r.metrics["p_miss"] == 0.0
    assert r.metrics["atwv"] is None and r.metrics["mtwv"] is None and r.metrics["p_fa"] is None


def test_per_value_regex_is_a_search(tmp_path):
    rttm = "LEXEME A 1 1.0 0.5 ab lex s <NA>\n"
    kws, _ = _write(tmp_path, rttm, [("A", 0, 10)], [("K1", "ab"), ("K2", "cd"), ("K3", "ef")], [])
    for a, v in zip(kws.terms.attrs, ["03", "13", "5"]):
        a["Characters"] = v
    assert [c.name for c in term_conditions(kws.terms, "Characters:regex=3")] == ["Characters-03", "Characters-13"]
    assert [c.name for c in term_conditions(kws.terms, "Characters")] == ["Characters-03", "Characters-13", "Characters-5"]
    with pytest.raises(InputError, match="matches no value"):
        term_conditions(kws.terms, "Characters:regex=^7$")
    with pytest.raises(InputError, match="no term has the attribute"):
        term_conditions(kws.terms, "Syllables:regex=.")


def test_kaldi_mode_refuses_f4de_features(tmp_path):
    base = dict(kws_dir=str(tmp_path), detections=str(tmp_path / "r"), compat="kaldi")
    for kw in ({"alignment": "segment"}, {"term_normalization": "charsplit"}, {"term_attr_mode": "per-value"}):
        with pytest.raises(InputError, match="not compute-atwv's"):
            StdOptions(**base, **kw).validate()
