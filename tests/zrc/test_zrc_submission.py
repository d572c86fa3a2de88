"""score_zrc_submission (termeval.zrc): the zrc TDE17 submission layout end to end on tiny
made-up languages (gold in a zrc dataset dir made here, scores compared with zrc's own
computation through the reference tdev2 package when installed), on the registry's Mandarin
gold (the published ZR17 row), and bad input."""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess

import pytest

from termeval.bin import score_zrc_submission as szs
from termeval.core.errors import InputError
from termeval.zrc import gold as zrc_gold
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD

META = """username: tester
submission_id: sub-1
benchmark_name: tde17
model_info:
  model_id: m1
  system_description: a test system
  train_set: none
  gpu_budget: "1"
publication:
  author_label: Tester et al.
  authors: A. Tester
  paper_title: A title
  paper_url: https://example.org/paper
  publication_year: 2024
  bib_reference: null
  DOI: null
  institution: Test University
  team: null
open_source: true
code_url: https://example.org/code
"""
# a second made-up language: two files, words p q r
PHN2 = """F1 0 0.1 SIL
F1 0.1 0.2 p
F1 0.2 0.3 q
F1 0.3 0.4 r
F1 0.4 0.5 SIL
F2 0 0.1 p
F2 0.1 0.2 q
F2 0.2 0.3 r
"""
WRD2 = """F1 0.1 0.3 pq
F1 0.3 0.4 r
F2 0 0.2 pq
F2 0.2 0.3 r
"""
CLASSES2 = """Class 1
F1 0.1 0.3
F2 0 0.2

Class 2
F1 0.3 0.4
F2 0.1 0.3

"""


@pytest.fixture()
def layout(tmp_path):
    """A zrc dataset dir (index.json: english and wolof) and a submission with both languages
    (njobs 1: one process per language; the tests of the jobs path write njobs 2)."""
    ds = tmp_path / "zrc2017-test-dataset"
    for lang, phn, wrd in (("english", PHN2, WRD2), ("wolof", MICRO_PHN, MICRO_WRD)):
        (ds / lang).mkdir(parents=True)
        (ds / lang / f"{lang}.phn").write_text(phn)
        (ds / lang / f"{lang}.wrd").write_text(wrd)
    index = {"subsets": {lang: {"items": {
        "alignment_words": {"item_type": "file_item", "file_type": "wrd", "file": f"{lang}/{lang}.wrd"},
        "alignment_phones": {"item_type": "file_item", "file_type": "phn", "file": f"{lang}/{lang}.phn"}}}
        for lang in ("english", "wolof")}}
    (ds / "index.json").write_text(json.dumps(index))
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "meta.yaml").write_text(META)
    (sub / "params.yaml").write_text("njobs: 1\nquiet: false\n")
    (sub / "english.txt").write_text(CLASSES2)
    (sub / "wolof.txt").write_text(MICRO_CLASSES)
    (sub / "french.txt").write_text("")
    return tmp_path, ds, sub


def run_main(sub, ds, *more):
    szs.main(["--zrc-dataset", str(ds), "--partial", "true", *more, str(sub)])
    with open(sub / "scores" / "scores.json") as f:
        text = f.read()
    with open(sub / "scores" / "leaderboard.json") as f:
        return text, json.load(f)


def zrc_reference(phn, wrd, classes):
    """What zrc 0.9.4's TDETask.gather_metrics computes and writes for one language (tdev2)."""
    from tde_reference import reference
    R = reference()
    gold = R.Gold(wrd_path=wrd, phn_path=phn)
    disc = R.Disc(classes, gold)
    scores = dict(matching=dict(), boundary=dict(), token=dict(), type=dict(), nlp=dict(), grouping=dict())
    b = R.Boundary(gold, disc)
    b.compute_boundary()
    scores["boundary"].update(precision=b.precision, recall=b.recall, fscore=b.fscore)
    tt = R.TokenType(gold, disc)
    tt.compute_token_type()
    scores["token"]["precision"], scores["type"]["precision"] = tt.precision
    scores["token"]["recall"], scores["type"]["recall"] = tt.recall
    scores["token"]["fscore"], scores["type"]["fscore"] = tt.fscore
    scores["nlp"]["nwords"] = len(tt.type_seen),
    cov = R.Coverage(gold, disc)
    cov.compute_coverage()
    ned = R.Ned(disc)
    ned.compute_ned()
    scores["nlp"].update(ned=ned.ned, coverage=cov.coverage, npairs=ned.n_pairs)
    g = R.Grouping(disc)
    g.compute_grouping()
    scores["grouping"].update(precision=g.precision, recall=g.recall, fscore=g.fscore)
    return {m: (s if len(s) else None) for m, s in scores.items()}


def assert_same_block(ours, ref):
    assert list(ours) == list(ref)
    for m in ref:
        if ref[m] is None:
            assert ours[m] is None
            continue
        assert list(ours[m]) == list(ref[m]), m
        for k, v in ref[m].items():
            if isinstance(v, tuple):
                assert ours[m][k] == list(v)
            elif isinstance(v, float) and math.isnan(v):
                assert ours[m][k] is None, (m, k)
            else:
                assert ours[m][k] == pytest.approx(v, rel=1e-9, abs=1e-12), (m, k)
                assert type(ours[m][k]) is (int if isinstance(v, int) else float), (m, k)


def test_tiny_languages_end_to_end(layout, capsys):
    tmp, ds, sub = layout
    (sub / "params.yaml").write_text("njobs: 2\nquiet: false\n")      # each language as 2 jobs and a merge
    text, board = run_main(sub, ds)
    captured = capsys.readouterr()
    assert "warning: " + str(sub / "french.txt") + ": empty: zrc 0.9.4 refuses" in captured.err
    assert "warning: " + str(sub / "german.txt") + ": missing: zrc 0.9.4 needs" in captured.err
    # issue 40 item 21: stderr names the classes where they end up, never an internal temporary
    assert ".termeval-tmp." not in captured.err
    assert f"prepared {sub / 'english.txt'} -> {sub / 'scores' / 'termeval' / 'english' / 'classes'}: " in captured.err
    scores = json.loads(text)
    assert list(scores) == ["english", "wolof"] and not text.endswith("\n")
    assert text.startswith('{"english": {"matching": null, "boundary": {"precision": ')
    # english by hand: gold words pq r | pq r; class 1 = the two pq tokens (same transcription),
    # class 2 = F1 r (r) and F2 0.1-0.3 (q r): NED pairs (1) pq/pq 0, (2) r / q r = 1/2
    en = scores["english"]
    assert en["nlp"] == {"nwords": [3], "ned": 0.25, "coverage": 1.0, "npairs": 2}
    assert en["token"]["precision"] == 0.75 and en["token"]["recall"] == 0.75
    # leaderboard: all five languages, types right
    assert list(board["scores"]) == ["english", "french", "mandarin", "german", "wolof"]
    assert board["scores"]["french"]["nlp"] is None
    nlp = board["scores"]["english"]["nlp"]
    assert nlp == {"ned": 0.25, "coverage": 1.0, "nwords": 3, "npairs": 2}
    assert isinstance(nlp["ned"], float) and isinstance(nlp["nwords"], int)
    assert board["details"] == {"train_set": "none", "benchmarks": ["TDE-17"], "gpu_budget": "1",
                                "parameters": {"quiet": False, "njobs": 2}}
    assert board["publication"]["paper_ref"] == "A. Tester (2024 A title)"
    assert board["submitted_by"] == "tester" and board["description"] == "a test system"
    # termeval's full dirs and the record
    run = json.load(open(sub / "scores" / "termeval" / "run.json"))
    assert run["nj"] == 2 and set(run["languages"]) == {"english", "wolof"}
    assert all(v["wall_time_s"] >= 0 for v in run["languages"].values())
    te = json.load(open(sub / "scores" / "termeval" / "english" / "scores" / "scores.json"))
    assert te["ned"] == 0.25 and te["benchmark"] == "zrc2020"
    page = (sub / "scores" / "termeval" / "english" / "report.html").read_text()     # docs/report.md
    assert '<table class="te-score" data-file="scores/matching">' in page and "te-tl-data" in page
    # the page names where it and its data dir are, never the run's publish temporary
    assert ".termeval-tmp." not in page and f"{sub}/scores/termeval/english/data<" in page
    out = captured.out.splitlines()
    assert out[0].split()[:3] == ["language", "NED", "cov"] and out[1].split()[:3] == ["english", "25.00", "100.00"]
    assert not [n for n in os.listdir(sub) if n.startswith(".scores")]


def test_tiny_languages_equal_zrc_reference(layout):
    tmp, ds, sub = layout
    text, _ = run_main(sub, ds, "--nj", "1")
    scores = json.loads(text)
    for lang, classes in (("english", "english.txt"), ("wolof", "wolof.txt")):
        ref = zrc_reference(str(ds / lang / f"{lang}.phn"), str(ds / lang / f"{lang}.wrd"), str(sub / classes))
        assert_same_block(scores[lang], ref)


def test_languages_option_and_rerun_replaces(layout):
    tmp, ds, sub = layout
    run_main(sub, ds)
    text, board = run_main(sub, ds, "--languages", "wolof")
    assert list(json.loads(text)) == ["wolof"]
    assert not (sub / "scores" / "termeval" / "english").exists()
    assert board["scores"]["english"]["token"] is None


def test_registry_mandarin_published_row(tmp_path, capsys):
    # skipped only when the files are absent: any other error of the locator fails the test
    if not any(os.path.isfile(os.path.join(d, "mandarin.phn")) and os.path.isfile(os.path.join(d, "mandarin.wrd"))
               for d in zrc_gold.registry_dirs()):
        pytest.skip("the registry package's Mandarin gold is not available (local/get_zr17.sh)")
    g = zrc_gold.locate("mandarin", str(tmp_path / "no-dataset"))
    kamper = os.path.join(os.path.dirname(g.phn), "kamper_mandarin.class")
    if not os.path.isfile(kamper):
        pytest.skip("kamper_mandarin.class not available")
    sub = tmp_path / "kamper"
    sub.mkdir()
    (sub / "meta.yaml").write_text(META)
    (sub / "mandarin.txt").write_text(open(kamper).read())
    szs.main(["--zrc-dataset", str(tmp_path / "no-dataset"), "--partial", "true", str(sub)])
    s = json.load(open(sub / "scores" / "scores.json"))["mandarin"]
    pct = lambda x: round(100 * x, 2)  # noqa: E731
    assert pct(s["nlp"]["ned"]) == 88.07 and pct(s["nlp"]["coverage"]) == 100.0
    assert [pct(s["grouping"][k]) for k in ("precision", "recall", "fscore")] == [20.24, 31.48, 24.64]
    assert [pct(s["token"][k]) for k in ("precision", "recall", "fscore")] == [7.01, 9.61, 8.11]
    assert [pct(s["type"][k]) for k in ("precision", "recall", "fscore")] == [6.79, 10.88, 8.36]
    assert [pct(s["boundary"][k]) for k in ("precision", "recall", "fscore")] == [42.59, 75.64, 54.49]
    # tdev2's own values (../shared/reference/tdev2/README.md)
    assert s["nlp"]["ned"] == 0.8807128460991229 and s["nlp"]["npairs"] == 357082
    assert s["token"]["precision"] == 0.07011532368004127 and s["nlp"]["nwords"] == [14218]
    assert "mandarin  88.07  100.00  20.24" in capsys.readouterr().out


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("edit,message", [
    (lambda s: (s / "meta.yaml").unlink(), "meta.yaml: missing"),
    (lambda s: (s / "meta.yaml").write_text("username: [a\n"), "meta.yaml:2: not valid YAML"),
    (lambda s: (s / "meta.yaml").write_text(META.replace("tester", "<username>")),
     "meta.yaml:1: username: has value from template"),
    (lambda s: (s / "meta.yaml").write_text(META.replace("  institution: Test University\n", "")),
     "meta.yaml:9: publication.institution: required, was not found or empty"),
    (lambda s: (s / "meta.yaml").write_text(META.replace("benchmark_name: tde17", "benchmark_name: abx17")),
     "meta.yaml:3: benchmark_name: expected tde17 or test-tde17"),
    (lambda s: (s / "params.yaml").write_text("njobs: zero\n"), "params.yaml:1: njobs: expected an integer"),
    (lambda s: (s / "params.yaml").write_text("quiet: false\nnjobs: 99999999999\n"),
     "params.yaml:2: njobs: expected an integer from 1 to 1024, got 99999999999"),
    (lambda s: (s / "params.yaml").write_text("njobs: -1\n"), "params.yaml:1: njobs: expected an integer from 1 to 1024"),
    (lambda s: (s / "params.yaml").write_text("njobs: 1.5\n"), "params.yaml:1: njobs: expected an integer from 1 to 1024"),
    (lambda s: (s / "meta.yaml").write_text(META.replace("username: tester", "username: [alice, bob]")),
     "meta.yaml:1: username: expected a string, got a list"),
    (lambda s: (s / "meta.yaml").write_text(META.replace("  team: null", "  team: {a: 1}")),
     "meta.yaml:18: publication.team: expected a string, got a mapping"),
    (lambda s: (s / "meta.yaml").write_text(META + "x: " + "y" * 70000 + "\n"), "meta.yaml: larger than 64 kB"),
    (lambda s: (s / "spanish.txt").write_text("Class 1\nx 0 1\n"), "spanish.txt: unknown language file"),
    (lambda s: (s / "wolof.txt").write_text("A 0 0.3\n"), "wolof.txt:1: expected a ZeroSpeech class file"),
    (lambda s: (s / "wolof.txt").write_text("Class 1\nA 0.3\n"), "wolof.txt:2: expected `<file> <onset> <offset>`"),
    (lambda s: (s / "wolof.txt").write_text("Class 1\nZZ 0 0.3\n"), "wolof.txt:2"),
    (lambda s: (shutil.rmtree(s / "scores"), (s / "scores").write_text("x")), "scores: exists and is not a directory"),
    (lambda s: (s / "german.txt").write_text("Class 1\nA 0 1\n"), "no gold alignments for german"),
])
def test_bad_submission(layout, edit, message):
    tmp, ds, sub = layout
    run_main(sub, ds)
    before = (sub / "scores" / "scores.json").read_text()
    edit(sub)
    with pytest.raises(InputError) as e:
        szs.main(["--zrc-dataset", str(ds), "--partial", "true", str(sub)])
    assert message in str(e.value)
    if (sub / "scores").is_dir():
        assert (sub / "scores" / "scores.json").read_text() == before     # left as it was
    assert not [n for n in os.listdir(sub) if n.startswith(".scores")]


def test_meta_errors_one_line_each_and_warnings(layout, root):
    tmp, ds, sub = layout
    meta = META.replace("username: tester\n", "").replace("  authors: A. Tester\n", "") \
        .replace("  paper_url: https://example.org/paper\n", "").replace("code_url: https://example.org/code\n", "")
    (sub / "meta.yaml").write_text(meta)
    r = subprocess.run([os.path.join(root, "steps", "score_zrc_submission.sh"), "--zrc-dataset", str(ds), str(sub)],
                       capture_output=True, text=True)
    assert r.returncode == 1
    errors = [l for l in r.stderr.splitlines() if ": error: " in l]
    assert len(errors) == 2
    assert "meta.yaml: username: required" in errors[0]
    assert "meta.yaml:8: publication.authors: required" in errors[1]
    assert not (sub / "scores").exists()
    (sub / "meta.yaml").write_text(META.replace("username: tester\n", "username: tester\n").replace(
        "  paper_url: https://example.org/paper\n", ""))
    r = subprocess.run([os.path.join(root, "steps", "score_zrc_submission.sh"), "--zrc-dataset", str(ds),
                        "--partial", "true", str(sub)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "warning: " in r.stderr and "publication.paper_url: recommended" in r.stderr


# ----------------------------------------------------------------------------- leftovers, modes, njobs

def test_temporaries_of_a_killed_run_are_removed_by_the_next(layout, root):
    """kill -9 of a run leaves its temporary scores dir (.termeval-tmp.<pid>.<host>.*); the next
    run removes those of dead processes of this host, and never those of a live one."""
    from termeval.core import publish
    tmp, ds, sub = layout
    dead = subprocess.Popen(["true"])
    dead.wait()
    live = subprocess.Popen(["sleep", "60"])
    try:
        stale = sub / f"{publish.TMP_PREFIX}{dead.pid}.{publish.host_tag()}.0badc0de.scores"
        busy = sub / f"{publish.TMP_PREFIX}{live.pid}.{publish.host_tag()}.0badc0de.scores"
        for d in (stale, busy):
            (d / "termeval" / "english").mkdir(parents=True)
            (d / "termeval" / "english" / "half").write_text("x")
        r = subprocess.run([os.path.join(root, "steps", "score_zrc_submission.sh"), "--zrc-dataset", str(ds),
                            "--partial", "true", str(sub)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert not stale.exists() and (busy / "termeval" / "english" / "half").is_file()
        assert sorted(n for n in os.listdir(sub) if n.startswith(".")) == [busy.name]
    finally:
        live.kill()
        live.wait()


def test_scores_follow_the_umask(layout):
    import stat
    tmp, ds, sub = layout
    (sub / "params.yaml").write_text("njobs: 2\nquiet: false\n")      # the jobs' files too
    old = os.umask(0o022)
    try:
        run_main(sub, ds)
    finally:
        os.umask(old)
    for d in (sub / "scores", sub / "scores" / "termeval", sub / "scores" / "termeval" / "english" / "scores"):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o755, d
    assert stat.S_IMODE(os.stat(sub / "scores" / "scores.json").st_mode) == 0o644


def test_huge_njobs_is_capped_at_the_cores(layout, capsys):
    from termeval.run.launcher import cores
    tmp, ds, sub = layout
    (sub / "params.yaml").write_text("njobs: 1024\nquiet: false\n")      # the most params.yaml may ask
    _, board = run_main(sub, ds)
    err = capsys.readouterr().err
    if cores() < 1024:
        assert f"score_zrc_submission: note: 1024 jobs (njobs) asked, {cores()} core" in err
    assert board["details"]["parameters"]["njobs"] == 1024
    assert json.load(open(sub / "scores" / "termeval" / "run.json"))["nj"] == 1024
    assert json.load(open(sub / "scores" / "scores.json"))["english"]["nlp"]["ned"] == 0.25


BOMB = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}" if i else '"lol"'] * 9) + "]\n" for i in range(10))


def test_yaml_alias_bomb_is_one_error_line(layout, root):
    """A billion-laughs username: refused at once (aliases are not accepted), one line."""
    tmp, ds, sub = layout
    (sub / "meta.yaml").write_text(BOMB + META.replace("username: tester", "username: *l9"))
    r = subprocess.run([os.path.join(root, "steps", "score_zrc_submission.sh"), "--zrc-dataset", str(ds), str(sub)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    errors = [l for l in r.stderr.splitlines() if ": error: " in l]
    assert errors == [f"score_zrc_submission.py: error: {sub}/meta.yaml:2: not valid YAML: "
                      "alias *l0 not accepted (aliases are refused in this file)"]


def _dangling(p):
    p.symlink_to(p.parent / "nowhere.txt")


def _loop(p):
    p.symlink_to(p)


@pytest.mark.parametrize("make,what", [
    (lambda p: None, "missing"),
    (lambda p: p.mkdir(), "a directory"),
    (_dangling, "a dangling symlink or a symlink loop"),
    (_loop, "a dangling symlink or a symlink loop"),
    (lambda p: p.write_text("\n"), "empty"),
])
def test_language_file_not_there_refused_as_zrc_or_partial(layout, capsys, make, what):
    """zrc 0.9.4 refuses a submission without every language's non-empty class file; so do we
    (its rule named); --partial true scores the rest with a warning line per language."""
    tmp, ds, sub = layout
    (sub / "french.txt").unlink()
    make(sub / "french.txt")
    langs = ["--languages", "english,french,wolof"]
    with pytest.raises(InputError) as e:
        szs.main(["--zrc-dataset", str(ds), *langs, str(sub)])
    rule = "'Given TDE Disc file does not exist'" if what != "empty" else "'list index out of range'"
    assert str(e.value).startswith(f"{sub / 'french.txt'}: {what}: zrc 0.9.4 ") and rule in str(e.value)
    assert str(e.value).endswith("; --partial true scores the languages there")
    capsys.readouterr()
    szs.main(["--zrc-dataset", str(ds), *langs, "--partial", "true", str(sub)])
    err = capsys.readouterr().err
    assert f"score_zrc_submission: warning: {sub / 'french.txt'}: {what}: " in err
    assert list(json.load(open(sub / "scores" / "scores.json"))) == ["english", "wolof"]


def test_all_five_languages_needed_by_default(layout):
    tmp, ds, sub = layout
    (sub / "french.txt").unlink()
    with pytest.raises(InputError) as e:
        szs.main(["--zrc-dataset", str(ds), str(sub)])
    assert str(e.value).startswith(f"{sub / 'french.txt'}: missing: zrc 0.9.4 needs a class file for every language")


def test_unreadable_submission_dir_one_line(layout, root):
    tmp, ds, sub = layout
    if os.geteuid() == 0:
        import shutil as sh
        if not sh.which("setpriv"):
            pytest.skip("root reads a mode-000 directory and setpriv is not there")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        step = os.path.join(root, "steps", "score_zrc_submission.sh")
        if subprocess.run(prefix + ["test", "-x", step, "-a", "-r", step], cwd="/").returncode != 0:
            pytest.skip("the checkout is not readable by an unprivileged user (a private clone dir)")
    else:
        prefix = []
    import tempfile
    top = tempfile.mkdtemp()                  # pytest's tmp dirs are private to root
    os.chmod(top, 0o755)
    sub = os.path.join(top, "sub")
    os.mkdir(sub, 0)
    try:
        r = subprocess.run(prefix + [os.path.join(root, "steps", "score_zrc_submission.sh"), sub],
                           capture_output=True, text=True, cwd="/")
    finally:
        shutil.rmtree(top)
    errors = [l for l in r.stderr.splitlines() if "rror" in l or "denied" in l]
    assert r.returncode == 1 and errors == [f"score_zrc_submission.sh: error: {sub}: permission denied"], r.stderr


def test_bootstrap_beyond_the_maximum_refused_before_any_work(layout, root, capsys):
    tmp, ds, sub = layout
    r = subprocess.run([os.path.join(root, "steps", "score_zrc_submission.sh"), "--zrc-dataset", str(ds),
                        "--bootstrap", "1000000000", str(sub)], capture_output=True, text=True)
    assert r.returncode == 1 and [l for l in r.stderr.splitlines() if "rror" in l or "sage" in l] == [
        "score_zrc_submission.sh: error: --bootstrap: at most 100000 resamples (docs/uncertainty.md), got '1000000000'"]
    from termeval import command
    assert command.main(["score-zrc-submission", "--zrc-dataset", str(ds), "--bootstrap", "1000000000", str(sub)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "termeval score-zrc-submission: error: argument --bootstrap: at most 100000 resamples "
        "(docs/uncertainty.md), got '1000000000'",
        "Usage: termeval score-zrc-submission [options] <submission_dir> (--help for options)"]
    assert not (sub / "scores").exists()
