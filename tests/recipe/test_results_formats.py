"""Paper-ready tables (issue 35 item 3): utils/summarize_scores.sh --format csv|tsv|latex|json,
--percent, --digits, --metrics, --bold-best; termeval.results_table / termeval.load_results.
Every format parsed back (csv module, json, the rows of a LaTeX tabular) equals scores.json
(x100 with --percent for F-scores, precisions, recalls, coverage and NED only); every format
names the data dir each system was scored on and carries its warnings."""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess

import pytest

import termeval
from termeval.core.scores import Metric, write_scores
from termeval.results.options import is_percent

TDE_CMD = "termeval/bin/score_tde.py --benchmark zrc2020 data/dev exp/{0}/classes.txt exp/{0}"


def tree(exp):
    """Three zrc2020 systems on data/dev (one with intervals, one with a warning) and an STD one."""
    for name, ned, cov, ci in (("a", 0.25, 0.5, None), ("b", 0.125, 0.75, {"lo": 0.1, "hi": 0.15, "level": 0.95}),
                               ("c", 0.5, 0.375, None)):
        write_scores(str(exp / name), "matching", [Metric("ned", ned, ci=ci), Metric("coverage", cov),
                                                   Metric("ned_pairs", 40)], benchmark="zrc2020",
                     extra={"data_id": "0123456789abcdef"}, command=TDE_CMD.format(name),
                     warnings=["score_tde: warning: 2 fragments beyond the end"] if name == "c" else None)
    write_scores(str(exp / "kws"), "std", [Metric("atwv", 0.375), Metric("p_miss", 0.5), Metric("n_terms", 7)],
                 benchmark="sws2013", extra={"data_id": "fedcba9876543210"},
                 command="termeval/bin/score_std.py data/local/kws exp/kws/det.xml exp/kws")


def scores(exp, name):
    return json.loads((exp / name / "scores" / "scores.json").read_text())


def expected(exp, name, metric, percent):
    v = scores(exp, name)[metric]
    return v * 100 if percent and is_percent(metric) and isinstance(v, float) else v


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
@pytest.mark.parametrize("percent", [False, True])
def test_csv_and_tsv_parse_back_to_scores_json(tmp_path, root, fmt, percent):
    exp = tmp_path / "exp"
    tree(exp)
    r = subprocess.run([f"{root}/utils/summarize_scores.sh", "--format", fmt, "--percent", str(percent).lower(),
                        "--out", f"t.{fmt}", "exp"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / f"t.{fmt}").read_text()),
                               delimiter="," if fmt == "csv" else "\t"))
    assert [(x["table"], x["system"]) for x in rows] == [("zrc2020", s) for s in "abc"] + [("std (sws2013)", "kws")]
    for x in rows:
        for metric in ("ned", "coverage", "ned_pairs") if x["table"] == "zrc2020" else ("atwv", "p_miss", "n_terms"):
            want = expected(exp, x["system"], metric, percent)
            assert (int(x[metric]) if isinstance(want, int) else float(x[metric])) == want
    assert rows[0]["data"] == "data/dev" and rows[0]["data_id"] == "0123456789abcdef"
    assert rows[3]["data"] == "local/kws" and rows[3]["data_id"] == "fedcba9876543210"
    assert (rows[1]["ned_lo"], rows[1]["ned_hi"]) == ((str(10.0), str(15.0)) if percent else ("0.1", "0.15"))
    assert rows[0]["ned_lo"] == "" and "atwv_lo" not in rows[0]
    assert rows[2]["warnings"] == "score_tde: warning: 2 fragments beyond the end"
    assert rows[0]["warnings"] == ""
    loaded = termeval.load_results(exp, percent=percent)         # the same rows, typed
    assert len(loaded) == len(rows)
    for x, d in zip(rows, loaded):
        assert x == {k: "" if d.get(k) is None else str(d[k]) for k in x}


@pytest.mark.parametrize("percent", [False, True])
def test_json_parses_back_to_scores_json(tmp_path, percent):
    exp = tmp_path / "exp"
    tree(exp)
    data = json.loads(termeval.results_table(exp, format="json", percent=percent))
    assert list(data) == ["zrc2020", "std (sws2013)"] and list(data["zrc2020"]) == ["a", "b", "c"]
    for table, systems in data.items():
        for system, values in systems.items():
            for metric, v in values.items():
                if metric in ("ned", "coverage", "ned_pairs", "atwv", "p_miss", "n_terms"):
                    assert v == expected(exp, system, metric, percent)
    assert data["zrc2020"]["b"]["ned_lo"] == (0.1 * 100 if percent else 0.1)
    assert data["zrc2020"]["a"]["data"] == "data/dev" and data["zrc2020"]["a"]["data_id"] == "0123456789abcdef"
    assert data["zrc2020"]["c"]["warnings"].startswith("score_tde: warning:")


def tabular_rows(text):
    """The body rows of each tabular: title -> [cells of each row]."""
    out = {}
    for block in text.split("% ")[1:]:
        title = block.split("\n", 1)[0]
        body = block.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
        out[title] = [[c.strip() for c in line.rstrip(" \\").split(" & ")] for line in body.splitlines()]
    return out


def test_latex_booktabs_percent_bold_best_and_footnote(tmp_path):
    exp = tmp_path / "exp"
    tree(exp)
    text = termeval.results_table([exp], format="latex", percent=True, bold_best=True)
    assert text.count("\\toprule") == text.count("\\midrule") == text.count("\\bottomrule") == 2
    assert "system & data & ned (\\%) & coverage (\\%) & ned\\_pairs \\\\" in text
    rows = tabular_rows(text)
    assert len(rows["zrc2020"]) == 3 and len(rows["std (sws2013)"]) == 1
    a, b, c = rows["zrc2020"]
    assert a == ["a", "data/dev@01234567", "25.0", "50.0", "40"]
    assert b == ["b", "data/dev@01234567", "\\textbf{12.5} [10.0, 15.0]", "\\textbf{75.0}", "40"]  # ned: lower is better
    assert c[0] == "c$^{1}$" and "$^{1}$ c: score\\_tde: warning: 2 fragments beyond the end\\par" in text
    assert rows["std (sws2013)"] == [["kws", "local/kws@fedcba98", "0.3750", "0.5000", "7"]]   # not in percent
    for system, cells in zip("abc", rows["zrc2020"]):
        assert float(cells[2].replace("\\textbf{", "").split("}")[0].split()[0]) == \
            round(expected(exp, system, "ned", True), 1)
    digits = termeval.results_table(exp, format="latex", digits=3, metrics="coverage")
    assert tabular_rows(digits) == {"zrc2020": [["a", "data/dev@01234567", "0.500"], ["b", "data/dev@01234567", "0.750"],
                                                ["c$^{1}$", "data/dev@01234567", "0.375"]]}


def test_markdown_data_column_footnote_and_options(tmp_path, root):
    exp = tmp_path / "exp"
    tree(exp)
    r = subprocess.run([f"{root}/utils/summarize_scores.sh", "exp"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "RESULTS.md").read_text()
    assert "|system|data|ned|coverage|ned_pairs|" in text
    assert "|a|data/dev@01234567|0.2500|0.5000|40|" in text
    assert "|c[^1]|data/dev@01234567|0.5000|0.3750|40|" in text
    assert "[^1]: c: score_tde: warning: 2 fragments beyond the end" in text
    assert text == termeval.results_table(exp)
    md = termeval.results_table(exp, percent=True, bold_best=True, metrics=["coverage", "atwv"])
    assert re.findall(r"^## (.*)$", md, re.M) == ["zrc2020", "std (sws2013)"]
    assert "|b|data/dev@01234567|**75.0**|" in md and "|kws|local/kws@fedcba98|0.3750|" in md


def test_bad_metrics_and_format_are_refused(tmp_path, root):
    exp = tmp_path / "exp"
    tree(exp)
    with pytest.raises(termeval.InputError, match="^metrics: no table has nope"):
        termeval.results_table(exp, metrics="ned,nope")
    r = subprocess.run([f"{root}/utils/summarize_scores.sh", "--format", "xls", "exp"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.splitlines()[0] == (
        "summarize_scores.py: error: argument --format: invalid choice: 'xls' "
        "(choose from 'md', 'csv', 'tsv', 'latex', 'json', 'html')")
    assert not (tmp_path / "RESULTS.md").exists()
    r = subprocess.run([f"{root}/utils/summarize_scores.sh", "--format", "json", "exp"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)["zrc2020"]["a"]["ned"] == 0.25     # stdout without --out
    assert not (tmp_path / "RESULTS.md").exists()


ODD_NAMES = ["sys|v2", "tab\there", "new\nline", 'quo"te', "cr\rhere", "amp&x_y_ *[l](u)<b>", "$x^2_%#{}~\\", "us\x1fsep"]


def test_system_names_with_table_specials_stay_one_cell_in_every_format(tmp_path):
    """Issue 40 item 7: a system directory named `sys|v2` (or holding a tab, a newline, a quote,
    LaTeX or Markdown specials, a control character) keeps every value under its column."""
    exp = tmp_path / "exp"
    for name in ODD_NAMES:
        write_scores(str(exp / name), "matching", [Metric("ned", 0.25), Metric("coverage", 0.5)], benchmark="zrc2020",
                     extra={"data_id": "0123456789abcdef"}, command=TDE_CMD.format("x"),
                     warnings=["score_tde: warning: a|b\nc"])
    md = termeval.results_table(exp)
    body = [line for line in md.splitlines() if line.startswith("|") and not line.startswith(("|system", "|---"))]
    assert len(body) == len(ODD_NAMES)
    for line in body:       # cells as GFM splits a row: a backslash escapes the next character
        cells = re.findall(r"((?:\\.|[^|\\])*)\|", line[1:])
        assert cells[1:] == ["data/dev@01234567", "0.2500", "0.5000"], line
    assert "|sys\\|v2[^" in md and "new\\nline" in md and "us\\x1fsep" in md and "\\*\\[l\\]" in md
    assert all(line.startswith(("[^", "|", "#", "<!--")) or not line for line in md.splitlines())
    for fmt, sep in (("csv", ","), ("tsv", "\t")):
        rows = list(csv.DictReader(io.StringIO(termeval.results_table(exp, format=fmt), newline=""), delimiter=sep))
        assert sorted(r["system"] for r in rows) == sorted(ODD_NAMES)
        assert {(r["data"], r["ned"], r["coverage"], r["warnings"]) for r in rows} == \
            {("data/dev", "0.25", "0.5", "score_tde: warning: a|b\nc")}
    rows = tabular_rows(termeval.results_table(exp, format="latex"))["zrc2020"]
    assert [r[1:] for r in rows] == [["data/dev@01234567", "0.2500", "0.5000"]] * len(ODD_NAMES)
    assert "sys\\textbar{}v2$^{" in termeval.results_table(exp, format="latex")
    assert sorted(json.loads(termeval.results_table(exp, format="json"))["zrc2020"]) == sorted(ODD_NAMES)
