"""The start-up path every step shares (utils/termeval_lib.sh, utils/termeval_python.sh) done
with bash builtins: dirname as dirname(1) gives it, the root found through symlinks, the Python
wrapper on its own tree whatever TERMEVAL_ROOT says, the local log's times as date(1) prints them."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

PATHS = ["a", "a/b", "/a", "/a/b", "a/b/", "a//b", "/a//b//", "/", "//", "./x", "../x", "x/", "a b/c",
         "exp/log/zrc2020.log"]


def test_te_dirname_to_is_dirname(root):
    lib = os.path.join(root, "utils", "termeval_lib.sh")
    script = (f'eval "$(sed -n "/^te_dirname_to()/,/^}}/p" "{lib}")"\n'
              'for p in "$@"; do te_dirname_to d "$p"; printf "%s\\n" "$d"; done')
    got = subprocess.run(["bash", "-c", script, "t", *PATHS], capture_output=True, text=True, check=True)
    want = [subprocess.run(["dirname", p], capture_output=True, text=True, check=True).stdout.rstrip("\n")
            for p in PATHS]
    assert got.stdout.splitlines() == want


@pytest.fixture()
def linked(root, tmp_path):
    """A recipe whose steps/ is a symlink to termeval's, and termeval's root behind a symlink."""
    (tmp_path / "steps").symlink_to(os.path.join(root, "steps"))
    (tmp_path / "te").symlink_to(root)
    return tmp_path


def test_root_found_through_symlinks(root, linked):
    probe = '. "$1/utils/termeval_lib.sh" && printf "%s\\n" "$TERMEVAL_ROOT" "$te_script"'
    for via in (str(linked / "te"), os.path.join(root, "steps", "..")):
        r = subprocess.run(["bash", "-c", probe, "x/y/my_step.sh", via], capture_output=True, text=True, cwd=linked)
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == [os.path.realpath(root), "my_step.sh"]


def test_the_wrapper_runs_its_own_tree(root, linked, tmp_path):
    code = "import termeval, os; print(os.path.realpath(termeval.__file__))"
    want = os.path.realpath(os.path.join(root, "termeval", "__init__.py"))
    for env_root in ("", str(tmp_path), root):
        for wrapper in (os.path.join(root, "utils", "termeval_python.sh"), str(linked / "te" / "utils" / "termeval_python.sh")):
            r = subprocess.run([wrapper, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                               env={**os.environ, "TERMEVAL_ROOT": env_root})
            assert r.returncode == 0 and r.stdout.strip() == want, (env_root, wrapper, r.stderr)


def test_local_log_times_read_as_date_prints_them(root, tmp_path):
    def date():
        return subprocess.run(["date"], capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"}).stdout
    script = (f'. "{root}/utils/termeval_lib.sh"; te_run_local "$1/log/x.log" score_tde --help >/dev/null')
    before = date()
    r = subprocess.run(["bash", "-c", script, "t", str(tmp_path)], capture_output=True, text=True,
                       env={**os.environ, "LC_ALL": "C"})
    after = date()
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "log" / "x.log").read_text().splitlines()
    date = r"[A-Z][a-z]{2} [A-Z][a-z]{2} [ 1-3][0-9] \d\d:\d\d:\d\d \S+ \d{4}"
    assert re.fullmatch("# Started at " + date, lines[1]) and re.fullmatch(r"# Ended \(code 0\) at " + date, lines[-1])
    # the same text date(1) gives (its default format), to the minute
    assert lines[-1].split(" at ", 1)[1][:16] in (before[:16], after[:16])
