"""Help and usage texts as users meet them (issue 40 item 18): `termeval <step> --help` shows the
step's own options and description, no internals (`python -m termeval.bin...`, the driver's
--job/--merge/--run-id, the API's "(None: nothing is written)"); an unknown option is named
alone; no help cites shared/ (not in the repository: docs/); every script of utils/ answers
--help the same way (its header, exit 0: on stderr as Kaldi's parse_options.sh prints it;
KWSEval on stdout, as F4DE's)."""
from __future__ import annotations

import os
import subprocess

import pytest

from termeval import command
from termeval.steps import STEPS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INTERNALS = ("python -m termeval.bin", "--job", "--merge", "--run-id", "--prepare-only", "--print-stage-name",
             "(None:", "shared/")


@pytest.mark.parametrize("name", sorted(n for n, s in STEPS.items() if not s.own_cli))
def test_termeval_step_help_shows_no_internals(name, capsys):
    step = STEPS[name]
    assert command.main([step.command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: termeval {step.command} ")
    assert [x for x in INTERNALS if x in out] == []
    assert step.description.split("\n")[0][:40] in out


def test_an_unknown_option_is_named_alone(capsys, tmp_path):
    assert command.main(["score-tde", "--bogus", "1", "data", "x.class", str(tmp_path / "e1")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "termeval score-tde: error: unrecognized option --bogus"
    assert command.main(["score-std", "--nj=2", "--plotz", "x", "k", "d", "e"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == "termeval score-std: error: unrecognized option --plotz"
    # a unique prefix and a negative number are not unknown options
    assert command.main(["score-quesst", "--default-sc", "-10", "--help"]) == 0


def test_score_tde_help_cites_the_docs(capsys):
    assert command.main(["score-tde", "--help"]) == 0
    out = capsys.readouterr().out
    assert "docs/tde.md" in out and "shared/" not in out
    r = subprocess.run([os.path.join(ROOT, "steps", "score_tde.sh"), "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "docs/tde.md" in r.stdout + r.stderr and "shared/" not in r.stdout + r.stderr


SCRIPTS = sorted(f for f in os.listdir(os.path.join(ROOT, "utils"))
                 if os.access(os.path.join(ROOT, "utils", f), os.X_OK) and not f.startswith("."))


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_utils_script_answers_help_alike(name):
    """Its header (what it does, its usage), exit 0, nothing else run."""
    r = subprocess.run([os.path.join(ROOT, "utils", name), "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    shown = r.stdout if name == "KWSEval" else r.stderr
    assert "usage" in shown.lower(), (r.stdout[:300], r.stderr[:300])
    assert not r.stderr.startswith(f"{name}: error") and (name == "KWSEval" or r.stdout == "")
