"""issue 35: the README's `newcomer` blocks (between `<!-- newcomer: NAME -->` and
`<!-- /newcomer -->`) run as a newcomer types them, on the bundled example, and print what the
README shows.

A block is a shell transcript: `$ ` starts a command (a line ending in `\\` continues it), every
other line is output that command prints (each must be a line of its stdout). The commands run
one by one in a scratch directory holding what `run.sh --stop-stage 1` makes there, with `te`
set to this checkout; `python3` and `termeval` stand for the `pip install /opt/termeval` the
README's API section starts from (termeval's own Python, `python -m termeval`). The keyword
search section has its own test (tests/recipe/test_readme_kws.py)."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

BLOCK = re.compile(r"<!-- newcomer: ([a-z0-9_-]+) -->\n(.*?)<!-- /newcomer -->", re.S)


def newcomer_blocks(root):
    """README -> {name: [(command, [expected stdout lines])]}."""
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    blocks = {}
    for name, body in BLOCK.findall(text):
        steps, continued = [], False
        for line in body.splitlines():
            assert line.startswith("    "), f"newcomer block {name}: not an indented line: {line!r}"
            line = line[4:]
            if continued:
                steps[-1][0] += "\n" + line
            elif line.startswith("$ "):
                steps.append([line[2:], []])
            else:
                assert steps, f"newcomer block {name}: output before any command"
                steps[-1][1].append(line.rstrip())
            continued = line.endswith("\\")
        blocks[name] = steps
    return blocks


@pytest.fixture(scope="module")
def scratch(root, tmp_path_factory):
    """An empty directory after `$te/run.sh --stop-stage 1`: the bundled gold and example inputs."""
    d = tmp_path_factory.mktemp("newcomer")
    r = subprocess.run([os.path.join(root, "run.sh"), "--stop-stage", "1"], cwd=d,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    last = r.stderr.splitlines()[-1]        # issue 40 item 21: no RESULTS.md named that was not written
    assert "RESULTS.md" not in last and "(stages 0-1: nothing scored yet; ./run.sh --stage 2 goes on)" in last, last
    return d


def test_readme_has_the_community_blocks(root):
    blocks = newcomer_blocks(root)
    assert set(blocks) >= {"tde", "zrc", "qbe", "segmentation", "api"}
    for name, steps in blocks.items():
        assert 2 <= len(steps) <= 7, name                  # a community's few commands
        assert any(out for _, out in steps), name          # and what they print


@pytest.mark.parametrize("name", ["tde", "zrc", "qbe", "segmentation", "api"])
def test_newcomer_block_runs_and_prints_what_the_readme_shows(root, scratch, name):
    steps = newcomer_blocks(root)[name]
    preamble = (f"te={root}\n"
                'termeval() { "$te/utils/termeval_python.sh" -m termeval "$@"; }\n'
                'python3() { "$te/utils/termeval_python.sh" "$@"; }\n')
    for command, expected in steps:
        if command.startswith("te="):
            assert command == "te=/opt/termeval"
            continue
        r = subprocess.run(["bash", "-c", preamble + command + "\n"], cwd=scratch,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"{command}\n{r.stderr[-3000:]}"
        got = [ln.rstrip() for ln in r.stdout.splitlines()]
        missing = [ln for ln in expected if ln not in got]
        assert missing == [], f"{command}\nprinted:\n{r.stdout[-3000:]}"
