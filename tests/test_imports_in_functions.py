"""An import inside a function in termeval/ is deliberate: it carries a comment on its line saying
why (a heavy optional library: matplotlib, scipy, textgrid, ...; or numpy-heavy modules kept out
of `--help` and `import termeval`). Every other import sits at the top of its module."""
from __future__ import annotations

import ast
import io
import pathlib
import tokenize

ROOT = pathlib.Path(__file__).resolve().parent.parent / "termeval"


def uncommented_imports(root: pathlib.Path = ROOT) -> list[str]:
    """`path:line statement` of every import nested in a function with no comment on its lines."""
    out = []
    for path in sorted(root.rglob("*.py")):
        src = path.read_text(encoding="utf-8")
        commented = {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(src).readline)
                     if tok.type == tokenize.COMMENT}
        lines = src.splitlines()

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                    if not commented.intersection(range(child.lineno, child.end_lineno + 1)):
                        out.append(f"{path.relative_to(root.parent).as_posix()}:{child.lineno} "
                                   f"{lines[child.lineno - 1].strip()}")
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

        visit(ast.parse(src, filename=str(path)), False)
    return out


def test_the_package_is_there():
    assert (ROOT / "__init__.py").is_file()


def test_every_import_inside_a_function_says_why():
    assert uncommented_imports() == [], "hoist these to the module's top, or say on the line why they stay"


def test_an_uncommented_import_is_found(tmp_path):
    (tmp_path / "termeval").mkdir()
    (tmp_path / "termeval" / "m.py").write_text(
        "import os\n\n\n"
        "def f():\n"
        "    import json                 # why: a comment is enough\n"
        "    from os import (\n"
        "        path)  # on any line of the statement\n"
        "    import re\n"
        "    return json, path, re\n\n\n"
        "class C:\n"
        "    def g(self):\n"
        "        def h():\n"
        "            from sys import argv\n"
        "            return argv\n"
        "        return h\n")
    assert uncommented_imports(tmp_path / "termeval") == [
        "termeval/m.py:8 import re", "termeval/m.py:15 from sys import argv"]
