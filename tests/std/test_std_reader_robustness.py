"""Issue 12: every hostile STD input gives one clean InputError naming file:line (or the
option), never a traceback from numpy, expat or re."""
from __future__ import annotations

import pytest

from termeval.bin import score_std
from termeval.core.errors import InputError
from termeval.std import kaldi_refs as kaldi
from termeval.std.detections import read_detections
from termeval.std.ecf import read_ecf
from termeval.std.rttm import read_rttm
from termeval.std.termlist import parse_term_attr, read_termlist

EXC = '<excerpt audio_filename="a.wav" channel="{ch}" tbeg="{tb}" dur="{du}"/>'
KWS = ('<kwslist system_id="s">\n<detected_kwlist kwid="K1">\n'
       '<kw file="a" channel="{ch}" tbeg="1" dur="1" score="0.5" decision="YES"/>\n</detected_kwlist>\n</kwslist>\n')


def err(fn, path, match):
    with pytest.raises(InputError, match=match) as e:
        fn(str(path))
    assert e.value.path == str(path)
    return e.value


@pytest.mark.parametrize("tb,du", [("0", "1e400"), ("0", "1e999"), ("1e308", "1e308"), ("0", "nan")])
def test_ecf_huge_durations(tmp_path, tb, du):
    p = tmp_path / "ecf.xml"
    p.write_text('<ecf version="1">\n' + EXC.format(ch=1, tb=tb, du=du) + "\n</ecf>\n")
    assert err(read_ecf, p, "finite|too large").line == 2


def test_utt2dur_huge(tmp_path):
    p = tmp_path / "utt2dur"
    p.write_text("u1 3.5\nu2 1e999\n")
    assert err(kaldi.read_durations, p, "not a finite number").line == 2


@pytest.mark.parametrize("ch", ["2147483648", "99999999999", "-2147483649"])
def test_channels_beyond_int32(tmp_path, ch):
    p = tmp_path / "ecf.xml"
    p.write_text('<ecf version="1">\n' + EXC.format(ch=ch, tb=0, du=1) + "\n</ecf>\n")
    assert err(read_ecf, p, "int32").line == 2
    p = tmp_path / "rttm"
    p.write_text(f"LEXEME a 1 1.0 0.5 w lex s1 <NA>\nLEXEME a {ch} 1.0 0.5 w lex s1 <NA>\n")
    assert err(read_rttm, p, "int32").line == 2
    p = tmp_path / "kwslist.xml"
    p.write_text(KWS.format(ch=ch))
    assert err(read_detections, p, "int32").line == 3
    p.write_text(KWS.format(ch=ch).replace("/>", "><!-- c --></kw>"))  # the callback parser
    assert err(read_detections, p, "int32").line == 3


def test_int32_channel_limits_are_accepted(tmp_path):
    p = tmp_path / "rttm"
    p.write_text("LEXEME a 2147483647 1.0 0.5 w lex s1 <NA>\n")
    assert read_rttm(str(p)).chan.tolist() == [2147483647]


@pytest.mark.parametrize("reader,body", [(read_ecf, "<ecf/>"), (read_termlist, "<kwlist/>"),
                                         (read_detections, "<kwslist/>")])
@pytest.mark.parametrize("enc", ["UTF-9", "shift_jis"])
def test_unknown_xml_encoding(tmp_path, reader, body, enc):
    p = tmp_path / "f.xml"
    p.write_text(f'<?xml version="1.0" encoding="{enc}"?>\n{body}\n')
    assert err(reader, p, "encoding").line == 1


def test_rttm_with_only_speaker_lines(tmp_path):
    p = tmp_path / "rttm"
    p.write_text("SPEAKER a 1 0.0 10.0 <NA> <NA> s1 <NA>\nSPEAKER a 1 10.0 5.0 <NA> <NA> s2 <NA>\n")
    assert err(read_rttm, p, "no LEXEME").line == 2


def test_invalid_term_attr_regex_names_the_option(tmp_path, capsys):
    for bad in ["Characters:(", "Characters:[a-", "Characters", ":x"]:
        with pytest.raises(InputError, match="--term-attr") as e:
            parse_term_attr(bad)
        assert e.value.path is None
    assert parse_term_attr("Characters:regex=^[35]$") == ("Characters", "^[35]$")
    # through the command line: one line, before any file is read (the paths do not exist)
    with pytest.raises(SystemExit):
        from termeval.run.cli import run
        run(score_std.main, ["--term-attr", "x:(", str(tmp_path), str(tmp_path), str(tmp_path / "e")])
    msg = capsys.readouterr().err.strip().splitlines()[0]     # the error line, then a usage hint
    assert ": error: argument --term-attr: invalid regular expression '(': missing )" in msg


def test_long_lines_are_clipped_in_messages(tmp_path):
    long = "9" * 5000 + "x"
    p = tmp_path / "kwslist.xml"
    p.write_text(KWS.format(ch=1).replace('tbeg="1"', f'tbeg="{long}"'))
    assert len(err(read_detections, p, "tbeg").format()) < 400
    p = tmp_path / "rttm"
    p.write_text(f"LEXEME a 1 {long} 0.5 w lex s1 <NA>\n")
    assert len(err(read_rttm, p, "tbeg").format()) < 400
    p = tmp_path / "utt2dur"
    p.write_text(f"u {long}\n")
    assert len(err(kaldi.read_durations, p, "duration").format()) < 400
    p = tmp_path / "ecf.xml"
    p.write_text('<ecf version="1">\n' + EXC.format(ch=long, tb=0, du=1) + "\n</ecf>\n")
    assert len(err(read_ecf, p, "channel").format()) < 400


# ---------------------------------------- totals beyond float: one line naming the file (issue 21)

@pytest.fixture(scope="module")
def example_std(root, tmp_path_factory):
    import subprocess
    import sys
    d = tmp_path_factory.mktemp("std") / "ex"
    subprocess.run([sys.executable, "local/make_example_std.py", str(d)], cwd=root, check=True, capture_output=True)
    return d


def _score_std_sh(root, cwd, *args):
    import subprocess
    return subprocess.run(["bash", f"{root}/steps/score_std.sh", "--plots", "false", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("dur,total", [("1e308", "inf"), ("1e300", "2e+300"), ("1e16", "2e+16")])
def test_ecf_total_duration_beyond_the_trial_count(root, example_std, tmp_path, dur, total):
    """Each excerpt finite, their total not (or beyond 2^53 trials): was an internal
    OverflowError in round(T) or in the int64 trial counts."""
    import shutil
    kws = tmp_path / "kws"
    shutil.copytree(example_std / "kws", kws)
    ecf = (kws / "ecf.xml").read_text()
    (kws / "ecf.xml").write_text(ecf.replace('dur="95.000"', f'dur="{dur}"').replace('dur="120.000"', f'dur="{dur}"'))
    r = _score_std_sh(root, tmp_path, str(kws), str(example_std / "detections.stdlist.xml"), "exp")
    assert r.returncode == 1 and "internal error" not in r.stderr
    assert r.stderr.splitlines()[-1] == (
        f"score_std.py: error: {kws}/ecf.xml: the total audio duration {total} s gives "
        f"{total} trials per term, more than 2^53 (durations in the wrong unit?)")


@pytest.mark.parametrize("compat,dur,message", [
    ("none", "1e300", "the total audio duration 2e+300 s gives 2e+300 trials per term, more than 2^53 "
                      "(durations in the wrong unit?)"),
    ("none", "1e308", "the total audio duration inf s gives inf trials per term, more than 2^53 "
                      "(durations in the wrong unit?)"),
    ("kaldi", "1e300", "the total duration must be a finite number > 0 within float32 (compute-atwv's), got 2e+300"),
    ("kaldi", "1e308", "the total duration must be a finite number > 0 within float32 (compute-atwv's), got inf"),
])
def test_utt2dur_total_beyond_float(root, tmp_path, compat, dur, message):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "hitlist").write_text("KW1 1 100 150 1\n")
    (kws / "keywords.txt").write_text("KW1 alpha\n")
    (kws / "utt2dur").write_text(f"1 {dur}\n2 {dur}\n")
    (tmp_path / "res").write_text("KW1 1 101 149 0.9\n")
    r = _score_std_sh(root, tmp_path, "--compat", compat, "kws", "res", "exp")
    assert r.returncode == 1 and "internal error" not in r.stderr
    assert r.stderr.splitlines()[-1] == f"score_std.py: error: kws/utt2dur: {message}"   # one local process


def test_resource_durations_beyond_float(tmp_path):
    from termeval.resources import resources
    with pytest.raises(InputError, match="the audio duration must be a finite number > 0, got inf"):
        resources.compute(None, None, float("inf"), None)
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "tlist.xml").write_text(
        '<termlist>' + "".join(f'<term termid="q{i}"><termtext>w</termtext><terminfo><attr><name>dur</name>'
                               f'<value>1e308</value></attr></terminfo></term>' for i in range(2)) + '</termlist>')
    with pytest.raises(InputError) as e:
        resources.query_duration_from_termlist(str(kws))
    assert e.value.format() == f"{kws}/tlist.xml: the query durations sum beyond a float (durations in the wrong unit?)"


# A list whose detections are all plain self-closing elements is checked by expat around them
# only (xmlsafe.check_without): whatever could make the whole file malformed must still be
# reported as the whole-file check reports it, naming the line.
PLAIN = ('<?xml version="1.0" encoding="{enc}"?>\n<kwslist system_id="s">\n<detected_kwlist kwid="K1">\n'
         '<kw file="{f}" channel="1" tbeg="1" dur="1" score="0.5" decision="YES"/>\n'
         '<kw file="b" channel="1" tbeg="2" dur="1" score="0.25" decision="NO" />\n</detected_kwlist>\n'
         '<detected_kwlist kwid="K2">\n</detected_kwlist>\n{tail}')


@pytest.mark.parametrize("f,enc,tail,line", [
    ("a\x01", "UTF-8", "</kwslist>\n", 4),                  # a control character in a value
    ("a\x0c", "UTF-8", "</kwslist>\n", 4),
    ("a\udcff", "UTF-8", "</kwslist>\n", 4),                # invalid UTF-8 in a value
    ("a", "UTF-8", "</kwslist>\n<x/>\n", 10),                # junk after the root element
    ("a", "UTF-8", "", 9),                                   # the root never closed
    ("a", "UTF-8", "</kwslist>\n\x02", 10),
])
def test_plain_detections_malformed_elsewhere(tmp_path, f, enc, tail, line):
    from termeval.std import xmlsafe
    p = tmp_path / "k.xml"
    p.write_bytes(PLAIN.format(f=f, enc=enc, tail=tail).encode("utf-8", "surrogateescape"))
    e = err(read_detections, p, "malformed XML")
    whole = err(xmlsafe.check, p, "malformed XML")           # what the whole-file check says
    assert (e.line, e.message) == (whole.line, whole.message) and e.line == line


def test_plain_detections_read_as_the_exact_parser_reads_them(tmp_path):
    from termeval.std.detections import _read_xml, _read_xml_fast
    p = tmp_path / "k.xml"
    for enc, f in (("UTF-8", "caf\u00e9"), ("ISO-8859-1", "caf\u00e9")):   # latin-1: checked whole
        p.write_bytes(PLAIN.format(f=f, enc=enc, tail="</kwslist>\n").encode(enc.lower()))
        fast, exact = _read_xml_fast(str(p)), _read_xml(str(p))
        assert fast is not None or enc != "UTF-8"
        if fast is not None:
            assert fast.file_ids == exact.file_ids == ["caf\u00e9", "b"]
            assert fast.blocks == exact.blocks == ["K1", "K2"]
            assert fast.score.tolist() == exact.score.tolist() == [0.5, 0.25]
            assert fast.decision.tolist() == exact.decision.tolist() == [1, 0]


def test_fast_reader_channels_and_colons_as_the_exact_parser(tmp_path):
    # one channel: a constant column; a ':' in a value: not a namespace prefix (a prefixed
    # element still goes to the exact parser)
    from termeval.std.detections import _read_xml, _read_xml_fast
    p = tmp_path / "k.xml"
    for chans, tag, fast_ok in ((("1", "1"), "kw", True), (("2", "7"), "kw", True), (("1", "1"), "x:kw", False)):
        p.write_text(PLAIN.format(f="a:b", enc="UTF-8", tail="</kwslist>\n")
                     .replace('channel="1"', f'channel="{chans[0]}"', 1)
                     .replace('channel="1"', f'channel="{chans[1]}"', 1)
                     .replace("<kw ", f"<{tag} ", 1)
                     .replace("<kwslist ", f'<kwslist xmlns:x="u" ' if tag != "kw" else "<kwslist ", 1),
                     encoding="utf-8")
        fast, exact = _read_xml_fast(str(p)), _read_xml(str(p)) if fast_ok else None
        assert (fast is not None) == fast_ok
        if fast_ok:
            assert fast.chan.tolist() == exact.chan.tolist() == [int(c) for c in chans]
            assert fast.file_ids == exact.file_ids == ["a:b", "b"]


def test_kwslist_with_invalid_utf8_is_one_error_not_a_decode_error(tmp_path):
    # found by tests/std/test_fuzz_std_readers.py: the fast reader decoded before checking
    p = tmp_path / "k.xml"
    p.write_bytes(b'<kwslist kwlist_filename="kwlist.xml" language="english" system_id="s">\n'
                  b'<detected_kwlist kwid="K1" search_time="\x80" oov_count="0">\n'
                  b'<kw file="F1" channel="1" tbeg="5.01" dur="0.49" score="0.9" decision="YES"/>\n'
                  b'</detected_kwlist>\n</kwslist>\n')
    with pytest.raises(InputError) as e:
        read_detections(str(p))
    assert e.value.path == str(p) and e.value.line == 2


@pytest.mark.parametrize("content", ["", "  \n\n"])
@pytest.mark.parametrize("fmt", ["auto", "kwslist", "stdlist"])
def test_empty_detection_file_is_an_error(tmp_path, content, fmt):
    """Issue 40 item 13: a 0-byte (or blank) detection list is an error naming it, not 'no
    detections'; an empty Kaldi hitlist read as such stays valid."""
    p = tmp_path / "kwslist.xml"
    p.write_text(content)
    with pytest.raises(InputError, match="empty file: not a detection list") as e:
        read_detections(str(p), fmt)
    assert e.value.path == str(p)
    assert len(read_detections(str(p), "kaldi")) == 0


@pytest.mark.parametrize("body,line", [('<kw kwid="K1"><kwtext></kwtext></kw>', 2),
                                       ('<kw kwid="K1">\n<kwtext>  </kwtext>\n</kw>', 4),
                                       ('<kw kwid="K1"><kwtext/></kw>', 2)])
def test_empty_kwtext_is_an_error(tmp_path, body, line):
    """Issue 40 item 14: an empty <kwtext> is not scored as a term without words; a term with
    no text element at all is a query named by its id (QbE lists)."""
    p = tmp_path / "kwlist.xml"
    p.write_text(f'<kwlist language="x">\n{body}\n</kwlist>\n')
    e = err(read_termlist, p, r"term 'K1': empty <kwtext>")
    assert e.line == line
    p.write_text('<kwlist language="x">\n<kw kwid="K1"></kw>\n</kwlist>\n')
    assert read_termlist(str(p)).texts == ["K1"]
