"""utils/KWSEval and `termeval kwseval`: F4DE KWSEval's command line over the STD engine.

- F4DE's own tester command lines (KWSEval_tester.pl, the cases whose inputs are public) run
  through KWSEval's face with `-f -`: stdout equals the expected `[[STDOUT]]` block of
  ../shared/reference/f4de/expected/res_test*.txt byte for byte (the input paths are given as
  the tester gives them, `../common/...`, from a directory beside a `common` link);
- with $F4DE_DIR (an F4DE checkout), the same against its KWSEval/test/KWSEval/res_test*.txt;
- Getopt::Long's rules, KWSEval's messages and exit statuses, file names, the output guard;
- Kaldi's kws_score_f4de.sh command line and the kws_oracle_threshold.pl read of alignment.csv
  (and the script itself when $KALDI_ROOT is set).
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess

import pytest

from termeval.bin import kwseval
from termeval.run.getopt_long import getoptions, spec
from termeval.std.kwseval import paths, root_of, Request

CASES = ["2a", "2b", "2c", "6a", "6b", "7a", "7b", "7c", "7d", "7e", "9"]
def _expected(path: str) -> tuple[list[str], int, str]:
    """(KWSEval arguments, return code, stdout) of a tester's res_test*.txt."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    cmd = text.split("[[COMMANDLINE]] ", 1)[1].split("\n", 1)[0]
    rc = int(text.split("[[RETURN CODE]] ", 1)[1].split("\n", 1)[0])
    out = text.split("[[STDOUT]]\n", 1)[1].split("\n[[STDERR]]", 1)[0]
    return shlex.split(cmd)[1:], rc, out


def _run_in(workdir, argv, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.chdir(workdir)
    rc = kwseval.main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def _tester_dir(tmp_path, common: str):
    """<tmp>/run beside <tmp>/common -> the inputs: `../common/x` as the tester writes it."""
    os.symlink(common, tmp_path / "common")
    (tmp_path / "run").mkdir()
    return tmp_path / "run"


# the conditions of 2b and 2c end with one without any evaluated keyword, whose columns F4DE adds
# in Perl hash order: the reference res_test2b.txt/2c.txt (an older Perl), the tester's
# res_test2b.518.txt (Perl 5.18) and KWSEval.pl under Perl 5.36 (what termeval prints, recorded in
# tests/differential/f4de_kwseval.tar.xz) each list them in another order
HASH_ORDERED_LAST_GROUP = {"2b": 7, "2c": 7}


def _last_group_sorted(text: str, n: int) -> str:
    """Each table line with the cells of its last `n` columns sorted (their order aside)."""
    out = []
    for line in text.split("\n"):
        sep = "|" if "|" in line else "+"        # a cell line, or the dashes under the header
        f = line.split(sep)
        out.append(sep.join(f[:-n - 1] + sorted(f[-n - 1:-1]) + f[-1:]) if len(f) > n + 2 else line)
    return "\n".join(out)


@pytest.mark.parametrize("case", CASES)
def test_f4de_tester_stdout(shared, case, tmp_path, capsys, monkeypatch):
    ref = os.path.join(shared, "reference", "f4de")
    argv, rc_want, out_want = _expected(os.path.join(ref, "expected", f"res_test{case}.txt"))
    rc, out, _ = _run_in(_tester_dir(tmp_path, os.path.join(ref, "common")), argv, capsys, monkeypatch)
    if case in HASH_ORDERED_LAST_GROUP:
        n = HASH_ORDERED_LAST_GROUP[case]
        out, out_want = _last_group_sorted(out, n), _last_group_sorted(out_want, n)
    assert (rc, out) == (rc_want, out_want)


def test_global_measures_map_columns(shared, tmp_path, capsys, monkeypatch):
    """-zG MAP -zG MAPpct (Kaldi's kws_score_f4de.sh asks them): sum.txt gets F4DE's `Global
    Measures` group (MAP %.2f, MAP% %.1f); Optimum/Supremum stay in dets/*.dat.2 only."""
    ref = os.path.join(shared, "reference", "f4de")
    argv, _, plain = _expected(os.path.join(ref, "expected", "res_test6a.txt"))
    rc, out, _ = _run_in(_tester_dir(tmp_path, os.path.join(ref, "common")),
                         argv + ["-zG", "MAP", "-zG", "MAPpct", "-zG", "Optimum"], capsys, monkeypatch)
    assert rc == 0 and out != plain
    head = next(line for line in out.splitlines() if "Maximum TWV Analysis" in line)
    assert head.endswith("|  Global Measures  |")
    row = next(line for line in out.splitlines() if line.startswith("|   Occurrence"))
    assert row.split("|")[-3:-1] == ["    0.63 ", "    63.3 "]


@pytest.mark.skipif(not os.environ.get("F4DE_DIR"), reason="$F4DE_DIR (an F4DE checkout) not set")
@pytest.mark.parametrize("case", CASES)
def test_f4de_checkout_tester_stdout(case, tmp_path, capsys, monkeypatch):
    """The checkout's expected outputs (an older Perl's hash order for 2b, 2c); what KWSEval.pl
    writes when run is compared in tests/differential (tester_cases.py, recorded fixtures)."""
    test = os.path.join(os.environ["F4DE_DIR"], "KWSEval", "test")
    res = os.path.join(test, "KWSEval", f"res_test{case}.txt")
    if not os.path.isfile(res):
        pytest.skip(f"{res} not in this checkout")
    argv, rc_want, out_want = _expected(res)
    rc, out, _ = _run_in(_tester_dir(tmp_path, os.path.join(test, "common")), argv, capsys, monkeypatch)
    if case in HASH_ORDERED_LAST_GROUP:
        n = HASH_ORDERED_LAST_GROUP[case]
        out, out_want = _last_group_sorted(out, n), _last_group_sorted(out_want, n)
    assert (rc, out) == (rc_want, out_want)


# --- Getopt::Long's rules -------------------------------------------------------------------

def test_getopt_prefixes_case_and_values():
    p = getoptions(kwseval.SPECS, ["-csv", "-inc", "-zG", "MAP", "--zGlobalMeasures=Optimum", "-o", "-O",
                                   "-f", "-", "-p", "1e-4", "-s", "x.xml", "extra", "-y", "CSV"])
    v = p.values
    assert p.errors == [] and p.args == ["extra"]
    assert v["csv-of-alignment"] == 1 and v["include-blocks-w-notargs"] == 1
    assert v["zGlobalMeasures"] == ["MAP", "Optimum"] and v["ytypes-of-report-output"] == ["CSV"]
    assert v["osummary-report"] == 1 and v["Osummary-conditional-report"] == 1
    assert v["file-root"] == "-" and v["prob-of-term"] == 1e-4 and v["sysfile"] == "x.xml"
    assert getoptions(kwseval.SPECS, ["-stdfile", "y"]).values["sysfile"] == "y"   # an alias
    assert getoptions(kwseval.SPECS, ["-s", "y"]).errors == []      # sysfile|stdfile: one option


def test_getopt_errors():
    e = getoptions(kwseval.SPECS, ["-zz", "-i", "-z", "-p", "abc", "-o=1", "-f"]).errors
    assert e == ["Unknown option: zz", "Option i is ambiguous (include-blocks-w-notargs, iso-lines)",
                 "Option z is ambiguous (zGlobalMeasures, zIsoRatioDAF, zincludeRowTotals)",
                 'Value "abc" invalid for option p (number expected)',
                 "Option o does not take an argument", "Option f requires an argument"]
    # `--` ends the options; an optional value (-i) does not take a word that looks like an option
    p = getoptions([spec("iso-lines:s"), spec("det-curve")], ["-iso", "-d", "--", "-x"])
    assert p.values == {"iso-lines": "", "det-curve": 1} and p.args == ["-x"]


# --- messages and exit statuses ------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["-o", "-zz"], "[ERROR] Unknown option(s)"),
    (["-o", "-r", "r"], "[ERROR] Must include a file root"),
    (["-f", "-"], "[ERROR] An RTTM file must be set"),
    (["-f", "-", "-r", "r"], "[ERROR] A KWList file must be set"),
    (["-f", "-", "-r", "r", "-t", "t", "-o"], "[ERROR] An ECF file must be set"),
    (["-f", "-", "-r", "r", "-t", "t", "-e", "e", "-o"], "[ERROR] An STDList file must be set"),
    (["-f", "-", "-r", "r", "-t", "t", "-q", "A", "-Y", "B"],
     "[ERROR] Cannot specify more than one condition (-Y, -q, -T, -G) for the conditional report"),
    (["-f", "-", "-r", "r", "-t", "t", "-x", "foo"], "[ERROR] Error: -zprefilterText option /foo/ not defined.  Aborting."),
    (["-f", "-", "-r", "r", "-t", "t", "-zG", "AP"],
     "[ERROR] Error: Requested global measure /AP/ not (MAP|MAPpct|Optimum|Supremum)"),
    (["-f", "-", "-r", "r", "-t", "t", "-e", "nope.xml", "-s", "s", "-o"],
     "[ERROR] Problem with ECF File (nope.xml): file does not exist"),
])
def test_kwseval_errors(argv, message, tmp_path, capsys, monkeypatch):
    rc, out, _ = _run_in(tmp_path, argv, capsys, monkeypatch)
    assert rc == 1 and out.splitlines()[-1] == message


def test_help_version_and_no_arguments(capsys):
    assert kwseval.main(["-h"]) == 0 and "Usage: KWSEval -e ecffile" in capsys.readouterr().out
    assert kwseval.main(["--vers"]) == 0 and capsys.readouterr().out.startswith("KWSEval")
    assert kwseval.main([]) == 0 and "-f R" in capsys.readouterr().out


# --- file names -----------------------------------------------------------------------------------

def test_file_roots():
    assert (root_of("dir/"), root_of("dir/p"), root_of("p"), root_of("-")) == ("dir/", "dir/p.", "p", "-")
    full = Request("d/p", summary=True, block=True, alignment=True, det=True)
    assert sorted(paths(full).values()) == ["d/p.alignment.csv", "d/p.bsum.txt", "d/p.dets/sum.Occurrence.dat.1",
                                            "d/p.dets/sum.Occurrence.dat.2", "d/p.sum.txt"]
    out = Request("-", summary=True, alignment=True, det=True)
    assert sorted(paths(out).values()) == ["alignment.csv", "dets/sum.Occurrence.dat.1", "dets/sum.Occurrence.dat.2"]


# --- our own inputs: every option on a small case --------------------------------------------------

ECF = """<ecf source_signal_duration="100" version="1">
<excerpt audio_filename="A.sph" channel="1" tbeg="0" dur="100" source_type="cts"/>
</ecf>
"""
KWLIST = """<kwlist ecf_filename="ecf.xml" language="english" encoding="UTF-8" compareNormalize="lowercase" version="1">
<kw kwid="KW-1"><kwtext>cat</kwtext><kwinfo><attr><name>NGramOrder</name><value>1</value></attr></kwinfo></kw>
<kw kwid="KW-2"><kwtext>dog</kwtext><kwinfo><attr><name>NGramOrder</name><value>1</value></attr></kwinfo></kw>
</kwlist>
"""
RTTM = "SPEAKER A 1 5 45 <NA> <NA> spk <NA>\n" + "".join(
    f"LEXEME A 1 {t} 0.5 {w} lex spk <NA>\n" for t, w in [(10, "cat"), (20, "cat"), (30, "dog"), (40, "bird")])


def _kwslist(dets) -> str:
    rows = "".join(f'<detected_kwlist kwid="{k}" search_time="1" oov_count="0">\n'
                   + "".join(f'<kw file="A" channel="1" tbeg="{t}" dur="0.5" score="{s}" decision="{d}"/>\n'
                             for t, s, d in v) + "</detected_kwlist>\n" for k, v in dets.items())
    return f'<kwslist kwlist_filename="kwlist.xml" language="english" system_id="">\n{rows}</kwslist>\n'


DETS = {"KW-1": [(10, 0.9, "YES"), (50, 0.7, "YES"), (20, 0.3, "NO")], "KW-2": [(30, 0.8, "YES")]}


@pytest.fixture
def toy(tmp_path):
    d = tmp_path / "kws"
    d.mkdir()
    for name, text in (("ecf.xml", ECF), ("kwlist.xml", KWLIST), ("rttm", RTTM), ("kwslist.xml", _kwslist(DETS))):
        (d / name).write_text(text)
    return d


def _args(d, *more):
    return ["-e", str(d / "ecf.xml"), "-r", str(d / "rttm"), "-t", str(d / "kwlist.xml"),
            "-s", str(d / "kwslist.xml"), *more]


def _cell(text: str, row: str, col: int) -> str:
    line = [x for x in text.splitlines() if x.startswith(row)][0]
    return line.split("|")[col].strip()


def test_toy_reports_and_mapping(toy, tmp_path, capsys, monkeypatch):
    """-o -b -c -d into `out/` (Kaldi's call); ATWV by hand: KW-1 1 hit of 2, 1 FA over
    100 - 2 trials: 0.5 - 999.9/98; KW-2 1 of 1: 1."""
    rc, out, _ = _run_in(tmp_path, _args(toy, "-c", "-o", "-b", "-d", "-f", "out/"), capsys, monkeypatch)
    assert rc == 0 and "Summary Report: out/sum\n" in out
    s = (tmp_path / "out" / "sum.txt").read_text()
    atwv = ((0.5 - 999.9 / 98) + 1.0) / 2
    assert _cell(s, "|   Occurrence", 12) == "%6.4f" % atwv
    assert s.splitlines()[6].split("|")[2].strip() == "100"         # TotDur, line 7 (kws_score_f4de.sh)
    assert (tmp_path / "out" / "bsum.txt").read_text().count("Keyword  KW-1") == 1
    dat2 = (tmp_path / "out" / "dets" / "sum.Occurrence.dat.2").read_text().splitlines()
    assert dat2[2].split()[6] == "%.15g" % atwv          # ActualComb, as Perl prints it
    assert (tmp_path / "out" / "dets" / "sum.Occurrence.dat.1").read_text().count("\n") == 8 + 4
    # -p -k -K -n: the engine's P_target, C_fa, C_miss (value), trials per second
    rc, out, _ = _run_in(tmp_path, _args(toy, "-o", "-p", "0.001", "-k", "1", "-K", "10", "-n", "2",
                                         "-f", "-"), capsys, monkeypatch)
    beta = (1 / 10) * (1 / 0.001 - 1)
    assert rc == 0 and _cell(out, "|                            BETA", 2) == "%.15g" % beta
    assert _cell(out, "|                       TotTrials", 2) == "50"          # F4DE: T / rate
    # -inc: IncludeBlocksWithNoTargets
    rc, out, _ = _run_in(tmp_path, _args(toy, "-o", "-inc", "-f", "-"), capsys, monkeypatch)
    assert _cell(out, "|      IncludeBlocksWithNoTargets", 2) == "1"


def test_toy_prefix_root_conditions_csv(toy, tmp_path, capsys, monkeypatch):
    """-f res/p: res/p.<name>; -q: one condition per value (NGramOrder-1, both terms: the same
    ATWV as the whole); -y CSV -y TXT: the .csv of each report before its .txt, as KWSEval (a
    -y list replaces KWSEval's default TXT: -y CSV alone writes no .txt)."""
    rc, out, _ = _run_in(tmp_path, _args(toy, "-o", "-O", "-B", "-q", "NGramOrder:regex=.*", "-c", "-y", "CSV",
                                         "-y", "TXT", "-f", "res/p"), capsys, monkeypatch)
    assert rc == 0 and "Summary Report: res/p.sum\n" in out and "Conditional Summary Report: res/p.cond.sum" in out
    assert sorted(os.listdir(tmp_path / "res")) == sorted(
        ["p.alignment.csv", "p.sum.txt", "p.sum.csv", "p.cond.sum.txt", "p.cond.sum.csv", "p.cond.bsum.txt",
         "p.cond.bsum.csv"])
    s, c = (tmp_path / "res" / "p.sum.txt").read_text(), (tmp_path / "res" / "p.cond.sum.txt").read_text()
    atwv = _cell(s, "|   Occurrence", 12)
    assert atwv == "%6.4f" % (((0.5 - 999.9 / 98) + 1.0) / 2) and f"|   {atwv} |" in c
    # -O without any condition (none asked, an attribute no term has, a regex matching no
    # value): KWSEval's note line, nothing written
    for q in ([], ["-q", "Characters:regex=.*"], ["-q", "NGramOrder:regex=^9$"]):
        rc, out, _ = _run_in(tmp_path, _args(toy, "-O", *q, "-f", "none/"), capsys, monkeypatch)
        assert rc == 0 and "  No Conditional Summary Report will be generated." in out
        assert not (tmp_path / "none").exists()
    rc, out, _ = _run_in(tmp_path, _args(toy, "-O", "-q", "NGramOrder:regex=(", "-f", "-"), capsys, monkeypatch)
    assert rc == 1 and out.splitlines()[-1].startswith("[ERROR] ")


def test_toy_csv_reports_latin1(toy, tmp_path, capsys, monkeypatch):
    """KWSEval writes its .txt/.html reports through the kwlist's UTF-8 layer and its .csv ones
    without a layer: a term text within Latin-1 (`café`) is the byte 0xe9 in bsum.csv (as F4DE
    3.5.0 writes it: tests/differential), UTF-8 in bsum.txt and alignment.csv; a wider character
    (F4DE dies there) gives UTF-8."""
    for name in ("kwlist.xml", "rttm"):
        (toy / name).write_text((toy / name).read_text().replace("cat", "café"), encoding="utf-8")
    rc, _, _ = _run_in(tmp_path, _args(toy, "-b", "-c", "-y", "CSV", "-y", "TXT", "-f", "o/"), capsys, monkeypatch)
    assert rc == 0
    assert b'"caf\xe9"' in (tmp_path / "o" / "bsum.csv").read_bytes()
    assert "café" in (tmp_path / "o" / "bsum.txt").read_text(encoding="utf-8")
    assert "café" in (tmp_path / "o" / "alignment.csv").read_text(encoding="utf-8")
    for name in ("kwlist.xml", "rttm"):
        (toy / name).write_text((toy / name).read_text(encoding="utf-8").replace("café", "猫"), encoding="utf-8")
    rc, _, _ = _run_in(tmp_path, _args(toy, "-b", "-y", "CSV", "-f", "w/"), capsys, monkeypatch)
    assert rc == 0 and "猫" in (tmp_path / "w" / "bsum.csv").read_text(encoding="utf-8")


def test_toy_segment_and_prefilters(toy, tmp_path, capsys, monkeypatch):
    """-g: the engine's segment alignment (KWSEval's line); -x notASCII alone: KWSEval's warning."""
    rc, out, _ = _run_in(tmp_path, _args(toy, "-g", "-o", "-f", "-"), capsys, monkeypatch)
    assert rc == 0 and "Performing Segment Alignment\n" in out and re.search(r"^\| +Segment \|", out, re.M)
    rc, out, _ = _run_in(tmp_path, _args(toy, "-x", "notASCII", "-o", "-f", "-"), capsys, monkeypatch)
    assert rc == 0 and out.startswith("Warning: -zprefilterText notASCII ignored because -z charsplit not used")


def test_toy_inconsistent_decisions_exit_1(toy, tmp_path, capsys, monkeypatch):
    (toy / "kwslist.xml").write_text(_kwslist({"KW-1": [(10, 0.2, "YES"), (20, 0.9, "NO")]}))
    rc, out, _ = _run_in(tmp_path, _args(toy, "-o", "-f", "-"), capsys, monkeypatch)
    assert rc == 1 and "Inconsistent NO/YES decision boundary" in out.splitlines()[-1]
    assert out.splitlines()[-1].startswith("[ERROR] ")


def test_output_inside_input_refused(toy, tmp_path, capsys, monkeypatch):
    """-c -f <kws>/ would write <kws>/alignment.csv: fine; an output that IS an input is refused
    before anything is written."""
    os.rename(toy / "rttm", toy / "sum.txt")
    argv = ["-e", str(toy / "ecf.xml"), "-r", str(toy / "sum.txt"), "-t", str(toy / "kwlist.xml"),
            "-s", str(toy / "kwslist.xml"), "-o", "-f", str(toy) + "/"]
    rc, out, _ = _run_in(tmp_path, argv, capsys, monkeypatch)
    assert rc == 1 and "is its input" in out.splitlines()[-1]
    assert (toy / "sum.txt").read_text() == RTTM
    # a file where the file root needs a directory: KWSEval's one line, before scoring
    (tmp_path / "afile").write_text("x")
    os.rename(toy / "sum.txt", toy / "rttm")
    rc, out, _ = _run_in(tmp_path, _args(toy, "-o", "-f", "afile/x/"), capsys, monkeypatch)
    assert rc == 1 and out.splitlines()[-1].startswith("[ERROR] afile: exists and is not a directory")
    assert "Performing" not in out


# --- Kaldi -------------------------------------------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def kaldi_layout(tmp_path_factory):
    """The bundled STD example (local/make_example_std.py) laid out as kws_score_f4de.sh expects:
    data/dev/kws/{ecf.xml,rttm,kwlist.xml}, exp/sys/decode_dev/kws_10/kwslist.xml."""
    work = tmp_path_factory.mktemp("s5d")
    ex = work / "example"
    r = subprocess.run([os.path.join(ROOT, "utils", "termeval_python.sh"),
                        os.path.join(ROOT, "local", "make_example_std.py"), str(ex)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    kws = work / "data" / "dev" / "kws"
    kws.mkdir(parents=True)
    for src, dst in (("kws/ecf.xml", "ecf.xml"), ("kws/rttm", "rttm"), ("kws_kwlist/kwlist.xml", "kwlist.xml")):
        os.symlink(ex / src, kws / dst)
    dec = work / "exp" / "sys" / "decode_dev" / "kws_10"
    dec.mkdir(parents=True)
    os.symlink(ex / "detections.kwslist.xml", dec / "kwslist.xml")
    return work


def test_kaldi_kws_score_f4de_command_line(kaldi_layout):
    """The KWSEval call of egs/babel/s5d/local/kws_score_f4de.sh as the script builds it
    (`data/dev exp/sys/decode_dev/kws_10`), through utils/KWSEval on PATH, then its TotDur read
    and kws_oracle_threshold.pl's read of alignment.csv (termeval.std.oracle): its ATWV is
    sum.txt's up to the duration/trials rounding."""
    from termeval.std.oracle import oracle_metrics
    script = """set -e
kwsdatadir=$1/kws; kwsoutputdir="$2/"; kwlist=$kwsdatadir/kwlist.xml; rttm=$kwsdatadir/rttm; ecf=$kwsdatadir/ecf.xml
KWSEval -e $ecf -r $rttm -t $kwlist -a  --zGlobalMeasures MAP \\
    --zGlobalMeasures MAPpct --zGlobalMeasures Optimum --zGlobalMeasures Supremum \\
    -O -B -q 'Characters:regex=.*' -q 'NGramOrder:regex=.*' \\
    -s $kwsoutputdir/kwslist.xml -c -o -b -d -f  ${kwsoutputdir}${f4de_prefix} || exit 1;
duration=`cat ${kwsoutputdir}${f4de_prefix}/sum.txt | grep TotDur | cut -f 3 -d '|' | sed "s/\\s*//g"`
echo "duration=$duration"
"""
    env = dict(os.environ, PATH=os.path.join(ROOT, "utils") + os.pathsep + os.environ["PATH"])
    r = subprocess.run(["bash", "-c", script, "kws_score_f4de.sh", "data/dev", "exp/sys/decode_dev/kws_10"],
                       cwd=kaldi_layout, capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    duration = float(r.stdout.splitlines()[-1].split("=")[1])
    out = kaldi_layout / "exp" / "sys" / "decode_dev" / "kws_10"
    for name in ("sum.txt", "bsum.txt", "alignment.csv", "dets/sum.Occurrence.dat.1", "dets/sum.Occurrence.dat.2"):
        assert (out / name).is_file()
    with open(out / "alignment.csv", encoding="utf-8") as f:
        lines = f.readlines()
    assert lines[0] == "language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment\n"
    om = oracle_metrics(lines, duration)
    # the script charges FAs against T - Ntrue with T = TotDur (549.75 s); KWSEval against the
    # trials, round(T) = 550: the ATWVs differ in the 4th decimal only
    assert abs(om.atwv - float(_cell((out / "sum.txt").read_text(), "|   Occurrence", 12))) < 1e-3


@pytest.mark.skipif(not os.environ.get("KALDI_ROOT"), reason="$KALDI_ROOT (a Kaldi checkout) not set")
def test_kaldi_script_runs(kaldi_layout):
    """Kaldi's own local/kws_score_f4de.sh (egs/babel/s5d) on the bundled example, termeval's
    utils/ first on PATH: it runs unchanged and writes metrics.txt from our alignment.csv."""
    s5d = os.path.join(os.environ["KALDI_ROOT"], "egs", "babel", "s5d")
    for name in ("local", "utils"):
        if not os.path.lexists(kaldi_layout / name):
            os.symlink(os.path.join(s5d, name), kaldi_layout / name)
    env = dict(os.environ, PATH=os.pathsep.join([os.path.join(ROOT, "utils"), str(kaldi_layout / "utils"),
                                                 os.environ["PATH"]]))
    r = subprocess.run(["bash", "local/kws_score_f4de.sh", "data/dev", "exp/sys/decode_dev/kws_10"],
                       cwd=kaldi_layout, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    metrics = (kaldi_layout / "exp" / "sys" / "decode_dev" / "kws_10" / "metrics.txt").read_text()
    assert re.search(r"^ATWV = -?[0-9.]+$", metrics, re.M)
