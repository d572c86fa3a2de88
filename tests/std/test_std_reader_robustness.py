"""Issue 12: every hostile STD input gives one clean InputError naming file:line (or the
option), never a traceback from numpy, expat or re."""
from __future__ import annotations

import pytest

from termeval.bin import score_std
from termeval.errors import InputError
from termeval.std import kaldi
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
        from termeval.cli import run
        run(score_std.main, ["--term-attr", "x:(", str(tmp_path), str(tmp_path), str(tmp_path / "e")])
    msg = capsys.readouterr().err.strip()
    assert "--term-attr: invalid regular expression" in msg and "\n" not in msg


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
