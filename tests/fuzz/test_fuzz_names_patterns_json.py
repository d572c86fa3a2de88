"""Property-based fuzzing of the inputs of issue 40 (items 7, 11, 12, 14): system names in
every table format, the user's regular expressions, nested or mutated JSON, control characters
in segmented texts. Each either works or raises InputError (one line) - never another
exception, never a hang, never a row with values under the wrong column."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
import time

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from termeval.core.errors import InputError  # noqa: E402

FAST = settings(max_examples=int(os.environ.get("TERMEVAL_FUZZ_EXAMPLES", "100")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# characters that could break a table row, start markup or escape a LaTeX/CSV field
SPECIAL = "|\\`*_[]<>&~$%#{}^\"',\t\n\r\x1f\x00\x85\u2028 ae1"
NAMES = st.text(alphabet=st.sampled_from(SPECIAL), min_size=1, max_size=12).filter(
    lambda s: s.strip(" ") not in ("", ".", "..") and "/" not in s and "\x00" not in s)


@FAST
@given(st.lists(NAMES, min_size=1, max_size=4, unique=True))
def test_system_names_stay_in_their_cells(names):
    """Issue 40 item 7: whatever a system directory is called, every format keeps its values
    under their columns and gives the name back (csv, tsv, json) or shows it (md, latex)."""
    import termeval
    from termeval.core.scores import Metric, write_scores
    with tempfile.TemporaryDirectory() as d:
        for k, name in enumerate(names):
            write_scores(os.path.join(d, name), "matching", [Metric("ned", k / 8), Metric("coverage", 0.5)],
                         benchmark="zrc2020")
        md = termeval.results_table(d)
        rows = [line for line in md.splitlines() if line.startswith("|") and not line.startswith(("|system", "|---"))]
        assert len(rows) == len(names)
        for line in rows:       # cells as GFM splits a row: a backslash escapes the next character
            assert len(re.findall(r"(?:\\.|[^|\\])*\|", line[1:])) == 4, line   # system, data, ned, coverage
        for fmt, sep in (("csv", ","), ("tsv", "\t")):
            got = list(csv.DictReader(io.StringIO(termeval.results_table(d, format=fmt), newline=""), delimiter=sep))
            assert sorted(r["system"] for r in got) == sorted(names)
            assert {r["system"]: float(r["ned"]) for r in got} == {n: k / 8 for k, n in enumerate(names)}
        assert sorted(json.loads(termeval.results_table(d, format="json"))["zrc2020"]) == sorted(names)
        tex = termeval.results_table(d, format="latex")
        body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0].splitlines()
        assert len(body) == len(names) and all(line.count(" & ") == 3 for line in body)


PIECES = ["a", "b", "(", ")", "(a+)", "+", "*", "?", "|", "$", "^", ".", "\\w", "[a-", "]", "{2,}", "(?=a)",
          "\\1", "[[:alpha:]]", "(a|aa)", "(.*a)", "++", "(?>a+)"]


@FAST
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join),
       st.text(alphabet="ab!", max_size=40), st.booleans())
def test_user_regexes_answer_or_fail_in_one_line(pattern, value, anchored):
    """Issue 40 item 11: any pattern given to -q/-N/-Y compiles or is an InputError naming the
    option; matching answers or stops at the time budget with an InputError."""
    from termeval.std import userregex
    start = time.monotonic()
    try:
        rx = userregex.UserRegex(pattern, "--file-channels", ignore_case=True, perl_anchored=anchored)
        assert isinstance(rx.search(value), bool) and isinstance(rx.fullmatch(value), bool)
    except InputError as e:
        assert e.format().startswith("--file-channels: ") and "\n" not in e.format()
    assert time.monotonic() - start < 2 * userregex.MATCH_SECONDS + 2


JSON_PIECES = ["{", "}", "[", "]", ",", ":", '"s01"', '"syllables"', '"start"', '"end"', '"label"', "0.5", "1",
               "null", "true", '{"a": 1}', "\n", "[" * 2000, "]" * 2000, "{\"x\":" * 1500, "}" * 1500]
VALID = '{"s01": {"syllables": [\n {"start": 0.5, "end": 0.7, "label": "ka"}]}}'


@FAST
@given(st.lists(st.tuples(st.integers(0, len(VALID)), st.sampled_from(JSON_PIECES)), max_size=4))
def test_syllable_json_mutations_are_one_line(edits):
    """Issue 40 items 12 and 14: a syllable JSON nested thousands of levels deep, or with labels
    that are not strings, is read or refused with one line naming the file."""
    from termeval.gold.syllables import read_sdhubert_json
    text = VALID
    for pos, piece in sorted(edits, reverse=True):
        text = text[:pos] + piece + text[pos:]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "syl.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            read_sdhubert_json(path)
            labels = [s["label"] for u in json.loads(text).values() for s in u["syllables"]]
            assert all(isinstance(x, str) or type(x) is int for x in labels)      # read: only such labels
        except InputError as e:
            assert e.format().startswith(path) and "\n" not in e.format()


@FAST
@given(st.text(alphabet=st.sampled_from("ab \t\x1c\x1f\x01\x85\u2028\u3000\xa0\n"), max_size=30))
def test_segmented_text_control_characters_are_refused(text):
    """Issue 40 item 14: a control character in a segmented text is an error naming file and
    line, never a word boundary; spaces and tabs separate words."""
    from termeval.textseg.text import read_text
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "seg.txt")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        bad = re.search("[\x01\x1c\x1f\x85\u2028]", text.replace("\n", " "))
        try:
            read_text(path)
            assert bad is None
        except InputError as e:
            assert bad is not None, e.format()
            assert re.match(re.escape(path) + r":\d+: holds the character U\+", e.format())


@FAST
@given(st.text(alphabet=" \t\r\n", max_size=20), st.sampled_from(["auto", "kwslist", "stdlist"]))
def test_blank_detection_lists_are_refused(text, fmt):
    """Issue 40 item 13: an empty or blank detection list is an error naming it (never scored
    as a list without detections)."""
    from termeval.std.detections import read_detections
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "kwslist.xml")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        with pytest.raises(InputError, match="empty file: not a detection list") as e:
            read_detections(path, fmt)
        assert e.value.path == path
