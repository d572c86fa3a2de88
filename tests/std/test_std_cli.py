"""termeval.bin.score_std end to end on docs/std.md §6.1 toy (XML and Kaldi-style inputs), the bundled
example generator, and every bad-input case of issue 5 (clear message, documented result,
never a traceback, never a half-written score file)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from termeval.core.errors import InputError

from termeval.bin import score_std  # noqa: E402

ECF = """<?xml version="1.0" encoding="UTF-8"?>
<ecf source_signal_duration="100" version="toy">
  <excerpt audio_filename="F1.wav" channel="1" tbeg="0.000" dur="60.000" language="multiple" source_type="x"/>
  <excerpt audio_filename="F2.wav" channel="1" tbeg="0.000" dur="40.000" language="multiple" source_type="x"/>
</ecf>
"""
RTTM = """SPEAKER F1 1 0.000 60.000 <NA> <NA> s1 <NA>
LEXEME F1 1 5.000 0.500 q1 lex s1 <NA>
LEXEME F1 1 15.000 0.500 q1 lex s1 <NA>
LEXEME F1 1 25.000 0.500 q1 lex s1 <NA>
LEXEME F1 1 35.000 0.500 q1 lex s1 <NA>
LEXEME F2 1 10.000 0.500 q2 lex s1 <NA>
LEXEME F2 1 20.000 0.500 NO_KEYWORD lex s1 <NA>
"""
TLIST = """<termlist ecf_filename="ecf.xml" language="multiple" version="toy">
  <term termid="q1"><termtext>q1</termtext></term>
  <term termid="q2"><termtext>q2</termtext></term>
  <term termid="q3"><termtext>q3</termtext></term>
</termlist>
"""
# (term, file, tbeg, dur, score, decision)
DETS = [("q1", "F1", 5.0, 0.5, 0.9, "YES"), ("q1", "F1", 15.0, 0.5, 0.7, "YES"),
        ("q1", "F1", 25.0, 0.5, 0.4, "NO"), ("q1", "F1", 45.0, 0.5, 0.8, "YES"),
        ("q1", "F1", 50.0, 0.5, 0.3, "NO"), ("q2", "F2", 10.0, 0.5, 0.6, "YES"),
        ("q2", "F2", 30.0, 0.5, 0.95, "YES"), ("q3", "F1", 20.0, 0.5, 0.65, "YES")]


def stdlist(dets, terms=("q1", "q2", "q3"), header=""):
    out = ['<stdlist termlist_filename="tlist.xml" indexing_time="1" language="multiple" '
           'index_size="1" system_id="toy">' if not header else header]
    for t in terms:
        out.append(f'<detected_termlist termid="{t}" term_search_time="1" oov_term_count="0">')
        for d in dets:
            if d[0] == t:
                out.append(f'<term file="{d[1]}" channel="1" tbeg="{d[2]}" dur="{d[3]}" score="{d[4]}" decision="{d[5]}"/>')
        out.append("</detected_termlist>")
    out.append("</stdlist>")
    return "\n".join(out) + "\n"


@pytest.fixture
def toy(tmp_path):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "ecf.xml").write_text(ECF)
    (kws / "rttm").write_text(RTTM)
    (kws / "tlist.xml").write_text(TLIST)
    (tmp_path / "dets.xml").write_text(stdlist(DETS))
    return tmp_path


def score(tmp, dets="dets.xml", *opts, exp="exp"):
    score_std.main(["--plots", "false", *opts, str(tmp / "kws"), str(tmp / dets), str(tmp / exp)])
    with open(tmp / exp / "scores" / "scores.json") as f:
        return json.load(f)


def test_toy_end_to_end(toy):
    s = score(toy)
    assert s["atwv"] == pytest.approx(0.066180, abs=1e-6)
    assert s["mtwv"] == pytest.approx(0.191180, abs=1e-6) and s["mtwv_threshold"] == 0.4
    assert s["otwv"] == pytest.approx(0.288350, abs=1e-6) and s["stwv"] == 0.875
    assert s["effective_prior"] == pytest.approx(0.0147805, abs=1e-7)
    assert (s["n_terms"], s["n_targets"], s["n_detections"], s["n_hits"], s["n_false_alarms"], s["n_misses"]) \
        == (2, 5, 7, 3, 2, 2)
    for k in ("atwv", "mtwv", "mtwv_threshold", "otwv", "stwv", "p_miss", "p_fa", "cnxe", "cmin_nxe",
              "effective_prior", "n_terms", "n_targets", "n_detections", "n_hits", "n_false_alarms", "n_misses"):
        assert k in s
    assert s["benchmark"] == "sws2013"
    lines = (toy / "exp" / "scores" / "std").read_text().splitlines()
    assert lines[0].startswith("atwv 0.066180")
    ali = (toy / "exp" / "details" / "alignment.csv").read_text().splitlines()
    assert ali[0] == "language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment"
    assert all(len(l.split(",")) == 12 for l in ali)
    labels = [l.rsplit(",", 1)[1] for l in ali[1:]]
    assert sorted(labels) == sorted(["CORR", "CORR", "MISS", "FA", "CORR!DET", "CORR", "FA", "FA", "MISS"])
    per_term = (toy / "exp" / "details" / "per_term.tsv").read_text().splitlines()
    assert per_term[1].split("\t")[:9] == ["q1", "q1", "1", "4", "5", "2", "1", "2", "-0.194340"]
    assert (toy / "exp" / "details" / "det_points.tsv").exists()


def test_toy_options(toy):
    assert score(toy, "dets.xml", "--include-notarget-terms", "true")["atwv"] == pytest.approx(0.071931, abs=1e-6)
    assert score(toy, "dets.xml", "--preset", "sws2012")["atwv"] == pytest.approx(0.555082, abs=1e-6)
    s = score(toy, "dets.xml", "--p-target", "0.00015", "--c-miss", "100", "--c-fa", "1", "--trials-per-sec", "2")
    assert s["std"]["trials_per_term"] == 200
    assert score(toy, "dets.xml", "--trials-per-sec", "2", "--compat", "f4de")["std"]["trials_per_term"] == 50
    s = score(toy, "dets.xml", "--cmin", "pav", "--default-score", "-5")
    assert s["std"]["default_score"] == -5 and s["cmin_nxe"] <= s["cnxe"]
    assert score(toy, "dets.xml", "--align", "kaldi")["atwv"] == pytest.approx(0.066180, abs=1e-6)


def test_plots_are_written(toy):
    score_std.main([str(toy / "kws"), str(toy / "dets.xml"), str(toy / "exp")])
    for f in ("det.png", "det.pdf", "twv.png", "twv.pdf"):
        assert (toy / "exp" / "details" / f).stat().st_size > 1000


def test_kwslist_and_kaldi_text_inputs_agree(toy):
    kw = stdlist(DETS).replace("stdlist", "kwslist").replace("detected_termlist", "detected_kwlist") \
        .replace("termid=", "kwid=").replace("<term ", "<kw ")
    (toy / "dets.kwslist.xml").write_text(kw)
    assert score(toy, "dets.kwslist.xml")["atwv"] == pytest.approx(0.066180, abs=1e-6)
    # Kaldi style: hitlist + utt.map + utt2dur, frames of 10 ms, decisions = score >= 0.5
    kd = toy / "kaldi"
    kd.mkdir()
    (kd / "utt.map").write_text("F1 1\nF2 2\n")
    (kd / "utt2dur").write_text("F1 60\nF2 40\n")
    (kd / "keywords.txt").write_text("q1 q1\nq2 q2\nq3 q3\n")
    (kd / "hitlist").write_text("q1 1 500 550 0\nq1 1 1500 1550 0\nq1 1 2500 2550 0\nq1 1 3500 3550 0\n"
                                "q2 2 1000 1050 0\n")
    um = {"F1": 1, "F2": 2}
    (toy / "results").write_text("".join(f"{d[0]} {um[d[1]]} {int(d[2] * 100)} {int((d[2] + d[3]) * 100)} {d[4]}\n"
                                         for d in DETS))
    score_std.main(["--plots", "false", str(kd), str(toy / "results"), str(toy / "exp_k")])
    s = json.loads((toy / "exp_k" / "scores" / "scores.json").read_text())
    assert s["atwv"] == pytest.approx(0.066180, abs=1e-6) and s["mtwv"] == pytest.approx(0.191180, abs=1e-6)
    assert s["std"]["detection_format"] == "kaldi"


def test_example_generator_is_deterministic(tmp_path, root):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        subprocess.run([sys.executable, "local/make_example_std.py", str(d)], cwd=root, check=True,
                       capture_output=True)
    for f in ("kws/ecf.xml", "kws/rttm", "kws/tlist.xml", "detections.stdlist.xml", "detections.kwslist.xml"):
        assert (a / f).read_bytes() == (b / f).read_bytes()
    score_std.main(["--plots", "false", str(a / "kws"), str(a / "detections.stdlist.xml"), str(tmp_path / "e1")])
    score_std.main(["--plots", "false", str(a / "kws"), str(a / "detections.kwslist.xml"), str(tmp_path / "e2")])
    s1 = json.loads((tmp_path / "e1" / "scores" / "scores.json").read_text())
    s2 = json.loads((tmp_path / "e2" / "scores" / "scores.json").read_text())
    assert s1["atwv"] == s2["atwv"] and s1["cnxe"] == s2["cnxe"]
    assert s1["n_terms"] == 7 and s1["std"]["n_terms_listed"] == 8  # 'unicorn' never occurs
    assert -1 < s1["atwv"] < s1["mtwv"] <= s1["otwv"] <= 1


# ----------------------------------------------------------------------------- bad input

def bad(toy, text, *opts, match):
    (toy / "bad.xml").write_text(text)
    with pytest.raises(InputError, match=match):
        score(toy, "bad.xml", *opts, exp="exp_bad")
    assert not (toy / "exp_bad" / "scores" / "std").exists()
    assert not (toy / "exp_bad" / "scores" / "scores.json").exists()


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<stdlist><detected_termlist termid="q1"><term file="&lol3;" channel="1" tbeg="1" dur="1" score="1" decision="YES"/>
</detected_termlist></stdlist>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]>
<stdlist><detected_termlist termid="q1"><term file="&ext;" channel="1" tbeg="1" dur="1" score="1" decision="YES"/>
</detected_termlist></stdlist>
"""


def test_hostile_xml(toy):
    bad(toy, BILLION_LAUGHS, match="entity")
    bad(toy, EXTERNAL, match="entit")


def test_hostile_reference_xml(toy):
    (toy / "kws" / "tlist.xml").write_text(BILLION_LAUGHS.replace("stdlist", "termlist"))
    with pytest.raises(InputError, match="entity"):
        score(toy)


def test_malformed_xml(toy):
    bad(toy, stdlist(DETS).replace("</detected_termlist>\n</stdlist>", "</stdlist>"), match="malformed XML")
    bad(toy, stdlist(DETS)[:-30], match="malformed XML")


def test_nan_inf_scores_and_negative_durations(toy):
    bad(toy, stdlist([("q1", "F1", 5.0, 0.5, "nan", "YES")]), match="score 'nan' is not a finite number")
    bad(toy, stdlist([("q1", "F1", 5.0, 0.5, "inf", "YES")]), match="score 'inf'")
    bad(toy, stdlist([("q1", "F1", 5.0, -0.5, 1, "YES")]), match="negative duration")
    bad(toy, stdlist([("q1", "F1", 5.0, 0.5, "high", "YES")]), match="not a number")
    bad(toy, stdlist([("q1", "F1", 5.0, 0.5, 1, "MAYBE")]), match="neither YES nor NO")


def test_unknown_term_and_repeated_block(toy):
    bad(toy, stdlist([("zz", "F1", 5.0, 0.5, 1, "YES")], terms=("q1", "zz")), match="not in the term list")
    twice = stdlist(DETS).replace("</stdlist>", '<detected_termlist termid="q1"></detected_termlist></stdlist>')
    bad(toy, twice, match="second detected_termlist block")


def test_inconsistent_decisions_warn_or_refuse_under_compat(toy):
    d = list(DETS)
    d[4] = ("q1", "F1", 50.0, 0.5, 0.95, "NO")  # a NO scoring above every YES
    (toy / "inc.xml").write_text(stdlist(d))
    s = score(toy, "inc.xml")
    assert s["std"]["decisions_consistent"] is False
    assert any("inconsistent" in w for w in s["std"]["warnings"])
    assert s["atwv"] == pytest.approx(0.066180, abs=1e-6)  # decisions are used as given
    with pytest.raises(InputError, match="Inconsistent NO/YES"):
        score(toy, "inc.xml", "--compat", "f4de", exp="exp_c")
    assert not (toy / "exp_c" / "scores" / "std").exists()


def test_outside_ecf_and_duplicates_are_counted(toy):
    d = DETS + [("q1", "F9", 1.0, 0.5, 0.99, "YES"),   # file not in the ECF
                ("q2", "F2", 39.8, 0.5, 0.99, "YES"),  # runs past the end of the excerpt
                ("q1", "F1", 45.0, 0.5, 0.8, "YES")]   # duplicate of an existing FA
    (toy / "d.xml").write_text(stdlist(d))
    s = score(toy, "d.xml")
    e = s["std"]
    assert e["n_detections_outside_ecf"] == 2 and e["n_detections_in_files_not_in_ecf"] == 1
    assert e["n_duplicate_detections"] == 1
    assert s["n_false_alarms"] == 3 and s["n_detections"] == 8


def test_empty_detection_list_is_a_valid_score(toy):
    (toy / "empty.xml").write_text('<stdlist termlist_filename="t" indexing_time="1" language="x" '
                                   'index_size="1" system_id="none"></stdlist>\n')
    s = score(toy, "empty.xml")
    assert s["atwv"] == 0.0 and s["mtwv"] == 0.0 and s["mtwv_threshold"] is None
    assert s["n_hits"] == 0 and s["n_misses"] == 5 and s["cnxe"] is None
    s = score(toy, "empty.xml", "--default-score", "-3")
    assert s["cnxe"] > 1 and s["cmin_nxe"] == pytest.approx(1.0)  # a constant LLR carries no information


def test_bad_reference_inputs(toy):
    (toy / "kws" / "rttm").write_text("LEXEME F1 1 5.0 -0.5 q1 lex s1 <NA>\n")
    with pytest.raises(InputError, match="negative time"):
        score(toy)
    (toy / "kws" / "rttm").write_text("LEXEME F1 1 5.0\n")
    with pytest.raises(InputError, match="9 fields"):
        score(toy)
    (toy / "kws" / "rttm").write_text(RTTM)
    (toy / "kws" / "ecf.xml").write_text(ECF.replace('dur="40.000"', 'dur="-40"'))
    with pytest.raises(InputError, match="negative excerpt"):
        score(toy)


def test_errors_are_one_line_without_traceback(toy, root):
    (toy / "bad.xml").write_text(BILLION_LAUGHS)
    r = subprocess.run([sys.executable, "-m", "termeval.bin.score_std", str(toy / "kws"), str(toy / "bad.xml"),
                        str(toy / "exp_x")], cwd=root, capture_output=True, text=True)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("score_std.py: error: ")
    assert not (toy / "exp_x" / "scores").exists()


def test_header_score_range(toy):
    hdr = '<kwslist kwlist_filename="t" language="x" system_id="s" min_score="0" max_score="0.9">'
    kw = stdlist(DETS, header=hdr).replace("</stdlist>", "</kwslist>").replace("detected_termlist", "detected_kwlist") \
        .replace("termid=", "kwid=").replace("<term ", "<kw ")
    (toy / "r.xml").write_text(kw)
    s = score(toy, "r.xml")  # 0.95 > max_score: warning, scored
    assert any("min_score/max_score" in w for w in s["std"]["warnings"])
    with pytest.raises(InputError, match="max_score"):
        score(toy, "r.xml", "--compat", "f4de", exp="exp_r")


def test_f4de_reports_go_where_the_help_says(tmp_path, root):
    """issue 31: --help said details/ for every mode; with --compat kaldi they are in f4de/."""
    from termeval.bin import prepare_kws
    d = tmp_path / "data"
    d.mkdir()
    (d / "words").write_text("a 0.50 0.80 white\na 1.10 1.50 horse\nb 0.70 1.00 horse\n")
    (d / "reco2dur").write_text("a 5.0\nb 3.0\n")
    (d / "utt2spk").write_text("a s1\nb s2\n")
    (tmp_path / "kw.txt").write_text("KW1 horse\nKW2 white\n")
    kws = tmp_path / "kws"
    prepare_kws.main(["--ecf-source-type", "cts", "--keywords", str(tmp_path / "kw.txt"), str(d), str(kws)])
    res = tmp_path / "results"
    res.write_text("".join(" ".join(l.split()[:4]) + " 1\n" for l in (kws / "hitlist").read_text().splitlines()))
    help_text = subprocess.run([f"{root}/steps/score_std.sh", "--help"], capture_output=True, text=True).stderr
    assert "in details/,\n#                             or in f4de/ with --compat kaldi" in \
        open(f"{root}/steps/score_std.sh").read() and "f4de/" in help_text
    for compat, where in (("kaldi", "f4de"), ("none", "details")):
        exp = tmp_path / f"exp_{compat}"
        args = ["--compat", compat, "--f4de-reports", "true"] + ([] if compat == "kaldi" else ["--plots", "false"])
        assert score_std.main(args + [str(kws), str(res), str(exp)]) == 0
        assert (exp / where / "sum.txt").is_file() and (exp / where / "bsum.txt").is_file()
        other = "details" if where == "f4de" else "f4de"
        assert not (exp / other / "sum.txt").exists()
