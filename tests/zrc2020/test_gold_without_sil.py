"""zrc2020 on a gold without SIL phones (pauses left as gaps, the 2015/2017 layout) gives other
numbers than tdev2's published ones: one warning line on stderr, recorded in scores.json
`warnings` (the opposite case, SIL lines under zr2015/zr2017, is warned by score_tde_folds.sh)."""
from __future__ import annotations

import json
import subprocess

import pytest

from termeval.tde.zrc2020.testing import write_data_dir
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD


def sh(root, *args):
    return subprocess.run(["bash", "-c", f"cd {root} && . ./path.sh && " + " ".join(args)],
                          capture_output=True, text=True)


@pytest.fixture()
def corpus(tmp_path):
    (tmp_path / "x.phn").write_text(MICRO_PHN)
    (tmp_path / "x.wrd").write_text(MICRO_WRD)
    (tmp_path / "x.class").write_text(MICRO_CLASSES)
    write_data_dir(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "with_sil"))
    nosil = "".join(ln + "\n" for ln in MICRO_PHN.splitlines() if ln.strip() and ln.split()[3] != "SIL")
    (tmp_path / "nosil.phn").write_text(nosil)
    write_data_dir(str(tmp_path / "nosil.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "no_sil"))
    return tmp_path


def test_no_sil_warns_and_records(root, corpus):
    assert " SIL\n" in MICRO_PHN
    r = sh(root, "steps/score_tde.sh", "--nj", "2", str(corpus / "no_sil"), str(corpus / "x.class"), str(corpus / "e1"))
    assert r.returncode == 0, r.stderr
    warn = [ln for ln in r.stderr.splitlines() if "warning:" in ln]
    assert len(warn) == 1 and f"{corpus / 'no_sil' / 'phones'} has no SIL phone" in warn[0]
    s = json.loads((corpus / "e1" / "scores" / "scores.json").read_text())
    assert s["warnings"] == {"matching": [warn[0].split("warning: ", 1)[1]]}
    # the variant: the same system on the gold with SIL, into the same exp dir: no warning left
    r = sh(root, "steps/score_tde.sh", str(corpus / "with_sil"), str(corpus / "x.class"), str(corpus / "e1"))
    assert r.returncode == 0 and "warning:" not in r.stderr
    s2 = json.loads((corpus / "e1" / "scores" / "scores.json").read_text())
    assert "warnings" not in s2
    assert s2["ned"] == 0.175 and s["ned"] != s2["ned"]
