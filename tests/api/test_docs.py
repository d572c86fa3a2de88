"""Every ```python block of docs/api.md runs, in order, in a directory laid out as after
`./run.sh --stop-stage 1` (the bundled example)."""
from __future__ import annotations

import os
import re


def blocks(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return re.findall(r"^```python\n(.*?)^```", f.read(), re.S | re.M)


def test_every_example_of_docs_api_runs(root, example, tmp_path, monkeypatch, capsys):
    code = blocks(os.path.join(root, "docs", "api.md"))
    assert len(code) >= 9
    os.symlink(os.path.join(example, "data"), tmp_path / "data")
    (tmp_path / "exp").mkdir()
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for i, block in enumerate(code):
        exec(compile(block, f"docs/api.md python block {i + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "NED " in out and "ATWV " in out and "actTWV " in out and "boundary F " in out
    assert "nj: must be a positive integer, got '0'" in out
    assert "phones[1]: phone interval 0.5..0.7 of 'a' overlaps 0..1 (phones[0])" in out
    assert os.path.isfile("exp/oracle_tde/scores/scores.json") and os.path.isdir("exp/example_std/details")
    assert os.path.isfile("data/example_from_textgrid/phones")
    import shutil
    shutil.rmtree(tmp_path / "data" / "example_from_textgrid")    # the shared example stays as it was
