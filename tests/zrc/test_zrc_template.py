"""The zrc submission template (issue 35 item 6): steps/score_zrc_submission.sh --init <dir> and
`termeval score-zrc-submission --init <dir>` write meta.yaml (every field of zrc 0.9.4's tde17
template) and params.yaml (zrc's defaults); each placeholder is refused by the meta.yaml check
(one error line naming its field) until it is filled in; nothing existing is overwritten."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import yaml

from termeval.core.errors import InputError
from termeval.zrc.submission import META_FIELDS, MetaErrors, check_meta, read_params
from termeval.zrc.template import init_submission

FILLED = {"open_source": "true", "publication_year": "2024"}


def fill(text, keep=()):
    """The template with every placeholder replaced (but those of the fields in `keep`)."""
    def value(m):
        key = m.group(1)
        return m.group(0) if key in keep else f"{key}: {FILLED.get(key, 'x ' + key)}"
    return re.sub(r'(\w+): "<[^"]*>"', value, text)


def test_init_writes_every_field_of_zrcs_template(tmp_path, root):
    sub = tmp_path / "sub"
    r = subprocess.run([f"{root}/steps/score_zrc_submission.sh", "--init", str(sub)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(sub)) == ["meta.yaml", "params.yaml"]
    meta = yaml.safe_load((sub / "meta.yaml").read_text())
    assert tuple(meta) == META_FIELDS[""]
    assert tuple(meta["model_info"]) == META_FIELDS["model_info"]
    assert tuple(meta["publication"]) == META_FIELDS["publication"]
    assert meta["benchmark_name"] == "tde17"
    assert yaml.safe_load((sub / "params.yaml").read_text()) == {"quiet": False, "njobs": 1}
    assert read_params(str(sub / "params.yaml")) == {"quiet": False, "njobs": 1}
    assert f"score_zrc_submission: wrote {sub}/meta.yaml" in r.stderr


def test_placeholders_are_refused_one_line_per_field_until_filled(tmp_path):
    sub = tmp_path / "sub"
    init_submission(str(sub))
    text = (sub / "meta.yaml").read_text()
    with pytest.raises(MetaErrors) as e:
        check_meta(str(sub / "meta.yaml"))
    fields = [f"{s}.{k}" if s else k for s, keys in META_FIELDS.items() for k in keys
              if k not in ("benchmark_name", "model_info", "publication")]
    assert len(e.value.lines) == len(fields) == 17
    named = [re.match(r".*meta\.yaml:\d+: ([\w.]+): has value from template", line).group(1) for line in e.value.lines]
    assert sorted(named) == sorted(fields)
    # issue 40 item 21: the required fields first, each group in file order, saying what may replace it
    lines = [int(re.match(r".*meta\.yaml:(\d+): ", line).group(1)) for line in e.value.lines]
    required = ["username", "model_info.system_description", "model_info.train_set", "publication.authors",
                "publication.publication_year", "publication.institution", "open_source"]
    assert named[:7] == required and lines[:7] == sorted(lines[:7]) and lines[7:] == sorted(lines[7:])
    assert all(line.endswith("(replace the <...> placeholder: a required field)") for line in e.value.lines[:7])
    assert e.value.lines[7].endswith("submission_id: has value from template (replace the <...> placeholder, "
                                     "or set it to null: an optional field)")
    assert "model_info.gpu_budget: has value from template (replace the <...> placeholder, or set it to null: " \
           "a recommended field)" in e.value.lines[9]
    (sub / "meta.yaml").write_text(fill(text))
    meta, warnings = check_meta(str(sub / "meta.yaml"))
    assert meta["open_source"] is True and meta["publication"]["publication_year"] == 2024 and warnings == []
    for left in ("username", "open_source", "publication_year", "gpu_budget"):
        (sub / "meta.yaml").write_text(fill(text, keep=(left,)))
        with pytest.raises(MetaErrors) as e:
            check_meta(str(sub / "meta.yaml"))
        assert len(e.value.lines) == 1 and f" {left}: has value from template" in "." + e.value.lines[0].replace(".", " ")


def test_scoring_the_template_is_refused_naming_the_fields(tmp_path, root):
    sub = tmp_path / "sub"
    init_submission(str(sub))
    (sub / "mandarin.txt").write_text("Class 1\nA 0 1\n")
    r = subprocess.run([sys.executable, "-m", "termeval", "score-zrc-submission", str(sub)],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    errors = r.stderr.splitlines()
    assert len(errors) == 17 and all(": error: " in l and "has value from template" in l for l in errors)
    assert not (sub / "scores").exists()


@pytest.mark.parametrize("existing", ["meta.yaml", "params.yaml"])
def test_init_never_overwrites(tmp_path, root, existing):
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / existing).write_text("mine\n")
    r = subprocess.run([sys.executable, "-m", "termeval", "score-zrc-submission", "--init", str(sub)],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode == 1
    assert r.stderr.splitlines() == [f"termeval score-zrc-submission: error: {sub}/{existing}: exists: --init never "
                                     "overwrites a submission's meta.yaml or params.yaml (move it away to write "
                                     "the template)"]
    assert sorted(os.listdir(sub)) == [existing] and (sub / existing).read_text() == "mine\n"


def test_init_refusals(tmp_path, root):
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="exists and is not a directory"):
        init_submission(str(tmp_path / "file"))
    r = subprocess.run([f"{root}/steps/score_zrc_submission.sh", "--init", str(tmp_path / "a"), str(tmp_path / "b")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "give no submission directory with it" in r.stderr
    assert not (tmp_path / "a").exists()
    r = subprocess.run([sys.executable, "-m", "termeval.bin.score_zrc_submission"], capture_output=True, text=True,
                       cwd=root)
    assert r.returncode == 2 and "give the submission directory to score (or --init <dir>" in r.stderr


@pytest.mark.parametrize("option", [("--bootstrap", "1000"), ("--partial", "true"), ("--languages", "french"),
                                    ("--nj", "2")])
def test_init_refuses_scoring_options(tmp_path, root, option):
    """Issue 40 item 14: `--init d --bootstrap 1000` is refused (the option would be ignored),
    nothing written."""
    r = subprocess.run([f"{root}/steps/score_zrc_submission.sh", "--init", str(tmp_path / "d"), *option],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"score_zrc_submission.py: error: {option[0]}: not used with --init, which writes a template and " \
           "scores nothing" in r.stderr, r.stderr
    assert not (tmp_path / "d").exists()
