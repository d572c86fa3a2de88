"""KWSEval's -j (--just-system-terms) and -N (--Namefile), and the options termeval refuses, on
hand-made cases (ATWV by hand: beta = 0.1 (1/0.0001 - 1) = 999.9, one trial per second)."""
from __future__ import annotations

import pytest

from termeval.bin import kwseval

BETA = 0.1 * (1 / 0.0001 - 1)
KWLIST = """<kwlist ecf_filename="ecf.xml" language="english" encoding="UTF-8" compareNormalize="lowercase" version="1">
<kw kwid="KW-1"><kwtext>cat</kwtext></kw>
<kw kwid="KW-2"><kwtext>dog</kwtext></kw>
<kw kwid="KW-3"><kwtext>bird</kwtext></kw>
</kwlist>
"""


def _ecf(*excerpts) -> str:
    rows = "".join(f'<excerpt audio_filename="{f}.sph" channel="1" tbeg="0" dur="{d}" source_type="cts"/>\n'
                   for f, d in excerpts)
    return f'<ecf source_signal_duration="150" version="1">\n{rows}</ecf>\n'


def _rttm(*words) -> str:
    return "".join(f"LEXEME {f} 1 {t} 0.5 {w} lex spk <NA>\n" for f, t, w in words)


def _kwslist(blocks: dict) -> str:
    rows = "".join(f'<detected_kwlist kwid="{k}" search_time="1" oov_count="0">\n'
                   + "".join(f'<kw file="{f}" channel="1" tbeg="{t}" dur="0.5" score="{s}" decision="{d}"/>\n'
                             for f, t, s, d in v) + "</detected_kwlist>\n" for k, v in blocks.items())
    return f'<kwslist kwlist_filename="kwlist.xml" language="english" system_id="">\n{rows}</kwslist>\n'


def _run(tmp_path, capsys, monkeypatch, ecf, rttm, dets, *more) -> tuple[int, str]:
    for name, text in (("ecf.xml", ecf), ("kwlist.xml", KWLIST), ("rttm", rttm), ("kwslist.xml", _kwslist(dets))):
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    rc = kwseval.main(["-e", "ecf.xml", "-r", "rttm", "-t", "kwlist.xml", "-s", "kwslist.xml", *more])
    return rc, capsys.readouterr().out


def _cell(text: str, row: str, col: int) -> str:
    return [x for x in text.splitlines() if x.startswith(row)][0].split("|")[col].strip()


def _atwv(out: str) -> str:
    return _cell(out, "|   Occurrence", 12)


JDETS = {"KW-1": [("A", 10, 0.9, "YES"), ("A", 50, 0.7, "YES")], "KW-2": []}     # KW-3: no block


def test_just_system_terms(tmp_path, capsys, monkeypatch):
    """KW-1: 1 hit of 2, 1 FA over 98 non-target trials; KW-2: an empty block (0); KW-3: no block
    -- scored (0) without -j, not scored at all with -j (not in bsum.txt either)."""
    args = (_ecf(("A", 100)), _rttm(("A", 10, "cat"), ("A", 20, "cat"), ("A", 30, "dog"), ("A", 40, "bird")), JDETS)
    tw1 = 0.5 - BETA / 98
    rc, out = _run(tmp_path, capsys, monkeypatch, *args, "-o", "-b", "-f", "-")
    assert rc == 0 and _atwv(out) == "%6.4f" % (tw1 / 3) and "KW-3" in out
    rc, out = _run(tmp_path, capsys, monkeypatch, *args, "-j", "-o", "-b", "-f", "-")
    assert rc == 0 and _atwv(out) == "%6.4f" % (tw1 / 2) and "KW-3" not in out and "KW-2" in out
    rc, long = _run(tmp_path, capsys, monkeypatch, *args, "--just-system-terms", "-o", "-b", "-f", "-")
    assert long == out
    # the exact parser (a comment sends the file off the bulk path) reports the same blocks
    text = (tmp_path / "kwslist.xml").read_text().replace("</kwslist>", "<!-- x --></kwslist>")
    (tmp_path / "kwslist.xml").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert kwseval.main(["-e", "ecf.xml", "-r", "rttm", "-t", "kwlist.xml", "-s", "kwslist.xml",
                         "-j", "-o", "-b", "-f", "-"]) == 0 and capsys.readouterr().out == out


def test_just_system_terms_segments(tmp_path, capsys, monkeypatch):
    """-g -j as KWSSegAlign: every term is still aligned (KW-3, no block, keeps its reference
    segment as a miss); only a term with no trial gets no empty block (KW-2: an empty block, no
    reference), which shows with -inc and in bsum.txt."""
    rttm = "SPEAKER A 1 5 45 <NA> <NA> spk <NA>\n" + _rttm(("A", 10, "cat"), ("A", 20, "cat"), ("A", 40, "bird"))
    args = (_ecf(("A", 100)), rttm, JDETS)
    runs = {}
    for more in ((), ("-j",), ("-inc",), ("-j", "-inc")):
        rc, runs[more] = _run(tmp_path, capsys, monkeypatch, *args, "-g", *more, "-o", "-b", "-f", "-")
        assert rc == 0
    atwv = {k: _cell(v, "|   Segment", 12) for k, v in runs.items()}
    assert atwv[()] == atwv[("-j",)] == atwv[("-j", "-inc")] != atwv[("-inc",)]
    assert "KW-3" in runs[("-j",)] and "KW-2" not in runs[("-j",)] and "KW-2" in runs[()]


NDETS = {"KW-1": [("A", 10, 0.9, "YES"), ("B", 20, 0.8, "YES"), ("A", 60, 0.5, "YES")],
         "KW-2": [("A", 30, 0.9, "YES"), ("B", 5, 0.7, "YES")]}


def test_namefile(tmp_path, capsys, monkeypatch):
    """Files A (100 s) and B (50 s). Without -N: TotDur 150; KW-1 2 hits of 2 + 1 FA, KW-2 1 of 1 +
    1 FA. With `-N a/1` (anchored, any case): TotDur 100 (calcTotalDur over A/1), KW-1's B
    reference and B detection are dropped; KW-2's B detection stays an FA, as KWSAlignment tests
    a detection only where its term has a reference occurrence in that file/channel."""
    args = (_ecf(("A", 100), ("B", 50)), _rttm(("A", 10, "cat"), ("B", 20, "cat"), ("A", 30, "dog")), NDETS)
    rc, out = _run(tmp_path, capsys, monkeypatch, *args, "-o", "-f", "-")
    want = ((1 - BETA / 148) + (1 - BETA / 149)) / 2
    assert rc == 0 and _atwv(out) == "%6.4f" % want and _cell(out, "|                          TotDur", 2) == "150"
    rc, out = _run(tmp_path, capsys, monkeypatch, *args, "-N", "a/1", "-o", "-f", "-")
    want = ((1 - BETA / 99) + (1 - BETA / 99)) / 2
    assert rc == 0 and _atwv(out) == "%6.4f" % want and _cell(out, "|                          TotDur", 2) == "100"
    # a second -N: both files again; a comma list is one regex in KWSEval 3.5.0 (its usage says a
    # list): no FILE/CHAN has a comma, no duration, KWSEval's error after alignment.csv's header
    rc, both = _run(tmp_path, capsys, monkeypatch, *args, "-N", "A/.*", "--Namefile", "b/1", "-o", "-f", "-")
    assert rc == 0 and _cell(both, "|                          TotDur", 2) == "150"
    rc, out = _run(tmp_path, capsys, monkeypatch, *args, "-N", "A/1,B/1", "-o", "-f", "-")
    assert rc == 1 and out.splitlines()[-1] == "[ERROR] parameter 'TotDur' must > 0"


def test_namefile_segments(tmp_path, capsys, monkeypatch):
    """-g -N as KWSSegAlign: only the segments of the matching file/channels are trials (A: 3
    segments, B: 3), the references and detections of the others are in no segment."""
    rttm = "SPEAKER A 1 5 45 <NA> <NA> spk <NA>\nSPEAKER B 1 15 10 <NA> <NA> spk <NA>\n" + _rttm(
        ("A", 10, "cat"), ("B", 20, "cat"), ("A", 30, "dog"))
    args = (_ecf(("A", 100), ("B", 50)), rttm, NDETS)
    rc, whole = _run(tmp_path, capsys, monkeypatch, *args, "-g", "-o", "-b", "-f", "-")
    rc2, a = _run(tmp_path, capsys, monkeypatch, *args, "-g", "-N", "A/1", "-o", "-b", "-f", "-")
    _, b = _run(tmp_path, capsys, monkeypatch, *args, "-g", "-N", "B/1", "-o", "-b", "-f", "-")
    tot = "|                         TotTrials"
    assert (rc, rc2) == (0, 0) and [_cell(x, tot, 2) for x in (whole, a, b)] == ["6", "3", "3"]
    # A: KW-1 1 hit (A 10) + 1 FA (A 60) of 3 segments; KW-2 1 hit; B: KW-1 1 hit, KW-2 1 FA only
    assert _cell(a, "|   Segment", 2) == "2" and _cell(b, "|   Segment", 2) == "1"


@pytest.mark.parametrize("more, name", [
    (["-T", "x:KW-1"], "-T (--Term)"), (["-G"], "-G (--Group-by-targ)"), (["-w"], "-w (--words-oov)"),
    (["--ExcludeCountsFromReports"], "--ExcludeCountsFromReports"), (["--zincludeRowTotals"], "--zincludeRowTotals")])
def test_refused_options(more, name, tmp_path, capsys, monkeypatch):
    rc, out = _run(tmp_path, capsys, monkeypatch, _ecf(("A", 100)), _rttm(("A", 10, "cat")), JDETS,
                   *more, "-o", "-f", "-")
    assert rc == 1 and out.splitlines() == [
        f"[ERROR] {name} is not supported by termeval's KWSEval (docs/std-kaldi-compat.md)"]


def test_drawing_options_accepted(tmp_path, capsys, monkeypatch):
    """-X -C -P -D -m --zIsoRatioDAF --ExcludePNGFileFromTxtTable change only F4DE's drawing; -a
    (articulated DET points, which F4DE announces) leaves this summary as it is."""
    args = (_ecf(("A", 100)), _rttm(("A", 10, "cat"), ("A", 20, "cat"), ("A", 30, "dog")), JDETS)
    rc, plain = _run(tmp_path, capsys, monkeypatch, *args, "-o", "-f", "-")
    rc2, out = _run(tmp_path, capsys, monkeypatch, *args, "-a", "-X", "-C", "-P", "-D", "-m", "true",
                    "--zIsoRatioDAF", "--ExcludePNGFileFromTxtTable", "-o", "-f", "-")
    line = "Computing requested DET curves and reports\n"
    assert (rc, rc2) == (0, 0) and out == plain.replace(line, line + "Building Articulated DETs\n")


def test_engine_file_channels_and_checks(tmp_path):
    """The engine's --file-channels: without --compat f4de every detection is filtered (KW-2's B
    false alarm goes too); the option checks (a bad regex, --compat kaldi, segment alignment)."""
    from termeval.core.errors import InputError     # why: only this test needs them
    from termeval.std.detections import read_detections
    from termeval.std.kwsdir import load_kws_dir
    from termeval.std.options import StdOptions
    from termeval.std.score import Params, score_std
    (tmp_path / "ecf.xml").write_text(_ecf(("A", 100), ("B", 50)))
    (tmp_path / "kwlist.xml").write_text(KWLIST)
    (tmp_path / "rttm").write_text(_rttm(("A", 10, "cat"), ("B", 20, "cat"), ("A", 30, "dog")))
    (tmp_path / "kwslist.xml").write_text(_kwslist(NDETS))
    k, d = load_kws_dir(str(tmp_path)), read_detections(str(tmp_path / "kwslist.xml"))
    res = score_std(k, d, Params(preset="nist2006", file_channels=["A/1"]))
    assert res.trials["t_audio"] == 100 and res.n_fa.tolist()[:2] == [1, 0] and res.ntrue.tolist()[:2] == [1, 1]
    res = score_std(k, d, Params(preset="nist2006", compat_f4de=True, file_channels=["A/1"]))
    assert res.n_fa.tolist()[:2] == [1, 1]
    base = dict(kws_dir=str(tmp_path), detections=str(tmp_path / "kwslist.xml"))
    for kw, msg in (({"file_channels": "A/(1"}, "bad regular expression"),
                    ({"compat": "kaldi", "just_system_terms": True}, "not compute-atwv's")):
        with pytest.raises(InputError, match=msg):
            StdOptions(**base, **kw).validate()


@pytest.mark.parametrize("extra, selfclosing", [("", False), (' extra="x"', False), ("", True)])
def test_readers_report_empty_blocks(extra, selfclosing, tmp_path):
    """Both detection readers list every block, empty ones included (what -j reads): the bulk
    path (canonical or not) and the exact parser agree; a self-closing block goes to the exact one."""
    from termeval.std import detections as D     # why: the readers' private paths, this test only
    det = f'<kw file="a" channel="1" tbeg="1" dur="0.5" score="0.5" decision="YES"{extra}/>'
    body = (f'<detected_kwlist kwid="E0">\n</detected_kwlist>\n<detected_kwlist kwid="K1">\n{det}\n'
            '</detected_kwlist>\n<detected_kwlist kwid="E1"></detected_kwlist>\n')
    want = ["E0", "K1", "E1"] + (["E2"] if selfclosing else [])
    body += '<detected_kwlist kwid="E2"/>\n' if selfclosing else ""
    p = tmp_path / "k.xml"
    p.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<kwslist system_id="s">\n{body}</kwslist>\n')
    fast, exact = D._read_xml_fast(str(p)), D._read_xml(str(p))
    assert (fast is None) == selfclosing and exact.blocks == want and exact.term.tolist() == [1]
    assert D.read_detections(str(p)).blocks == want
    if fast is not None:
        assert fast.blocks == want and fast.term.tolist() == [1]


def _attr_kwlist(value: str) -> str:
    info = f"<kwinfo><attr><name>A</name><value>{value}</value></attr></kwinfo>"
    return KWLIST.replace("<kwtext>cat</kwtext>", "<kwtext>cat</kwtext>" + info) \
                 .replace("<kwtext>dog</kwtext>", "<kwtext>dog</kwtext>" + info.replace(value, "x"))


@pytest.mark.parametrize("option, spec", [("-q", "A:regex=(a+)+$"), ("-N", "(a+)+"), ("-q", "A:regex=(a|a)*b$")])
def test_nested_repetition_regexes_answer_at_once(tmp_path, capsys, monkeypatch, option, spec):
    """Issue 40 item 11: `-q 'A:regex=(a+)+$'` and `-N '(a+)+'` on a 60-character value are
    answered at once (Python's re takes 2^60 steps), as F4DE's Perl does."""
    import time
    long_name = "a" * 60 + "!"
    args = (_ecf((long_name, 100), ("B", 50)), _rttm((long_name, 10, "cat"), ("B", 20, "dog")),
            {"KW-1": [(long_name, 10, 0.9, "YES")], "KW-2": [("B", 20, 0.8, "YES")]})
    (tmp_path / "kwlist.xml").write_text(_attr_kwlist(long_name))
    start = time.monotonic()
    for name, text in (("ecf.xml", args[0]), ("rttm", args[1]), ("kwslist.xml", _kwslist(args[2]))):
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    rc = kwseval.main(["-e", "ecf.xml", "-r", "rttm", "-t", "kwlist.xml", "-s", "kwslist.xml", option, spec, "-o", "-f", "-"])
    out, err = capsys.readouterr()
    assert time.monotonic() - start < 20
    # nothing matches (the value ends in '!'): F4DE groups nothing, nor does termeval; a -N matching
    # no file leaves no duration: KWSEval's error
    assert rc == (1 if option == "-N" else 0), err
    if option == "-N":
        assert out.splitlines()[-1] == "[ERROR] parameter 'TotDur' must > 0"


def test_exponential_regex_is_one_error_line(monkeypatch):
    """A pattern that backtracks exponentially even with the guards is stopped by the time
    budget: one error line naming the option, no hang."""
    from termeval.core.errors import InputError
    from termeval.std import userregex
    monkeypatch.setattr(userregex, "MATCH_SECONDS", 0.2)
    rx = userregex.UserRegex("(a|aa)+$", "--term-attr")
    with pytest.raises(InputError) as e:
        for _ in range(3):
            rx.search("a" * 80 + "!")
    assert e.value.format().startswith("--term-attr: the regular expression '(a|aa)+$' took over 0.2 s")
    assert userregex.UserRegex("(a|aa)+$", "--term-attr").search("aaaa")


def test_file_channels_are_perl_anchored():
    """F4DE -N and -Y match /^RE$/i: the anchors bind to the first and last alternative."""
    from termeval.std.score import file_channel_regexes
    rx = file_channel_regexes(["a/1|B/2"])[0]
    assert rx.search("A/1") and rx.search("xb/2") and rx.search("a/1x") and not rx.search("xa/1")
