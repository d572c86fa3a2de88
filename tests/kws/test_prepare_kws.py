"""steps/prepare_kws.sh (termeval.bin.prepare_kws): the kws dir from word alignments, values
derived by hand; the reference submitted as detections scores ATWV 1 in both modes."""
from __future__ import annotations

import math
import os

import pytest

from termeval.bin import prepare_kws, score_std
from termeval.core.errors import InputError
from termeval.std.ecf import read_ecf
from termeval.std.kwsdir import load_kws_dir


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


@pytest.fixture
def data(tmp_path):
    """Two recordings. In a: 'white horse' twice (gaps 0.3 s: an occurrence; 0.6 s: not,
    F4DE's 0.5 s rule), 'horse' three times. In b: 'white' then 'horse' by another speaker."""
    d = tmp_path / "data"
    _write(str(d / "words"),
           "a 0.50 0.80 white\na 1.10 1.50 horse\na 2.00 2.30 white\na 2.90 3.20 horse\n"
           "a 4.00 4.25 horse\nb 0.20 0.60 white\nb 0.70 1.00 horse\n")
    _write(str(d / "reco2dur"), "a 5.0\nb 3.0\n")
    _write(str(d / "utt2spk"), "a s1\nb s2\n")
    _write(str(tmp_path / "kw.txt"), "KW1 white horse\nKW2 horse\nKW3 zebra\n")
    return tmp_path


def _prepare(tmp, *opts):
    out = str(tmp / "kws")
    assert prepare_kws.main([*opts, "--keywords", str(tmp / "kw.txt"), str(tmp / "data"), out]) == 0
    return out


def _read(d, name):
    with open(os.path.join(d, name), encoding="utf-8") as f:
        return f.read()


def test_files_and_values(data):
    kws = _prepare(data)
    assert sorted(os.listdir(kws)) == ["categories", "ecf.xml", "frame_length", "hitlist", "keywords.txt",
                                       "kwlist.xml", "rttm", "trials", "utt.map"]
    assert _read(kws, "utt.map") == "a 1\nb 2\n"
    # KW1: a 0.50-1.50 (gap 0.30 <= 0.5) and b 0.20-1.00 (gap 0.10); a 2.00..3.20 has a 0.6 s gap
    # KW2: every horse; frames of 10 ms from the utterance start
    assert _read(kws, "hitlist") == ("KW1 1 50 150 0\nKW1 2 20 100 0\n"
                                     "KW2 1 110 150 0\nKW2 1 290 320 0\nKW2 1 400 425 0\nKW2 2 70 100 0\n")
    # splitcts excerpts count half in F4DE's duration: (5 + 3) / 2
    assert _read(kws, "trials") == "4\n"
    assert read_ecf(os.path.join(kws, "ecf.xml")).total_duration("f4de") == 4.0
    assert _read(kws, "rttm").splitlines()[1] == "LEXEME a 1 1.1 0.4 horse lex s1 <NA>"
    assert _read(kws, "categories").splitlines() == [
        "KW1 NGramOrder=002 Characters=010 KW1", "KW2 NGramOrder=001 Characters=005 KW2",
        "KW3 NGramOrder=001 Characters=005 KW3"]
    k = load_kws_dir(kws)   # the F4DE-style reader finds the same occurrences
    assert k.terms.ids == ["KW1", "KW2", "KW3"] and len(k.occ) == 6
    assert k.terms.attrs[0]["NGramOrder"] == "002"


def test_cts_and_frame_shift(data):
    kws = _prepare(data, "--ecf-source-type", "cts", "--frame-shift", "0.02")
    assert _read(kws, "trials") == "8\n"
    assert _read(kws, "hitlist").splitlines()[0] == "KW1 1 25 75 0"
    assert _read(kws, "frame_length") == "0.02\n"


def test_categories_with_words_txt_and_lexicon(data):
    _write(str(data / "words.txt"), "<eps> 0\nhorse 1\nwhite 2\n")
    _write(str(data / "lexicon.txt"), "horse h o r s\nhorse h oo r s\nwhite w ai t\n")
    kws = _prepare(data, "--words-txt", str(data / "words.txt"), "--lexicon", str(data / "lexicon.txt"))
    assert _read(kws, "categories").splitlines() == [
        "KW1 NGramOrder=002 Characters=010 OOV=0 Phones=007 KW1",   # 3 + 4 phones (first pronunciation)
        "KW2 NGramOrder=001 Characters=005 OOV=0 Phones=004 KW2",
        "KW3 NGramOrder=001 Characters=005 OOV=1 Phones=OOV KW3"]


@pytest.mark.parametrize("compat", ["none", "kaldi", "f4de"])
def test_reference_as_detections_scores_one(data, compat, capsys):
    kws = _prepare(data, "--ecf-source-type", "cts")
    res = str(data / "results")
    _write(res, "".join(" ".join(line.split()[:4]) + " 1\n" for line in _read(kws, "hitlist").splitlines()))
    exp = str(data / f"exp_{compat}")
    args = ["--compat", compat, kws, res, exp] if compat == "kaldi" else \
        ["--compat", compat, "--preset", "nist2006", "--plots", "false", kws, res, exp]
    assert score_std.main(args) == 0
    out = capsys.readouterr().out
    if compat == "kaldi":
        assert "aproximate ATWV = 1.0000" in out and "aproximate MTWV = 1.0000" in out
        assert _read(exp, "metrics.txt").splitlines()[0] == "ATWV = 1.0000"
    else:
        assert "atwv 1.000000 [ 6 hits, 0 FA, 0 misses ]" in out
        assert "n_terms 2 [ of 3 listed ]" in out   # KW3 never occurs: no targets, not averaged


def test_kaldi_data_dir_with_segments_and_ctm(tmp_path):
    d = tmp_path / "kdata"
    # two utterances of one recording; CTM keyed by utterance, times relative to it
    _write(str(d / "segments"), "u1 rec 10.0 12.0\nu2 rec 20.0 23.0\n")
    _write(str(d / "utt2spk"), "u1 s1\nu2 s1\n")
    _write(str(d / "ctm"), "u1 1 0.50 0.40 white\nu1 1 1.00 0.50 horse\nu2 1 0.30 0.30 horse\n")
    _write(str(tmp_path / "kw.txt"), "KW1 white horse\nKW2 horse\n")
    out = str(tmp_path / "kws")
    assert prepare_kws.main(["--keywords", str(tmp_path / "kw.txt"), "--ecf-source-type", "cts", str(d), out]) == 0
    assert _read(out, "segments") == "u1 rec 10 12\nu2 rec 20 23\n"
    assert _read(out, "hitlist") == "KW1 1 50 150 0\nKW2 1 100 150 0\nKW2 2 30 60 0\n"
    assert _read(out, "trials") == "5\n"   # the two segments
    assert "LEXEME rec 1 10.5 0.4 white lex s1 <NA>" in _read(out, "rttm")


def test_plain_word_list_and_kwlist_input(data):
    _write(str(data / "plain.txt"), "horse\nwhite\n")
    out = str(data / "kws_plain")
    prepare_kws.main(["--keywords", str(data / "plain.txt"), str(data / "data"), out])
    assert _read(out, "keywords.txt") == "KW-0001 horse\nKW-0002 white\n"
    kwl = str(data / "kwlist.xml")
    _write(kwl, '<kwlist ecf_filename="e" version="1" language="english" encoding="UTF-8" '
                'compareNormalize="lowercase"><kw kwid="K7"><kwtext>White Horse</kwtext>'
                '<kwinfo><attr><name>Source</name><value>x</value></attr></kwinfo></kw></kwlist>')
    out2 = str(data / "kws_xml")
    prepare_kws.main(["--kwlist", kwl, str(data / "data"), out2])
    assert _read(out2, "hitlist") == "K7 1 50 150 0\nK7 2 20 100 0\n"   # F4DE lowercases
    assert "<name>Source</name><value>x</value>" in _read(out2, "kwlist.xml")


def test_bad_inputs_name_file_and_line_and_write_nothing(data):
    kws = str(data / "kws")
    with pytest.raises(InputError) as e:
        _write(str(data / "data" / "words"), "a 0.5 0.8 white\na 0.7 1.5 horse\n")
        prepare_kws.main(["--keywords", str(data / "kw.txt"), str(data / "data"), kws])
    assert "overlapping words" in str(e.value) and e.value.line == 2
    assert not os.path.exists(kws)
    _write(str(data / "data" / "words"), "a 0.5 0.8 white\n")
    _write(str(data / "lex.txt"), "white w ai t\nhorse\n")
    with pytest.raises(InputError, match="malformed lexicon line") as e:
        prepare_kws.main(["--lexicon", str(data / "lex.txt"), "--keywords", str(data / "kw.txt"),
                          str(data / "data"), kws])
    assert e.value.line == 2 and not os.path.exists(kws)
    with pytest.raises(InputError, match="ecf-source-type"):
        prepare_kws.main(["--ecf-source-type", "read", "--keywords", str(data / "kw.txt"), str(data / "data"), kws])
    with pytest.raises(InputError, match="exactly one of"):
        prepare_kws.main([str(data / "data"), kws])


def test_rebuild_replaces_the_dir_whole(data):
    kws = _prepare(data)
    assert "segments" not in os.listdir(kws)
    _write(os.path.join(kws, "segments"), "x")       # a file of an earlier preparation (with segments)
    _prepare(data)
    assert "segments" not in os.listdir(kws)


def test_a_kws_dir_holding_other_files_is_never_replaced(data):
    """Issue 40: prepare_kws replaces only its own earlier kws dir; one holding anything else (a
    Kaldi kws dir's keywords.fsts, the user's files) is refused with one line, untouched."""
    kws = _prepare(data)
    _write(os.path.join(kws, "keywords.fsts"), "x")
    with pytest.raises(InputError, match=r"kws: exists and holds what prepare_kws does not write \(keywords.fsts\)"):
        _prepare(data)
    assert _read(kws, "keywords.fsts") == "x"


def test_keyword_without_occurrence_is_kept_with_a_warning(data, capsys):
    kws = _prepare(data)
    assert "KW3 zebra" in _read(kws, "keywords.txt") and 'kwid="KW3"' in _read(kws, "kwlist.xml")
    assert "1 keyword(s) never occur: KW3" in capsys.readouterr().err
    assert not any(line.startswith("KW3 ") for line in _read(kws, "hitlist").splitlines())
    assert math.isclose(float(_read(kws, "trials")), 4.0)


def test_files_follow_f4de_schemas(data):
    """What KWSEval's xmllint checks (KWSEval-ecf.xsd, KWSEval-kwlist.xsd) and its RTTM reader needs."""
    import xml.etree.ElementTree as ET
    from decimal import Decimal
    kws = _prepare(data)
    ecf = ET.parse(os.path.join(kws, "ecf.xml")).getroot()
    assert ecf.tag == "ecf" and {"source_signal_duration", "version", "language"} <= set(ecf.attrib)
    Decimal(ecf.get("source_signal_duration"))
    for ex in ecf:
        assert ex.tag == "excerpt" and set(ex.attrib) == {"audio_filename", "channel", "tbeg", "dur", "source_type"}
        int(ex.get("channel")), Decimal(ex.get("tbeg")), Decimal(ex.get("dur"))
        assert ex.get("source_type") in ("bnews", "cts", "splitcts", "confmtg")
    kwl = ET.parse(os.path.join(kws, "kwlist.xml")).getroot()
    assert kwl.tag == "kwlist" and set(kwl.attrib) == {"ecf_filename", "version", "language", "encoding",
                                                       "compareNormalize"}
    assert kwl.get("encoding") == "UTF-8" and kwl.get("compareNormalize") in ("lowercase", "")
    for kw in kwl:
        assert kw.tag == "kw" and "kwid" in kw.attrib and [c.tag for c in kw] == ["kwtext", "kwinfo"]
        attrs = list(kw.find("kwinfo"))
        assert attrs and all([c.tag for c in a] == ["name", "value"] for a in attrs)
    for line in _read(kws, "rttm").splitlines():
        f = line.split()
        assert len(f) == 9 and f[0] == "LEXEME" and f[6] == "lex"
        float(f[3]), float(f[4])


def test_ctm_keyed_by_recording_goes_to_the_segment_of_its_midpoint(tmp_path):
    d = tmp_path / "kdata"
    _write(str(d / "segments"), "u1 rec 10.0 12.0\nu2 rec 20.0 23.0\n")
    _write(str(d / "ctm"), "rec 1 10.50 0.40 horse\nrec 1 20.30 0.30 horse\n")
    _write(str(tmp_path / "kw.txt"), "KW2 horse\n")
    out = str(tmp_path / "kws")
    prepare_kws.main(["--keywords", str(tmp_path / "kw.txt"), str(d), out])
    assert _read(out, "hitlist") == "KW2 1 50 90 0\nKW2 2 30 60 0\n"
    _write(str(d / "ctm"), "rec 1 10.50 0.40 horse\nrec 1 15.00 0.30 horse\n")
    with pytest.raises(InputError, match="lies in no segment") as e:
        prepare_kws.main(["--keywords", str(tmp_path / "kw.txt"), str(d), str(tmp_path / "kws2")])
    assert e.value.line == 2 and not os.path.exists(tmp_path / "kws2")


KWLIST = ('<kwlist ecf_filename="e" version="1" language="english" encoding="UTF-8" compareNormalize="lowercase">\n'
          '{}</kwlist>\n')


def _step_error(root, tmp, *args):
    import subprocess
    r = subprocess.run([os.path.join(root, "steps", "prepare_kws.sh"), *args, str(tmp / "data"), str(tmp / "kws")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    errors = [l for l in r.stderr.splitlines() if ": error: " in l]
    assert len(errors) == 1, r.stderr
    after = r.stderr.split(errors[0] + "\n", 1)[1].splitlines()     # at most a one-line usage hint
    assert len(after) <= 1 and all(l.startswith("Usage: ") and l.endswith("(--help for options)") for l in after)
    assert not os.path.exists(tmp / "kws")
    return errors[0]


@pytest.mark.parametrize("body,line,message", [
    ('<kw kwid="K1"><kwtext>horse</kwtext></kw>\n<kw kwid="K2"><kwtext></kwtext></kw>\n', 3,
     "keyword 'K2' has an empty or missing kwtext"),
    ('<kw kwid="K1">\n<kwinfo/></kw>\n', 3, "keyword 'K1' has an empty or missing kwtext"),
    ('<kw kwid=""><kwtext>horse</kwtext></kw>\n', 2, "keyword id '' is empty or holds whitespace"),
    ('<kw kwid="K 1"><kwtext>horse</kwtext></kw>\n', 2, "keyword id 'K 1' is empty or holds whitespace"),
    ('<kw kwid="K1"><kwtext>ho\u0085rse</kwtext></kw>\n', 2, "keyword text holds the character U+0085"),
    ('', None, "no keywords in the list (no <kw> element)"),
])
def test_bad_kwlist_refused_with_file_and_line(data, root, body, line, message):
    kwl = data / "kwlist.xml"
    _write(str(kwl), KWLIST.format(body))
    where = f"{kwl}:{line}: " if line else f"{kwl}: "
    err = _step_error(root, data, "--kwlist", str(kwl))
    assert err.startswith(f"prepare_kws.py: error: {where}{message}"), err


@pytest.mark.parametrize("text,line,char", [("KW1 white\nKW2 ho\x01rse\n", 2, "U+0001"),
                                            ("KW1 white\uFFFE\n", 1, "U+FFFE"),
                                            ("KW1 white\x1fhorse\n", 1, "U+001F")])
def test_control_characters_in_keywords_refused(data, root, text, line, char):
    _write(str(data / "kwc.txt"), text)
    err = _step_error(root, data, "--keywords", str(data / "kwc.txt"))
    assert err.startswith(f"prepare_kws.py: error: {data / 'kwc.txt'}:{line}: holds the character {char} ")


def test_utterance_ending_after_its_recording_refused(tmp_path, root):
    d = tmp_path / "data"
    _write(str(d / "segments"), "u1 rec 0.0 3.0\nu2 rec 3.0 7.0\n")
    _write(str(d / "reco2dur"), "rec 6.0\n")
    _write(str(d / "ctm"), "u1 1 0.50 0.40 horse\n")
    _write(str(tmp_path / "kw.txt"), "KW1 horse\n")
    err = _step_error(root, tmp_path, "--keywords", str(tmp_path / "kw.txt"))
    assert err == (f"prepare_kws.py: error: {d / 'segments'}:2: utterance 'u2' ends at 7 s, after the end of "
                   "its recording 'rec' (6 s in reco2dur; tolerance 0.01 s)")
    _write(str(d / "segments"), "u1 rec 0.0 3.0\nu2 rec 3.0 6.005\n")     # within the tolerance
    assert prepare_kws.main(["--keywords", str(tmp_path / "kw.txt"), str(d), str(tmp_path / "kws")]) == 0


@pytest.mark.parametrize("value", ["1e300", "0", "2", "nan"])
def test_frame_shift_bounded(data, root, value):
    err = _step_error(root, data, "--keywords", str(data / "kw.txt"), "--frame-shift", value)
    assert err.startswith("prepare_kws.py: error: argument --frame-shift: expected ")
