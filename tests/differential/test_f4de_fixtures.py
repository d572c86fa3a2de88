"""termeval's utils/KWSEval against F4DE 3.5.0 outputs RECORDED in tests/differential/f4de_kwseval.tar.xz
(written by record_fixtures.sh with $F4DE_DIR and $KALDI_ROOT), replayed on every run, F4DE or not:

- generated cases (gen_kws) x option sets (Kaldi's, F4DE's tester's, random ones): every file
  KWSEval.pl wrote, compared by kws_harness.compare_runs (text byte for byte, CSV cell for cell,
  .dat number for number, PNGs by presence);
- F4DE's own tester command lines 2a-2c, 6a, 6b, 7a-7e, 9 on its public inputs (stdout and
  alignment.csv), as KWSEval.pl wrote them when run (tester_cases.py);
- Kaldi's local/kws_score_f4de.sh end to end (kaldi_e2e.py): the results directory as the script
  left it with F4DE's KWSEval (reports, alignment.csv, dets/, metrics.txt from
  kws_oracle_threshold.pl under PERL_HASH_SEED=0) and its stdout, against termeval's KWSEval on
  the script's command line and termeval's port of the oracle script.

Differences allowed, each documented in docs/std-kaldi-compat.md with the case showing it: files
F4DE did not write because it died (a recorded CRASH: what it wrote before is compared), the
order of a term's lines in alignment.csv and which reference a detection is paired with when
pairings tie in F4DE's kernel (both chosen by F4DE in memory-address hash order, differently from
run to run), PNG contents. Nothing else: any other difference fails.

With $F4DE_DIR, test_live_cases runs both tools on fresh cases (kws_harness itself).
"""
from __future__ import annotations

import json
import os
import re
import sys
import tarfile

import pytest

from termeval.std import det
from termeval.std.oracle import oracle_metrics

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kws_harness as harness  # noqa: E402
import kaldi_e2e  # noqa: E402

ARCHIVE = os.path.join(HERE, "f4de_kwseval.tar.xz")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    if not os.path.exists(ARCHIVE):
        pytest.skip("no recorded F4DE outputs")
    d = tmp_path_factory.mktemp("f4de")
    with tarfile.open(ARCHIVE) as t:
        t.extractall(d, filter="data")
    return str(d / "f4de_kwseval")


def _crash(ref_dir: str):
    p = os.path.join(ref_dir, "CRASH")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return tuple(json.load(f))


def _ref(ref_dir: str) -> dict:
    return {k: v for k, v in harness.files_of(ref_dir).items() if k != "CRASH"}


def _runs(root: str, kind: str):
    for case in sorted(os.listdir(root)):
        p = os.path.join(root, case, "argv.json")
        if os.path.exists(p) and case.startswith(kind):
            with open(p) as f:
                for name, argv in json.load(f).items():
                    if os.path.isdir(os.path.join(root, case, name)):
                        yield case, name, argv


def _check(bad: list[str], where: str, r: dict) -> None:
    bad += [f"{where}: {d}" for d in r["diffs"]]


def _empty_png(prefix: str, *args, **kwargs) -> list[str]:
    with open(prefix + ".png", "wb"):
        pass
    return [prefix + ".png"]


def test_generated_cases(recorded, tmp_path, monkeypatch):
    # PNGs are compared by name and presence only: drawing them (9 of every 10 CPU-seconds of
    # this replay) is left to the tester and Kaldi cases below, which draw every plot
    monkeypatch.setattr(det, "plot_det", _empty_png)
    monkeypatch.setattr(det, "plot_twv", _empty_png)
    bad: list[str] = []
    n = 0
    for case, name, argv in _runs(recorded, "case"):
        case_in = os.path.join(recorded, case, "in")
        ref_dir = os.path.join(recorded, case, name)
        work = str(tmp_path / case / name)
        harness.run_termeval(case_in, argv, work)
        got = harness.normalise(harness.files_of(work), case_in)
        _check(bad, f"{case} {name} ({' '.join(argv)})", harness.compare_runs(_ref(ref_dir), got, _crash(ref_dir)))
        n += 1
    assert n >= 40
    assert not bad, "\n".join(bad[:20])


def test_tester_cases(recorded, tmp_path):
    """F4DE's tester command lines, as KWSEval.pl wrote their stdout and alignment.csv when run."""
    bad: list[str] = []
    n = 0
    for case, name, argv in _runs(recorded, "tester"):
        run = tmp_path / case / "run"
        run.mkdir(parents=True)
        os.symlink(os.path.join(recorded, case, "common"), tmp_path / case / "common")
        out, rc = harness.kwseval_in(str(run), argv)
        got = harness.files_of(str(run))
        got.update({"STDOUT": out.encode(), "EXIT": f"{rc}\n".encode()})
        _check(bad, case, harness.compare_runs(_ref(os.path.join(recorded, case, name)), got))
        n += 1
    assert n == 11
    assert not bad, "\n".join(bad[:20])


def _kaldi_replay(case_in: str, root: str) -> dict:
    """What kws_score_f4de.sh leaves with termeval's KWSEval and oracle port: the KWSEval call
    (its two echo lines first), TotDur read from sum.txt as the script greps it, metrics.txt."""
    case = {}
    for name in os.listdir(case_in):
        with open(os.path.join(case_in, name), encoding="utf-8") as f:
            case[name] = f.read()
    os.makedirs(root)
    kaldi_e2e.layout_inputs(root, case)
    printed, rc = harness.kwseval_in(root, kaldi_e2e.SCRIPT_ARGV)
    res = os.path.join(root, kaldi_e2e.RESULTS)
    out = {k: v for k, v in harness.files_of(res).items() if k != "kwslist.xml"}
    stdout = kaldi_e2e.ECHO + printed
    if rc == 0:
        line = next(x for x in out["sum.txt"].decode().splitlines() if "TotDur" in x)
        duration = float(re.sub(r"\s", "", line.split("|")[2]))
        with open(os.path.join(res, "alignment.csv"), encoding="utf-8") as f:
            m = oracle_metrics(f.read().splitlines(), duration, perl_seed0=True)
        out["metrics.txt"] = m.text().encode()
    out["STDOUT"] = stdout.encode()
    out["EXIT"] = f"{0 if rc == 0 else 1}\n".encode()
    return out


def test_kaldi_script_end_to_end(recorded, tmp_path):
    bad: list[str] = []
    n = metrics = 0
    for case in sorted(os.listdir(recorded)):
        ref_dir = os.path.join(recorded, case, "kaldi_e2e")
        if not os.path.isdir(ref_dir):
            continue
        got = _kaldi_replay(os.path.join(recorded, case, "in"), str(tmp_path / case))
        ref = _ref(ref_dir)
        metrics += "metrics.txt" in ref
        _check(bad, f"{case} kws_score_f4de.sh", harness.compare_runs(ref, got, _crash(ref_dir)))
        n += 1
    assert n >= 5 and metrics >= 3
    assert not bad, "\n".join(bad[:20])


@pytest.mark.skipif(not os.environ.get("F4DE_DIR"), reason="F4DE_DIR (a built F4DE 3.5.0) not set")
def test_live_cases(capsys):
    rc = harness.main(["--cases", "2", "--first", "900"])
    out = capsys.readouterr().out
    assert "cases 2" in out and rc == 0, out


@pytest.mark.skipif(not (os.environ.get("F4DE_DIR") and os.environ.get("KALDI_ROOT")),
                    reason="F4DE_DIR and KALDI_ROOT (Kaldi's egs/babel/s5d) not set")
def test_live_kaldi_script(capsys):
    rc = kaldi_e2e.main(["--cases", "2", "--first", "900"])
    out = capsys.readouterr().out
    assert "cases 2" in out and rc == 0, out
