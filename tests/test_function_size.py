"""No function or method in termeval/ is longer than 100 lines (def line to last line,
decorators excluded): a longer one holds more than one concept; split it."""
from __future__ import annotations

import ast
import pathlib

MAX_LINES = 100
ROOT = pathlib.Path(__file__).resolve().parent.parent / "termeval"


def long_functions(root: pathlib.Path = ROOT, limit: int = MAX_LINES) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > limit:
                    out.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name}: {n} lines")
    return out


def test_the_package_is_there():
    assert (ROOT / "__init__.py").is_file()


def test_no_function_over_100_lines():
    assert long_functions() == []


def test_a_long_function_is_found(tmp_path):
    (tmp_path / "termeval").mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(98))             # ok: 100 lines
    method = "".join(f"        x{i} = {i}\n" for i in range(99))
    (tmp_path / "termeval" / "m.py").write_text(
        f"def ok():\n{body}    return 0\n\n\nclass C:\n    def long(self):\n{method}        return 1\n")
    assert long_functions(tmp_path / "termeval") == ["termeval/m.py:104 long: 101 lines"]
