"""TdeOptions (termeval/tde/options.py): what each benchmark reads, refused otherwise, the same
line from the command line, the PARSE_ONLY pass and the API; the API's type errors."""
from __future__ import annotations

import os

import pytest

import termeval
from termeval.bin import score_tde
from termeval.core.errors import InputError
from termeval.tde.options import TdeOptions

PATHS = {"data_dir": "d", "class_file": "c", "exp_dir": "e"}


@pytest.mark.parametrize("bench, options, message", [
    ("zrc2020", {"folds": "equal:3"}, "--folds equal:3: not read by --benchmark zrc2020 (an option of zr2015, "
                                      "zr2017, zr2015-doc, lrec2014)"),
    ("zr2015-doc", {"measures": "ned"}, "--measures ned: not read by --benchmark zr2015-doc (an option of "
                                        "zr2015, zr2017)"),
    ("zr2017", {"workers": 2}, "--workers 2: not read by --benchmark zr2017 (an option of zrc2020)"),
    ("zr2015", {"end_tolerance": 0.02}, "--end-tolerance 0.02: not read by --benchmark zr2015"),
    ("lrec2014", {"bootstrap": 10}, "--bootstrap: not available with --benchmark lrec2014"),
    ("zr2015-doc", {"bootstrap_unit": "speaker"}, "--bootstrap-unit speaker: not read by --benchmark zr2015-doc"),
    ("lrec2014", {"folds": "equal:3"}, "--folds equal:3: equal:N is for --benchmark zr2015-doc"),
])
def test_an_option_the_benchmark_does_not_read_is_refused(bench, options, message, capsys):
    with pytest.raises(InputError) as e:
        TdeOptions(benchmark=bench, **options, **PATHS).validate()
    assert str(e.value).startswith(message)
    argv = [f"--{k.replace('_', '-')}={v}" for k, v in options.items()]
    with pytest.raises(SystemExit) as stop:
        score_tde.get_parser().parse_args(["--benchmark", bench, *argv, "d", "c", "e"])
    assert stop.value.code == 2 and f"error: {message}" in capsys.readouterr().err


def test_the_defaults_and_what_a_benchmark_reads_pass():
    for bench in ("zrc2020", "zr2015", "zr2017", "zr2015-doc", "lrec2014"):
        TdeOptions(benchmark=bench, **PATHS).validate()
    TdeOptions(benchmark="zr2017", folds="none", measures="ned,coverage", bootstrap=5, **PATHS).validate()
    TdeOptions(benchmark="zrc2020", workers=2, end_tolerance=0.0, pairs_clustering="components",
               bootstrap_unit="speaker", **PATHS).validate()
    a = score_tde.get_parser().parse_args(["--benchmark", "zr2015-doc", "--folds", "equal:3", "d", "c", "e"])
    assert a.folds == "equal:3"


def test_api_types_and_unknown_options(tmp_path):
    with pytest.raises(TypeError, match=r"^score_tde: nj must be int, got str '2'$"):
        termeval.score_tde("d", "c", nj="2")
    with pytest.raises(TypeError, match=r"^score_tde: lenient must be bool"):
        termeval.score_tde("d", "c", lenient="true")
    for name in ("job", "merge", "data_dir", "exp_dir_x"):
        with pytest.raises(InputError, match=rf"^score_tde: unknown option '{name}' \(options: benchmark, "):
            termeval.score_tde("d", "c", **{name: 1})
    with pytest.raises(TypeError, match=r"^prepare_gold: sort must be bool"):
        termeval.prepare_gold("p", "w", sort="true")
    with pytest.raises(InputError, match=r"^nj: must be a positive integer, got '0'$"):
        termeval.score_zrc_submission(tmp_path, nj=0)
    assert not os.listdir(tmp_path)
