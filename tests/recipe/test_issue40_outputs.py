"""Issue 40 §1-2: every output option of every step, through each face (the shell step or
util, the `termeval` command, the Python API), given
  (a) an existing directory where the step writes a file (or an existing directory it would
      replace whole that is not its own earlier output),
  (b) one of the run's input files (or its input directory),
  (c) a file inside one of the run's input directories,
is refused: non-zero exit (the API: InputError or OSError), one error line, and the target is
byte-identical afterwards (its tree hashed before and after). A case that cannot arise for an
option (an option whose step has no input directory, or no input at all) is listed in `NA`
with the reason.

The `termeval` command runs in this process (termeval.command.main), as the API does;
the shell faces are subprocesses. A `--nj`-less run of a tiny corpus: the whole file takes a
few seconds."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest

import termeval
from termeval.core.errors import InputError
from termeval.gold import prepare_zr
from termeval import command

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_job_paths import CLS, PHN, SEG, WRD  # noqa: E402  (the tiny corpus)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "units"))
import units_cases  # noqa: E402  (the DiscoPhon cases)

ROOT = os.path.dirname(os.path.dirname(HERE))
META = open(os.path.join(ROOT, "tests", "zrc", "test_zrc_submission.py"), encoding="utf-8").read() \
    .split('META = """', 1)[1].split('"""', 1)[0]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """Every input of every step, once: the tiny gold and data dir, classes, a segmentation,
    texts, the STD example (kws dir, detections), a resources file, two scored systems, a zrc
    dataset and submission, an export dir."""
    d = tmp_path_factory.mktemp("issue40")
    (d / "x.phn").write_text(PHN)
    (d / "x.wrd").write_text(WRD)
    (d / "x.class").write_text(CLS)
    (d / "seg.txt").write_text(SEG)
    prepare_zr(str(d / "x.phn"), str(d / "x.wrd"), str(d / "data"))
    (d / "gold.txt").write_text("ab c\nd e\n")
    (d / "tseg.txt").write_text("a b c\nde\n")
    (d / "kw.txt").write_text("k1 ab\nk2 d\n")
    (d / "units.txt").write_text("f1 1 1 2 2 2\nf2 3 3 3 4 4\n")
    (d / "res.conf").write_text("[audio]\nt_omega_s = 3600\nt_query_s = 10\n[index]\ncpu_s = 5\npmu_gb = 1\n"
                                "[search]\ncpu_s = 2\npmu_gb = 1\n[report]\nlambda = 0.1\n")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "local", "make_example_std.py"), str(d / "std")],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT))
    assert r.returncode == 0, r.stderr
    for s in ("sa", "sb"):
        termeval.score_segmentation(str(d / "data"), str(d / "seg.txt"), exp_dir=str(d / "exp" / s))
    termeval.export_text(str(d / "data"), str(d / "text"))
    (d / "tseg2.txt").write_text("ab\nd e\n")
    ds = d / "ds"
    (ds / "english").mkdir(parents=True)
    shutil.copy(d / "x.phn", ds / "english" / "english.phn")
    shutil.copy(d / "x.wrd", ds / "english" / "english.wrd")
    (ds / "index.json").write_text(json.dumps({"subsets": {"english": {"items": {
        "alignment_words": {"file": "english/english.wrd"}, "alignment_phones": {"file": "english/english.phn"}}}}}))
    (d / "sub").mkdir()
    (d / "sub" / "meta.yaml").write_text(META)
    (d / "sub" / "params.yaml").write_text("njobs: 1\nquiet: false\n")
    (d / "sub" / "english.txt").write_text(CLS)
    files, _ = units_cases.discophon_case("basic")          # a DiscoPhon dataset and predictions
    units_cases.write(files, str(d))
    termeval.prepare_gold(str(d / "dataset/alignment/alignment-deu-dev.txt"), format="discophon",
                          data_dir=str(d / "data_deu"))
    return d


def copy_inputs(template, dest) -> None:
    """The inputs, hard-linked (cheap): a run that left an input unchanged left the template
    unchanged (outputs are put in place by rename, which replaces a link, never writes through it)."""
    shutil.copytree(template, dest, symlinks=True, copy_function=os.link)


@pytest.fixture()
def w(template, tmp_path):
    dest = tmp_path / "w"
    copy_inputs(template, dest)
    return dest


@dataclass
class Output:
    """One output option: its step through each face, and where (a), (b), (c) put it."""
    shell: str | None                          # steps/x.sh or utils/x relative to the root
    cmd: str | None                            # the `termeval` command's step
    args: Callable[[str], list[str]]           # the arguments with the option's value
    api: Callable[[Any, str], Any] | None      # the API call with the value (work dir, value)
    # case -> (work dir -> (the option's value, the tree that must stay as it was))
    cases: dict[str, Callable[[Any], tuple[str, str]]] = field(default_factory=dict)


def mkdir_with_file(path) -> str:
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "mine.txt"), "w") as f:
        f.write("the user's file\n")
    return str(path)


def in_exp(rel: str, exp: str = "exp/new"):
    """(a) for an exp dir option: the exp dir, with a directory where the step writes `rel`."""
    def place(w):
        mkdir_with_file(w / exp / rel)
        return exp, str(w / exp / rel)
    return place


def given(value: str, watched: str | None = None):
    def place(w):
        return value, str(w / (watched or value))
    return place


def a_dir(value: str = "mine"):
    def place(w):
        mkdir_with_file(w / value)
        return value, str(w / value)
    return place


def own_file(rel: str, default: str, exp: str = "exp/new"):
    """The cases of a file the step writes in its exp dir (report.html, a TextGrid), the option's
    value being the step's input: (a) a directory there, the input `default`; (b) the input
    itself there (a copy of `default`, a file or a directory)."""
    def a(w):
        return default, mkdir_with_file(w / exp / rel)

    def b(w):
        os.makedirs(os.path.dirname(w / exp / rel), exist_ok=True)
        (shutil.copytree if os.path.isdir(w / default) else shutil.copy)(w / default, w / exp / rel)
        return f"{exp}/{rel}", str(w / exp / rel)
    return {"a": a, "b": b}


STD = ["std/kws", "std/detections.kwslist.xml"]
UNITS = "predictions/units-deu-dev.jsonl"
UNITS_OPTS = ["--n-units", "256", "--n-phonemes", "41"]
# the one file a term discovery or text segmentation run writes in its exp dir outside its own
# scores/, details/, units/ and classes/ (which it replaces whole, by design): the lock
LOCK = ".termeval.lock"
KWSEVAL = ["-e", "std/kws/ecf.xml", "-r", "std/kws/rttm", "-t", "std/kws/tlist.xml", "-o"]


def kwseval_args(root: str) -> list[str]:
    """(b): the detections are <root>sum.txt, the file the summary report would overwrite."""
    return [*KWSEVAL, "-s", f"{root}sum.txt" if root == "in/" else "std/detections.kwslist.xml", "-f", root]

OUTPUTS: dict[str, Output] = {
    "score_tde exp_dir": Output(
        "steps/score_tde.sh", "score-tde", lambda v: ["data", "x.class", v],
        lambda w, v: termeval.score_tde(str(w / "data"), str(w / "x.class"), exp_dir=str(w / v)),
        {"a": in_exp(LOCK), "b": given("x.class"), "c": given("data/phones")}),
    "score_units exp_dir": Output(
        "steps/score_units.sh", "score-units", lambda v: [*UNITS_OPTS, "data_deu", UNITS, v],
        lambda w, v: termeval.score_units(str(w / "data_deu"), str(w / UNITS), exp_dir=str(w / v), n_units=256,
                                          n_phonemes=41),
        {"a": in_exp("scores/units"), "b": given(UNITS), "c": given("data_deu/phones")}),
    "score_discophon output_dir": Output(
        "steps/score_discophon.sh", "score-discophon", lambda v: ["dataset", "predictions", v],
        lambda w, v: termeval.score_discophon(str(w / "dataset"), str(w / "predictions"), exp_dir=str(w / v)),
        {"a": in_exp("scores.jsonl"), "b": given(UNITS), "c": given("dataset/alignment/alignment-deu-dev.txt")}),
    "score_units report.html": Output(
        "steps/score_units.sh", "score-units", lambda v: [*UNITS_OPTS, "data_deu", v, "exp/new"],
        lambda w, v: termeval.score_units(str(w / "data_deu"), str(w / v), exp_dir=str(w / "exp/new"), n_units=256,
                                          n_phonemes=41),
        own_file("report.html", UNITS)),
    "score_units --textgrids true": Output(
        "steps/score_units.sh", "score-units", lambda v: [*UNITS_OPTS, "--textgrids", "true", "data_deu", v, "exp/new"],
        lambda w, v: termeval.score_units(str(w / "data_deu"), str(w / v), exp_dir=str(w / "exp/new"), n_units=256,
                                          n_phonemes=41, textgrids=True),
        own_file("details/textgrids/deu-dev-0000.TextGrid", UNITS)),
    "score_discophon report.html": Output(
        "steps/score_discophon.sh", "score-discophon", lambda v: ["dataset", v, "exp/new"],
        lambda w, v: termeval.score_discophon(str(w / "dataset"), str(w / v), exp_dir=str(w / "exp/new")),
        own_file("report.html", "predictions")),
    "score_tde_folds exp_dir": Output(
        "steps/score_tde_folds.sh", None, lambda v: ["data", "x.class", v], None,
        {"a": in_exp(LOCK), "b": given("x.class"), "c": given("data/phones")}),
    "prepare_classes exp_dir": Output(
        "steps/prepare_classes.sh", "prepare-classes", lambda v: ["data", "x.class", v],
        lambda w, v: termeval.prepare_classes(str(w / "data"), str(w / "x.class"), str(w / v)),
        {"a": in_exp("scores/prepare"), "b": given("x.class"), "c": given("data/words")}),
    "prepare_gold data_dir": Output(
        "steps/prepare_gold.sh", "prepare-gold", lambda v: ["--format", "zr", "x.phn", "x.wrd", v],
        lambda w, v: termeval.prepare_gold(str(w / "x.phn"), str(w / "x.wrd"), format="zr", data_dir=str(w / v)),
        {"a": in_exp("phones", "newdata"), "b": given("x.phn"), "c": given("data/phones")}),
    "prepare_kws kws_dir": Output(
        "steps/prepare_kws.sh", "prepare-kws", lambda v: ["--keywords", "kw.txt", "data", v],
        lambda w, v: termeval.prepare_kws(str(w / "data"), str(w / v), keywords=str(w / "kw.txt")),
        {"a": a_dir(), "b": given("kw.txt"), "c": given("data/phones")}),
    "score_std exp_dir": Output(
        "steps/score_std.sh", "score-std", lambda v: [*STD, v],
        lambda w, v: termeval.score_std(str(w / STD[0]), str(w / STD[1]), exp_dir=str(w / v)),
        {"a": in_exp("scores/std"), "b": given(STD[1]), "c": given("std/kws/ecf.xml")}),
    "score_quesst exp_dir": Output(
        "steps/score_quesst.sh", "score-quesst", lambda v: ["std/kws", "std/detections.stdlist.xml", v],
        lambda w, v: termeval.score_quesst(str(w / "std/kws"), str(w / "std/detections.stdlist.xml"), exp_dir=str(w / v)),
        {"a": in_exp("scores/quesst"), "b": given("std/detections.stdlist.xml"), "c": given("std/kws/rttm")}),
    "score_resources exp_dir": Output(
        "steps/score_resources.sh", "score-resources", lambda v: ["--resources-file", "res.conf", "std/kws", v],
        lambda w, v: termeval.score_resources(str(w / "std/kws"), str(w / v), resources_file=str(w / "res.conf")),
        {"a": in_exp("scores/resources"), "b": given("res.conf"), "c": given("std/kws/ecf.xml")}),
    "score_segmentation exp_dir": Output(
        "steps/score_segmentation.sh", "score-segmentation", lambda v: ["data", "seg.txt", v],
        lambda w, v: termeval.score_segmentation(str(w / "data"), str(w / "seg.txt"), exp_dir=str(w / v)),
        {"a": in_exp("scores/segmentation"), "b": given("seg.txt"), "c": given("data/phones")}),
    "score_segmentation report.html": Output(
        "steps/score_segmentation.sh", "score-segmentation", lambda v: ["data", v, "exp/new"],
        lambda w, v: termeval.score_segmentation(str(w / "data"), str(w / v), exp_dir=str(w / "exp/new")),
        own_file("report.html", "seg.txt")),
    "score_segmentation --textgrids true": Output(
        "steps/score_segmentation.sh", "score-segmentation", lambda v: ["--textgrids", "true", "data", v, "exp/new"],
        lambda w, v: termeval.score_segmentation(str(w / "data"), str(w / v), exp_dir=str(w / "exp/new"),
                                                 textgrids=True),
        own_file("details/textgrids/f1.TextGrid", "seg.txt")),
    "compare_scorers exp_dir": Output(
        "utils/compare_scorers.sh", None, lambda v: ["data", "seg.txt", v], None,
        {"a": in_exp("scores/segmentation_compare"), "b": given("seg.txt"), "c": given("data/words")}),
    "score_text_segmentation exp_dir": Output(
        "steps/score_text_segmentation.sh", "score-text-segmentation", lambda v: ["gold.txt", "tseg.txt", v],
        lambda w, v: termeval.score_text_segmentation(str(w / "gold.txt"), str(w / "tseg.txt"), exp_dir=str(w / v)),
        {"a": in_exp(LOCK), "b": given("gold.txt"), "c": given("text/gold.txt")}),
    "score_text_segmentation --summary": Output(
        "steps/score_text_segmentation.sh", "score-text-segmentation",
        lambda v: ["--summary", v, "gold.txt", "tseg.txt", "exp/ts"],
        lambda w, v: termeval.score_text_segmentation(str(w / "gold.txt"), str(w / "tseg.txt"), exp_dir=str(w / "exp/ts"),
                                                      summary=str(w / v)),
        {"a": a_dir(), "b": given("gold.txt")}),
    "score_zrc_submission dir": Output(
        "steps/score_zrc_submission.sh", "score-zrc-submission",
        lambda v: ["--zrc-dataset", "ds", "--partial", "true", v],
        lambda w, v: termeval.score_zrc_submission(str(w / v), zrc_dataset=str(w / "ds"), partial=True),
        {"a": given("sub/english.txt"), "b": given("sub/english.txt"), "c": given("data/phones")}),
    "score_zrc_submission --init": Output(
        "steps/score_zrc_submission.sh", "score-zrc-submission", lambda v: ["--init", v], None,
        {"a": in_exp("meta.yaml", "newsub"), "b": given("x.class"), "c": given("data/phones")}),
    "compare_systems out_dir": Output(
        "steps/compare_systems.sh", "compare-systems", lambda v: ["exp/sa", "exp/sb", v],
        lambda w, v: termeval.compare_systems([str(w / "exp/sa"), str(w / "exp/sb")], out_dir=str(w / v)),
        {"a": in_exp("RESULTS.compare.md", "exp/cmp"), "b": given("exp/sa"),
         "c": given("exp/sa/scores/scores.json")}),
    "compare_systems report.html": Output(
        "steps/compare_systems.sh", "compare-systems", lambda v: ["exp/sa", "exp/sb", v],
        lambda w, v: termeval.compare_systems([str(w / "exp/sa"), str(w / "exp/sb")], out_dir=str(w / v)),
        {"a": in_exp("report.html", "exp/cmp")}),
    "convert_segments output": Output(
        "utils/convert_segments.sh", "convert-segments",
        lambda v: ["--from", "units", "--frame-shift", "0.1", "units.txt", v], None,
        {"a": a_dir(), "b": given("units.txt")}),
    "export_text out_dir": Output(
        "utils/export_text.sh", "export-text", lambda v: ["data", v],
        lambda w, v: termeval.export_text(str(w / "data"), str(w / v)),
        {"a": in_exp("gold.txt", "newtext"), "b": given("data"), "c": given("data/phones")}),
    "text_to_times out_dir": Output(
        "utils/text_to_times.sh", "text-to-times", lambda v: ["text", "tseg2.txt", v],
        lambda w, v: termeval.text_to_times(str(w / "text"), str(w / "tseg2.txt"), str(w / v)),
        {"a": in_exp("intervals", "times"), "b": given("tseg2.txt"), "c": given("text/gold.txt")}),
    "export_zr out_phn": Output(
        "utils/export_zr.sh", "export-zr", lambda v: ["data", v, "out.wrd"],
        lambda w, v: termeval.export_zr(str(w / "data"), str(w / v), str(w / "out.wrd")),
        {"a": a_dir(), "b": given("data"), "c": given("data/words")}),
    "export_zr out_wrd": Output(
        "utils/export_zr.sh", "export-zr", lambda v: ["data", "out.phn", v],
        lambda w, v: termeval.export_zr(str(w / "data"), str(w / "out.phn"), str(w / v)),
        {"a": a_dir(), "b": given("data"), "c": given("data/phones")}),
    "measure_resources exp_dir": Output(
        "utils/measure_resources.sh", "measure-resources", lambda v: [v, "search", "--", "true"],
        lambda w, v: termeval.measure_resources(str(w / v), "search", ["true"]),
        {"a": in_exp("resources/search")}),
    "summarize_scores --out": Output(
        "utils/summarize_scores.sh", "summarize-scores", lambda v: ["--out", v, "exp"],
        lambda w, v: termeval.summarize_scores(str(w / "exp"), out=str(w / v)),
        {"a": a_dir(), "b": given("exp/sa/scores/scores.json"), "c": given("exp/sa/scores/segmentation")}),
    "summarize_scores --format html --out": Output(
        "utils/summarize_scores.sh", "summarize-scores", lambda v: ["--format", "html", "--out", v, "exp"],
        lambda w, v: termeval.summarize_scores(str(w / "exp"), out=str(w / v), format="html"),
        # (c): a system's own page, which RESULTS.html links to
        {"a": a_dir(), "b": given("exp/sa/scores/scores.json"), "c": given("exp/sa/report.html")}),
    "KWSEval -f": Output(
        "utils/KWSEval", "kwseval", kwseval_args, None,
        {"a": a_dir("out/sum.txt"), "b": given("std/detections.kwslist.xml")}),
}
# the file root names outputs by suffix: (a) a directory at <root>sum.txt, (b) a root whose
# sum.txt is an input (the detections, copied under that name)
KWSEVAL_VALUES = {"a": "out/", "b": "in/"}

NA = {  # (option, case): why the case cannot arise
    ("score_text_segmentation --summary", "c"): "its inputs are files (no input directory)",
    ("convert_segments output", "c"): "--from units reads one file (no input directory)",
    ("KWSEval -f", "c"): "its inputs are files; the file root only prefixes fixed names",
    ("score_units report.html", "c"): "the page lies in the exp dir: an input dir holding it is exp_dir's (c)",
    ("score_units --textgrids true", "c"): "the TextGrids lie in the exp dir: an input dir holding them is exp_dir's (c)",
    ("score_discophon report.html", "c"): "the page lies in the exp dir: an input dir holding it is output_dir's (c)",
    ("score_segmentation report.html", "c"): "the page lies in the exp dir: an input dir holding it is exp_dir's (c)",
    ("score_segmentation --textgrids true", "c"): "the TextGrids lie in the exp dir: an input dir holding them is "
                                                  "exp_dir's (c)",
    ("compare_systems report.html", "b"): "its inputs are exp dirs: out_dir's (b)",
    ("compare_systems report.html", "c"): "its inputs are exp dirs: out_dir's (c)",
    ("measure_resources exp_dir", "b"): "it has no input (the measured command is the user's)",
    ("measure_resources exp_dir", "c"): "it has no input (the measured command is the user's)",
}
CASES = [(o, c) for o in OUTPUTS for c in "abc" if (o, c) not in NA]


def tree_hash(path: str) -> str:
    """A digest of a file or a directory tree (names, kinds, bytes); 'missing' when absent."""
    h = hashlib.sha256()
    if not os.path.lexists(path):
        return "missing"
    if not os.path.isdir(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    for dirpath, dirs, files in os.walk(path):
        dirs.sort()
        h.update(os.path.relpath(dirpath, path).encode() + b"/\0")
        for n in sorted(files):
            h.update(n.encode() + b"\0")
            with open(os.path.join(dirpath, n), "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def place(name: str, case: str, w) -> tuple[str, str]:
    if name == "KWSEval -f":
        root = KWSEVAL_VALUES[case]
        os.makedirs(w / root, exist_ok=True)
        if case == "a":
            mkdir_with_file(w / root / "sum.txt")
        else:
            shutil.copy(w / "std/detections.kwslist.xml", w / root / "sum.txt")
            return root, str(w / root / "sum.txt")
        return root, str(w / root / "sum.txt")
    return OUTPUTS[name].cases[case](w)


def error_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if "error" in ln.lower() or ln.startswith("[ERROR]")]


@pytest.fixture(scope="module")
def shell_runs(template, tmp_path_factory) -> dict:
    """Every shell case, two at a time (two cores): {(option, case): (exit status, output,
    target hash before, after, target)}; each in its own copy of the inputs."""
    base = tmp_path_factory.mktemp("shell")
    cases = [(i, o, c) for i, (o, c) in enumerate(CASES) if OUTPUTS[o].shell]

    def one(i: int, name: str, case: str) -> tuple:
        w = base / str(i)
        copy_inputs(template, w)
        value, watched = place(name, case, w)
        before = tree_hash(watched)
        r = subprocess.run([os.path.join(ROOT, OUTPUTS[name].shell), *OUTPUTS[name].args(value)], cwd=w,
                           capture_output=True, text=True)
        return (name, case), (r.returncode, r.stderr + r.stdout, before, tree_hash(watched), watched)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(lambda a: one(*a), cases))


@pytest.mark.parametrize("name,case", CASES, ids=[f"{o}-{c}" for o, c in CASES])
@pytest.mark.parametrize("face", ["shell", "command", "api"])
def test_an_output_never_replaces_what_is_not_its_own(name, case, face, capsys, monkeypatch, request):
    out = OUTPUTS[name]
    if face == "api" and out.api is None:
        pytest.skip("no API function for this option (a shell util, KWSEval, or --init)")
    if face == "command" and out.cmd is None:
        pytest.skip("a shell util without a `termeval` command (it calls one: tested as that one)")
    if face == "shell":
        rc, err, before, after, watched = request.getfixturevalue("shell_runs")[name, case]
        assert rc != 0, err
        assert "Traceback" not in err and "internal error" not in err, err
        assert len(error_lines(err)) == 1, err
        assert after == before, f"{watched} changed: {err}"
        return
    w = request.getfixturevalue("w")
    value, watched = place(name, case, w)
    before = tree_hash(watched)
    if face == "command":
        monkeypatch.chdir(w)
        try:
            rc = command.main([out.cmd, *out.args(value)])      # a logged stage returns its status
        except SystemExit as e:                                 # other steps exit
            rc = e.code
        cap = capsys.readouterr()
        err = cap.err + cap.out
    else:
        with pytest.raises((InputError, OSError)) as e:
            out.api(w, value)
        rc, err = 1, f"error: {e.value}"
    assert rc not in (0, None), err
    assert "Traceback" not in err and "internal error" not in err, err
    assert len(error_lines(err)) == 1, err
    assert tree_hash(watched) == before, f"{watched} changed: {err}"
