"""termeval's own TextGrid reader (termeval/gold/textgrid.py) reads what the `textgrid` package
(1.6.1, a test-only dependency now) reads and fails where it fails, with the same error line:
`reference` below is the reader termeval had while it called the package's private parse_header,
parse_line and _getMark, run on the test fixtures, the bundled example's TextGrids and many
broken variants of them (lines dropped, cut, doubled, quotes and numbers damaged)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from termeval.core.errors import InputError
from termeval.gold import textgrid as ours

tgm = pytest.importorskip("textgrid.textgrid")
from textgrid.exceptions import TextGridError  # noqa: E402  (after the skip)

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "textgrid")


def reference(path: str) -> list[ours.TgTier]:
    """parse_textgrid as it was, on the package's own line functions."""
    src = ours._Lines(ours._decode_textgrid(path))
    rd = 17
    tiers: list[ours.TgTier] = []
    try:
        file_type, short = tgm.parse_header(src)
        if file_type != "TextGrid":
            raise InputError(f"not a TextGrid (object class '{file_type}')", path, 2)
        first = src.readline()
        try:
            tgm.parse_line(first, short, rd)
        except Exception:
            short = True
        tgm.parse_line(first, short, rd)
        tgm.parse_line(src.readline(), short, rd)
        src.readline()
        m = int(src.readline().strip()) if short else int(src.readline().strip().split()[2])
        if not short:
            src.readline()
        for _ in range(m):
            if not short:
                src.readline()
            kind = tgm.parse_line(src.readline(), short, rd)
            name = tgm.parse_line(src.readline(), short, rd)
            tgm.parse_line(src.readline(), short, rd)
            tgm.parse_line(src.readline(), short, rd)
            n = int(tgm.parse_line(src.readline(), short, rd))
            ivs = []
            if kind == "IntervalTier":
                for _j in range(n):
                    if not short:
                        src.readline()
                    line = src.lineno if not short else src.lineno + 1
                    jmin = tgm.parse_line(src.readline(), short, rd)
                    jmax = tgm.parse_line(src.readline(), short, rd)
                    mark = tgm._getMark(src, short)
                    ivs.append((float(jmin), float(jmax), mark, line))
                tiers.append(ours.TgTier(str(name), ivs))
            else:
                for _j in range(n):
                    if not short:
                        src.readline()
                    tgm.parse_line(src.readline(), short, rd)
                    tgm._getMark(src, short)
    except InputError:
        raise
    except (TextGridError, ValueError, AttributeError, IndexError, EOFError, TypeError, OverflowError) as e:
        if src.lineno > src.nlines:
            raise InputError("cannot parse TextGrid: unexpected end of file (truncated?)", path,
                             src.nlines) from None
        msg = str(e).strip().replace("\n", " ")[:80]
        raise InputError(f"cannot parse TextGrid ({type(e).__name__}{': ' + msg if msg else ''})",
                         path, src.lineno) from None
    return tiers


def outcome(parse, path: str):
    try:
        return [(t.name, t.intervals) for t in parse(path)]
    except InputError as e:
        return e.format()


SHORT = ('File type = "ooTextFile short"\n"TextGrid"\n\n0\n1\n<exists>\n2\n"IntervalTier"\n"phones"\n'
         '0\n1\n2\n0\n0.5\n"a"\n0.5\n1\n"say ""hi""\nthere"\n"TextTier"\n"bells"\n0\n1\n1\n0.25\n"ding"\n')


def variants(text: str):
    """The text and broken versions of it: each line dropped, cut in half, doubled; quotes and
    numbers damaged; every prefix (truncations)."""
    lines = text.splitlines(keepends=True)
    yield text
    for i, line in enumerate(lines):
        yield "".join(lines[:i])
        yield "".join(lines[:i] + lines[i + 1:])
        yield "".join(lines[:i] + [line[: len(line) // 2] + "\n"] + lines[i + 1:])
        yield "".join(lines[:i] + [line, line] + lines[i + 1:])
        for a, b in (('"', ""), ('"', '""'), ('"', '"""'), ("=", ":"), ("0", "x"), ("1", "1e400"),
                     (" = ", " "), ("text", "txt")):
            if a in line:
                yield "".join(lines[:i] + [line.replace(a, b, 1)] + lines[i + 1:])


def fixtures() -> list[str]:
    return [os.path.join(FIX, d, f) for d in sorted(os.listdir(FIX)) for f in sorted(os.listdir(os.path.join(FIX, d)))]


@pytest.fixture(scope="module")
def example_textgrids(root, tmp_path_factory) -> list[str]:
    d = tmp_path_factory.mktemp("ex")
    subprocess.run([sys.executable, "local/make_example.py", str(d / "ex")], cwd=root, check=True,
                   capture_output=True)
    tg = d / "ex" / "textgrid"
    return sorted(str(p) for p in tg.rglob("*.TextGrid"))


def test_same_as_the_textgrid_package(example_textgrids, tmp_path):
    for p in example_textgrids:                  # whole files: the same tiers
        assert outcome(ours.parse_textgrid, p) == outcome(reference, p)
    path = str(tmp_path / "x.TextGrid")
    n = errors = 0
    for text in [open(p, encoding="utf-8").read() for p in fixtures()] + [SHORT]:
        for variant in variants(text):
            with open(path, "w", encoding="utf-8") as f:
                f.write(variant)
            want = outcome(reference, path)
            assert outcome(ours.parse_textgrid, path) == want, variant
            n += 1
            errors += isinstance(want, str)
    assert n > 1000 and 500 < errors < n - 100        # both readings and failures were compared


def test_the_short_format_and_praat_quotes():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "x.TextGrid")
        with open(p, "w") as f:
            f.write(SHORT)
        [tier] = ours.parse_textgrid(p)
    assert tier.name == "phones"
    assert tier.intervals == [(0.0, 0.5, "a", 13), (0.5, 1.0, 'say "hi"\nthere', 16)]


def test_no_import_of_the_package(root):
    """termeval itself never imports `textgrid` (it is only the tests' reference)."""
    code = ("import sys; sys.modules['textgrid'] = None\n"
            "from termeval.gold.textgrid import parse_textgrid\n"
            f"print(len(parse_textgrid({os.path.join(FIX, 's01', 's01-rec1.TextGrid')!r})))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                       env=dict(os.environ, PYTHONPATH=root))
    assert r.returncode == 0 and r.stdout == "2\n", r.stderr
