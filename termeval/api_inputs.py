"""The inputs of the Python API (termeval.api): gold alignments, discovered classes and
segmentations given as paths or as in-memory rows, turned into what the steps read.

Gold given as rows or as files (.phn/.wrd, CTM, a TextGrid dir) is prepared by the step's own
code (termeval.gold.texts.prepare_texts, on a GoldOptions) into the texts of a data dir, kept in memory
and reused for the rest of the process (keyed on the content of the inputs and the options).
A step reads a data dir, so each call writes those texts into a temporary directory that is
removed when the call returns; the parsed gold is handed over through termeval.core.datadir's memo,
so it is parsed once per process too. Rows are written as the text the step would read (times
as repr(float), exact), and an error about them names the row (`phones[3]`, `classes[2][0]`)
instead of the temporary file.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import tempfile
from collections import OrderedDict
from typing import Any, Iterator, Mapping, Sequence

from termeval.core import datadir
from termeval.core.digest import content_digest
from termeval.core.errors import InputError
from termeval.gold import texts as gold_texts, write_data_dir
from termeval.gold.options import GoldOptions

NO_DIR = os.path.join(os.devnull, "termeval-no-output")   # a path nothing can be written under
PREPARED_MEMO_SIZE = 8
_prepared: "OrderedDict[str, GoldData]" = OrderedDict()


class GoldData:
    """Gold alignments prepared as a data dir, held in memory (what termeval.prepare_gold
    returns). Pass it as `gold` to score_tde/score_segmentation; `rows("phones")` and
    `rows("words")` give the prepared intervals, `texts` the data dir's files, `write(dir)`
    writes them as steps/prepare_gold.sh would."""

    def __init__(self, texts: dict[str, str], summary: str, key: str) -> None:
        self.texts = texts
        self.summary = summary
        self.key = key
        self._parsed: Any = None          # termeval.core.datadir.Gold of these texts, once parsed

    def __repr__(self) -> str:
        return f"<GoldData {self.summary}>"

    def rows(self, tier: str = "phones") -> list[tuple[str, float, float, str]]:
        if tier not in ("phones", "words"):
            raise InputError(f"tier must be 'phones' or 'words', got {tier!r}")
        out = []
        for line in self.texts[tier].splitlines():
            f, on, off, label = line.split()
            out.append((f, float(on), float(off), label))
        return out

    def write(self, data_dir: str, protect: Sequence[str] = ()) -> None:
        write_data_dir({k: [v] for k, v in self.texts.items()}, os.fspath(data_dir), list(protect))

    @contextlib.contextmanager
    def as_data_dir(self) -> Iterator[str]:
        """A temporary data dir holding the texts, for the length of the block."""
        with tempfile.TemporaryDirectory(prefix="termeval-gold-") as d:
            for name, text in self.texts.items():
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            if self._parsed is not None and datadir.gold_memo is not None:
                datadir.remember_gold(dataclasses.replace(self._parsed, path=d))
            try:
                yield d
            finally:
                if datadir.gold_memo is not None:
                    parsed = datadir.gold_memo.pop(datadir.gold_stamp(d) or "", None)
                    if parsed is not None:
                        self._parsed = parsed


# ----------------------------------------------------------------------------- rows -> text

def _is_path(x: Any) -> bool:
    return isinstance(x, (str, os.PathLike))


def _num(x: Any, where: str) -> str:
    try:
        return repr(float(x))
    except (TypeError, ValueError):
        raise InputError(f"expected a number, got {x!r}", where) from None


def _token(x: Any, where: str, what: str) -> str:
    s = str(x)
    if not s or any(c.isspace() for c in s):
        raise InputError(f"{what} must be one non-empty token without whitespace, got {s!r}", where)
    return s


def interval_rows_text(rows: Any, name: str, labelled: bool | None = True) -> tuple[str, list[str]]:
    """`file onset offset [label]` lines of rows, and the name of the row on each line."""
    lines, where = [], []
    for i, row in enumerate(_sequence(rows, name)):
        w = f"{name}[{i}]"
        n = len(row) if isinstance(row, (tuple, list)) else -1
        if not (n == 4 if labelled else n == 3 if labelled is False else n in (3, 4)):
            shape = "(file, onset, offset, label)" if labelled else "(file, onset, offset[, label])"
            raise InputError(f"expected a row {shape}, got {row!r}", w)
        fields = [_token(row[0], w, "the file"), _num(row[1], w), _num(row[2], w)]
        if n == 4:
            fields.append(_token(row[3], w, "the label"))
        lines.append(" ".join(fields) + "\n")
        where.append(w)
    return "".join(lines), where


def class_rows_text(classes: Any, name: str = "classes") -> tuple[str, list[str]]:
    """A ZeroSpeech class file of `[[(file, onset, offset), ...], ...]` (classes numbered
    1..n), and the name of what each line holds."""
    lines, where = [], []
    for k, cls in enumerate(_sequence(classes, name)):
        lines.append(f"Class {k + 1}\n")
        where.append(f"{name}[{k}]")
        text, w = interval_rows_text(cls, f"{name}[{k}]", labelled=False)
        lines.append(text)
        where.extend(w)
        lines.append("\n")
        where.append(f"{name}[{k}]")
    return "".join(lines), where


def _sequence(x: Any, name: str) -> Sequence:
    if isinstance(x, (str, bytes, Mapping)) or not hasattr(x, "__len__") or not hasattr(x, "__getitem__"):
        raise InputError(f"expected a path or a list of rows, got {type(x).__name__}", name)
    return x


def exp_dir_path(exp_dir: Any, name: str = "exp_dir") -> str | None:
    """The output directory argument of an API call: None, or a path that is (or can be made)
    a directory; a regular file there is refused naming the argument."""
    if exp_dir is None:
        return None
    if not isinstance(exp_dir, (str, os.PathLike)):
        raise TypeError(f"{name}: expected a path (str or os.PathLike), got {type(exp_dir).__name__}")
    path = os.fspath(exp_dir)
    if os.path.lexists(path) and not os.path.isdir(path):
        raise InputError(f"{name}: exists and is not a directory", path)
    parent = os.path.dirname(os.path.abspath(path))
    while parent and not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    if os.path.lexists(parent) and not os.path.isdir(parent):
        raise InputError(f"{name}: {parent} is not a directory", path)
    return path


def system_list(systems: Any, name: str = "systems") -> list[str]:
    """compare_systems' exp dirs: a list (or tuple) of paths; one path alone is refused (its
    characters would be taken as systems)."""
    if isinstance(systems, (str, bytes, os.PathLike)) or not isinstance(systems, (list, tuple)):
        raise TypeError(f"{name}: expected a list of exp dirs, got {type(systems).__name__} "
                        f"{systems!r:.80}" + (" (one system: put it in a list)"
                                              if isinstance(systems, (str, os.PathLike)) else ""))
    out = []
    for i, x in enumerate(systems):
        if not isinstance(x, (str, os.PathLike)):
            raise TypeError(f"{name}[{i}]: expected a path, got {type(x).__name__}")
        out.append(os.fspath(x))
    return out


class Scratch:
    """Temporary input files of one call; errors about them are re-raised naming the row."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.rows_of: dict[str, list[str]] = {}

    def write(self, name: str, text: str, where: list[str]) -> str:
        path = os.path.join(self.directory, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        self.rows_of[path] = where
        return path

    def _row(self, path: str, line: int | None) -> str:
        where = self.rows_of[path]
        if line is not None and 1 <= line <= len(where):
            return where[line - 1]
        return os.path.basename(path)

    def relocate(self, e: InputError) -> InputError:
        """The error with every `<scratch file>[:<line>]` replaced by the row it holds."""
        msg = e.message
        for path in self.rows_of:
            msg = re.sub(re.escape(path) + r"(?::(\d+))?",
                         lambda m: self._row(path, int(m.group(1)) if m.group(1) else None), msg)
        msg = msg.replace(self.directory + os.sep, "")
        if e.path in self.rows_of:        # "line 3" of a file of rows: the row it holds
            msg = re.sub(r"\bline (\d+)\b", lambda m: self._row(e.path, int(m.group(1))), msg)
            return InputError(msg, self._row(e.path, e.line))
        return e if msg == e.message else InputError(msg, e.path, e.line)


@contextlib.contextmanager
def scratch() -> Iterator[Scratch]:
    with tempfile.TemporaryDirectory(prefix="termeval-in-") as d:
        s = Scratch(d)
        try:
            yield s
        except InputError as e:
            raise s.relocate(e) from None


# ----------------------------------------------------------------------------- gold

def prepare(inputs: Sequence[Any], fmt: str | None, options: Mapping[str, Any]) -> GoldData:
    """The data-dir texts of gold `inputs` (paths, '-', or row lists) prepared with the keyword
    `options` of prepare_gold (GoldOptions fields), memoised on content."""
    if fmt is None:
        first = inputs[0]
        fmt = ("textgrid" if _is_path(first) and os.path.isdir(first) else
               "ctm" if _is_path(first) and os.fspath(first).lower().endswith(".ctm") else "zr")
    with scratch() as s:
        settings = {**options, "format": fmt}
        paths = []
        for i, x in enumerate(inputs):
            if _is_path(x):
                paths.append(os.fspath(x))
            else:
                name = ("phones", "words")[i] if len(inputs) > 1 else "phones"
                text, where = interval_rows_text(x, name)
                paths.append(s.write(name, text, where))
        # files and dirs by content (rows: their text), and the options
        syl = [os.fspath(settings["syllables"])] if settings.get("syllables") else []   # its content too
        key = content_digest(paths + syl, {"options": json.loads(json.dumps(settings, sort_keys=True, default=str))})
        if key in _prepared:
            _prepared.move_to_end(key)
            return _prepared[key]
        a = GoldOptions.build({**settings, "inputs": (*paths, NO_DIR)}, "prepare_gold")
        texts, _, summary = gold_texts.prepare_texts(a)
    g = GoldData({k: "".join(v) for k, v in texts.items()}, summary, key)
    _prepared[key] = g
    while len(_prepared) > PREPARED_MEMO_SIZE:
        _prepared.popitem(last=False)
    return g


def gold_form(gold: Any) -> tuple[str, Any]:
    """('dir', path) for a prepared data dir, ('data', GoldData), or ('raw', inputs) for what
    prepare_gold must prepare first."""
    if isinstance(gold, GoldData):
        return "data", gold
    if _is_path(gold):
        path = os.fspath(gold)
        if os.path.isdir(path):
            if os.path.isfile(os.path.join(path, "phones")):
                return "dir", path
            return "raw", [path]
        if not os.path.exists(path):
            raise InputError("no such file or directory", path)
        raise InputError("gold is a prepared data dir, a TextGrid dir, a (phones, words) pair of "
                         "files or of row lists, or termeval.prepare_gold(...)", path)
    if isinstance(gold, dict) and set(gold) <= {"phones", "words"} and "phones" in gold:
        phones = gold["phones"]
        if "words" not in gold and not (_is_path(phones) and os.fspath(phones).lower().endswith(".ctm")):
            raise InputError("gold: a dict needs 'words' too (rows or a path; only a phone CTM "
                             "can go without: its words come from the position suffixes)")
        return "raw", [phones, gold.get("words", "-")]
    if isinstance(gold, (tuple, list)) and len(gold) == 2:
        return "raw", list(gold)
    raise InputError(f"gold: expected a data dir, a (phones, words) pair or a GoldData, got {type(gold).__name__}")
