"""conf/'s scorer presets: every file sets only options its step declares (parse_options.sh
refuses any other), with values the step's parser accepts, and says in its first line what it
reproduces; conf/README lists every file."""
from __future__ import annotations

import glob
import os
import re

import pytest

from termeval.bin import score_segmentation, score_std

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEPS = {"segmentation": ("score_segmentation", score_segmentation), "std": ("score_std", score_std)}
PRESETS = sorted(glob.glob(os.path.join(ROOT, "conf", "*.conf")))
LAUNCHERS = {"queue.conf", "slurm.conf"}


def _settings(path: str) -> dict[str, str]:
    with open(path, encoding="utf-8") as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    return dict(ln.split("=", 1) for ln in lines)


@pytest.mark.parametrize("path", [p for p in PRESETS if os.path.basename(p) not in LAUNCHERS],
                         ids=os.path.basename)
def test_preset_is_accepted_by_its_step(path):
    name = os.path.basename(path)
    step, module = STEPS[name.split("_", 1)[0]]
    with open(path, encoding="utf-8") as f:
        assert f.readline().startswith("# "), "first line: what the preset reproduces"
    settings = _settings(path)
    with open(os.path.join(ROOT, "steps", f"{step}.sh"), encoding="utf-8") as f:
        declared = set(re.findall(r"^([a-z_]+)=", f.read(), re.M))
    assert set(settings) <= declared, set(settings) - declared
    argv = [a for k, v in settings.items() for a in (f"--{k.replace('_', '-')}", v)] + ["d", "s", "e"]
    ns = module.get_parser().parse_args(argv)
    for k, v in settings.items():
        assert str(getattr(ns, k)) == v or float(getattr(ns, k)) == float(v)


def test_readme_lists_every_file():
    with open(os.path.join(ROOT, "conf", "README"), encoding="utf-8") as f:
        text = f.read()
    for p in PRESETS:
        assert os.path.basename(p) in text
