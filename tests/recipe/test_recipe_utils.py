"""The recipe plumbing: utils/parse_options.sh, utils/run.pl, the score writer, RESULTS.md."""
from __future__ import annotations

import json
import math
import os
import subprocess

import pytest

from termeval.core.scores import Metric, fscore, format_line, write_scores


def bash(script: str, cwd: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", script, "test.sh", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


OPTS = """
nj=4
stop_stage=100
use_gpu=false
cmd=run.pl
. utils/parse_options.sh
echo "nj=$nj stop_stage=$stop_stage use_gpu=$use_gpu cmd=$cmd rest=$*"
"""


@pytest.mark.parametrize("args,expected", [
    ([], "nj=4 stop_stage=100 use_gpu=false cmd=run.pl rest="),
    (["--nj", "8", "a", "b"], "nj=8 stop_stage=100 use_gpu=false cmd=run.pl rest=a b"),
    (["--nj=2", "--stop-stage", "3"], "nj=2 stop_stage=3 use_gpu=false cmd=run.pl rest="),
    (["--stop_stage", "5", "--use-gpu", "true"], "nj=4 stop_stage=5 use_gpu=true cmd=run.pl rest="),
    (["--cmd", "queue.pl --mem 4G", "x"], "nj=4 stop_stage=100 use_gpu=false cmd=queue.pl --mem 4G rest=x"),
    (["--nj", "3", "--", "--not-an-option"], "nj=3 stop_stage=100 use_gpu=false cmd=run.pl rest=--not-an-option"),
])
def test_parse_options_values(root, args, expected):
    r = bash(OPTS, root, *args)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == expected


def test_parse_options_config_file_is_overridden_by_command_line(root, tmp_path):
    conf = tmp_path / "x.conf"
    conf.write_text("nj=7\nstop_stage=9\n")
    r = bash(OPTS, root, "--config", str(conf), "--nj", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "nj=1 stop_stage=9 use_gpu=false cmd=run.pl rest="
    r = bash(OPTS, root, "--config", str(tmp_path / "missing.conf"))
    assert r.returncode == 1 and "config" in r.stderr


@pytest.mark.parametrize("args,message", [
    (["--bogus", "1"], "invalid option --bogus"),
    (["--use-gpu", "yes"], 'expected "true" or "false"'),
    (["--cmd", ""], "empty argument to --cmd"),
    (["--nj"], "needs a value"),
])
def test_parse_options_rejects(root, args, message):
    r = bash(OPTS, root, *args)
    assert r.returncode == 1
    assert message in r.stderr
    assert r.stdout == ""


def test_parse_options_help_prints_header_comment(root, tmp_path):
    script = tmp_path / "step.sh"
    script.write_text("#!/usr/bin/env bash\n# step.sh -- does a thing.\n# Usage: step.sh <dir>\n"
                      "nj=1\n. utils/parse_options.sh\necho ran\n")
    r = subprocess.run(["bash", str(script), "--help"], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0
    assert r.stderr == "step.sh -- does a thing.\nUsage: step.sh <dir>\n"
    assert "ran" not in r.stdout


def test_parse_options_help_message_wins(root):
    r = bash('help_message="my usage"\nnj=1\n. utils/parse_options.sh\n', root, "-h")
    assert r.returncode == 0 and r.stderr.strip() == "my usage"


def run_pl(root, *args, timeout=120):
    return subprocess.run(["utils/run.pl", *args], cwd=root, capture_output=True, text=True, timeout=timeout)


def test_run_pl_array_job_substitutes_and_logs(root, tmp_path):
    log = str(tmp_path / "log" / "t.JOB.log")
    out = str(tmp_path / "out")
    r = run_pl(root, "JOB=1:3", log, "echo", "job JOB", ">", out + ".JOB")
    assert r.returncode == 0, r.stderr
    for j in (1, 2, 3):
        assert open(f"{out}.{j}").read() == f"job {j}\n"
        text = open(str(tmp_path / "log" / f"t.{j}.log")).read().splitlines()
        assert text[0] == f'# echo "job {j}" > {out}.{j}'
        assert text[1].startswith("# Started at ")
        assert text[-2] .startswith("# Accounting: time=")
        assert text[-1].startswith("# Ended (code 0) at ")


def test_run_pl_jobs_run_in_parallel(root, tmp_path):
    # Each task waits for the other's marker: only succeeds if both run at the same time.
    d = str(tmp_path)
    script = tmp_path / "wait_for_other.sh"
    script.write_text(f"touch {d}/m.$1\nfor i in $(seq 300); do\n"
                      f"  [ $(ls {d}/m.* | wc -l) -ge 2 ] && exit 0; sleep 0.1\ndone\nexit 1\n")
    r = run_pl(root, "--max-jobs-run", "2", "JOB=1:2", f"{d}/log.JOB", "bash", str(script), "JOB")
    assert r.returncode == 0, r.stderr


def test_run_pl_failure_names_logs_and_pipefail(root, tmp_path):
    log = str(tmp_path / "f.JOB.log")
    r = run_pl(root, "JOB=1:4", log, "test", "JOB", "-ne", "3")
    assert r.returncode == 1
    assert r.stderr.strip() == f"run.pl: 1 / 4 failed, log is in {tmp_path}/f.*.log"
    assert open(str(tmp_path / "f.3.log")).read().splitlines()[-1].startswith("# Ended (code 1)")
    # a failure in the first stage of a job pipeline fails the job (pipefail inside jobs)
    r = run_pl(root, str(tmp_path / "p.log"), "false", "|", "cat")
    assert r.returncode == 1


def test_run_pl_refuses_parallel_job_with_single_log(root, tmp_path):
    r = run_pl(root, "JOB=1:2", str(tmp_path / "same.log"), "true")
    assert r.returncode == 1 and "does not contain JOB" in r.stderr


def test_run_pl_ignores_grid_options(root, tmp_path):
    r = run_pl(root, "--mem", "4G", "--num-threads", "2", "--gpu", "0", str(tmp_path / "x.log"), "true")
    assert r.returncode == 0, r.stderr


def test_score_line_format():
    assert format_line(Metric("ned", 0.88071284609912, "357082 pairs")) == "ned 0.880713 [ 357082 pairs ]"
    assert format_line(Metric("coverage", 1.0)) == "coverage 1.000000"
    assert format_line(Metric("ned_pairs", 357082)) == "ned_pairs 357082"
    assert format_line(Metric("grouping_recall", float("nan"), "no gold pairs")) == \
        "grouping_recall - [ no gold pairs ]"
    assert format_line(Metric("x", None)) == "x -"
    with pytest.raises(ValueError):
        format_line(Metric("two words", 1.0))


def test_write_scores_merges_stages_and_keeps_full_precision(tmp_path):
    exp = str(tmp_path / "exp" / "sys")
    write_scores(exp, "matching", [Metric("ned", 0.8807128460991229, "357082 pairs"),
                                   Metric("ned_pairs", 357082)], benchmark="zrc2020",
                 extra={"counts": {"fragments": 10}}, command="cmd1")
    write_scores(exp, "clustering", [Metric("grouping_precision", float("nan"))], benchmark="zrc2020",
                 command="cmd2")
    assert open(os.path.join(exp, "scores", "matching")).read() == \
        "ned 0.880713 [ 357082 pairs ]\nned_pairs 357082\n"
    data = json.load(open(os.path.join(exp, "scores", "scores.json")))
    assert data["ned"] == 0.8807128460991229
    assert data["ned_pairs"] == 357082
    assert data["grouping_precision"] is None
    assert data["counts"] == {"fragments": 10}
    assert data["benchmark"] == "zrc2020" and data["command"] == "cmd2"
    assert data["stages"]["matching"]["metrics"] == ["ned", "ned_pairs"]
    assert set(data["stages"]) == {"matching", "clustering"}
    assert sorted(os.listdir(os.path.join(exp, "scores"))) == ["clustering", "matching", "scores.json"]


def test_write_scores_failure_leaves_no_partial_file(tmp_path):
    exp = str(tmp_path / "sys")
    write_scores(exp, "std", [Metric("atwv", 0.5)], benchmark="sws2013", command="c")
    with pytest.raises(ValueError):
        write_scores(exp, "std", [Metric("atwv", 0.7), Metric("atwv", 0.1)], benchmark="sws2013")
    assert open(os.path.join(exp, "scores", "std")).read() == "atwv 0.500000\n"
    assert sorted(os.listdir(os.path.join(exp, "scores"))) == ["scores.json", "std"]


def test_fscore():
    assert fscore(0.5, 0.25) == pytest.approx(1 / 3)
    assert fscore(0.0, 0.0) == 0.0
    assert fscore(None, 0.3) is None
    assert fscore(math.nan, 0.3) is None


def test_summarize_scores_builds_results_table(root, tmp_path):
    exp_root = tmp_path / "exp"
    write_scores(str(exp_root / "sysA"), "matching", [Metric("ned", 0.25), Metric("coverage", 0.5)],
                 benchmark="zrc2020", command="c")
    write_scores(str(exp_root / "sysB"), "std", [Metric("atwv", 0.125), Metric("n_terms", 3)],
                 benchmark="sws2013", command="c")
    out = tmp_path / "RESULTS.md"
    r = subprocess.run(["bash", "utils/summarize_scores.sh", "--output", str(out), str(exp_root)],
                       cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "## std (sws2013)\n\n|system|data|atwv|n_terms|\n|---|---|---|---|\n|sysB|-|0.1250|3|\n" in text
    assert "## zrc2020\n\n|system|data|ned|coverage|\n|---|---|---|---|\n|sysA|-|0.2500|0.5000|\n" in text


def test_summarize_scores_finds_kaldi_and_espnet_layouts_at_any_depth(root, tmp_path):
    exp_root = tmp_path / "exp"
    write_scores(str(exp_root / "tri3" / "decode_dev" / "kws_10"), "std", [Metric("atwv", 0.5)],
                 benchmark="nist2006", command="c")
    write_scores(str(exp_root / "asr_conformer" / "decode_asr_dev" / "tde"), "matching",
                 [Metric("ned", 0.75)], benchmark="zrc2020", command="c")
    r = subprocess.run(["bash", os.path.join(root, "utils/summarize_scores.sh"), "exp"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "RESULTS.md").read_text()
    assert "|tri3/decode_dev/kws_10|-|0.5000|" in text
    assert "|asr_conformer/decode_asr_dev/tde|-|0.7500|" in text
