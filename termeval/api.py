"""The Python API: every scoring step as one function call (docs/api.md).

    import termeval
    scores = termeval.score_tde("data/mandarin", "kamper_mandarin.class")   # zrc2020
    scores["ned"], scores["boundary_fscore"]

Each function builds the argv of its step (termeval/bin/<step>.py) from its arguments and
keyword options (the step's option names with '_' for '-': nj, bootstrap, seed, ci, folds,
preset, ...; True/False for true/false, a list for a comma list), so that the step's own parser
validates them, and runs the step's Stage through termeval.run.driver.run in this process. The result
is the mapping the step writes to scores/scores.json. With exp_dir= the step's files are written
there as by the shell step; without it nothing is written anywhere (temporary inputs and reports
live in a temporary directory removed before the call returns). Bad input raises
termeval.InputError, whose message is the line the step prints after `<step>: error: `
(argparse's messages included: `argument --nj: must be a positive integer, got '0'`).

Gold alignments and classes may be paths or in-memory rows (termeval.api_inputs); gold given
as rows or files is prepared once per process, and a parsed data dir is parsed once per process.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
from typing import Any, Iterator, Mapping, Sequence

from termeval import api_inputs
from termeval.api_inputs import NO_DIR, GoldData
from termeval.core.errors import InputError

__all__ = ["score_tde", "score_std", "score_quesst", "score_segmentation", "compare_systems",
           "prepare_gold", "GoldData", "InputError"]

# options the API sets itself (a job split needs an exp dir and processes: see `termeval` command)
_RESERVED = {"job", "merge", "run_id", "help"}
_api_gold_memo: dict = {}          # termeval.core.datadir's memo of parsed data dirs, while a call runs
# the SIL-less preparation the 2015/2017 definitions need (README, "zr2015 / zr2017")
TDE15_GOLD = {"drop_silence": True, "fill_gaps": False, "sort": True}


# ----------------------------------------------------------------------------- options -> argv

def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    if isinstance(v, (list, tuple)):
        return ",".join(_value(x) for x in v)
    return str(v)


def options_argv(parser: argparse.ArgumentParser, options: Mapping[str, Any], where: str) -> list[str]:
    """`--name=value` for each option (None = the step's default); unknown names refused."""
    argv = []
    known = parser._option_string_actions
    for name, v in options.items():
        flag = "--" + name.replace("_", "-")
        if name in _RESERVED or flag not in known:
            opts = sorted(s[2:].replace("-", "_") for s in known if s.startswith("--")
                          and s[2:].replace("-", "_") not in _RESERVED and known[s].help != argparse.SUPPRESS)
            raise InputError(f"{where}: unknown option {name!r} (options: {', '.join(opts)})")
        if v is None:
            continue
        action = known[flag]
        if action.nargs == 0:            # store_true/store_false flags
            if not isinstance(v, bool):
                raise InputError(f"{where}: option {name!r} takes True or False, got {v!r}")
            if v != action.default:
                argv.append(flag)
            continue
        argv.append(f"{flag}={_value(v)}")
    return argv


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    with _argparse_raises():
        return parser.parse_args(argv)


@contextlib.contextmanager
def _argparse_raises() -> Iterator[None]:
    """argparse errors (its usage line + exit 2 in a step) raise InputError(message) instead."""
    def error(self: argparse.ArgumentParser, message: str) -> None:
        raise InputError(message)
    saved = argparse.ArgumentParser.error
    argparse.ArgumentParser.error = error          # type: ignore[method-assign]
    try:
        yield
    finally:
        argparse.ArgumentParser.error = saved      # type: ignore[method-assign]


@contextlib.contextmanager
def _gold_memo() -> Iterator[None]:
    from termeval.core import datadir as data
    saved, data.gold_memo = data.gold_memo, _api_gold_memo
    try:
        yield
    finally:
        data.gold_memo = saved


# ----------------------------------------------------------------------------- running a step

def _step(module: str) -> Any:
    return importlib.import_module(f"termeval.bin.{module}")


def run_step(module: str, positionals: Sequence[str], options: Mapping[str, Any],
             exp_dir: str | os.PathLike | None, where: str) -> dict:
    """Parse the step's argv and run its Stage in this process; the scores mapping."""
    mod = _step(module)
    parser = mod.get_parser()
    exp = api_inputs.exp_dir_path(exp_dir)
    argv = options_argv(parser, options, where) + ["--", *positionals, exp if exp is not None else NO_DIR]
    with _argparse_raises(), _gold_memo(), _quiet():
        args = parser.parse_args(argv)
        args.exp_dir = exp                # None: the stage writes nothing (termeval.run.driver.run)
        from termeval.run import driver as jobs
        return jobs.run(mod.stage_of(args), args, exp, echo=False)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """The step's progress lines dropped (a notebook scoring 20 systems gets 20 results, not 60
    log lines); its warnings and notes kept, on stderr."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            yield
    finally:
        sys.stderr.writelines(line for line in io.StringIO(err.getvalue())
                              if "warning" in line or "note:" in line)


@contextlib.contextmanager
def _gold_dir(gold: Any, gold_options: Mapping[str, Any] | None) -> Iterator[str]:
    kind, x = api_inputs.gold_form(gold)
    if kind == "dir":
        yield x
        return
    if kind == "raw":
        x = prepare_gold(*x, **dict(gold_options or {}))
    with _gold_memo(), x.as_data_dir() as d:
        yield d


def _path_or_rows(x: Any, s: api_inputs.Scratch, name: str, nested: bool | None) -> str:
    """A path as it is; rows written into the call's scratch dir (nested: a class file)."""
    if isinstance(x, (str, os.PathLike)):
        return os.fspath(x)
    if nested is None:      # a segmentation: flat interval rows or nested classes
        rows = api_inputs._sequence(x, name)
        nested = len(rows) > 0 and isinstance(rows[0], (list, tuple)) and len(rows[0]) > 0 \
            and isinstance(rows[0][0], (list, tuple))
    if nested:
        text, where = api_inputs.class_rows_text(x, name)
    else:
        text, where = api_inputs.interval_rows_text(x, name, labelled=None)
    return s.write(name, text, where)


# ----------------------------------------------------------------------------- the API

def prepare_gold(phones: Any, words: Any = None, *, format: str | None = None,
                 data_dir: str | os.PathLike | None = None, **options: Any) -> GoldData:
    """Gold alignments prepared as steps/prepare_gold.sh does, held in memory.

    phones, words: ZeroSpeech .phn/.wrd paths, phone and word CTM paths (words '-': derived from
    the position suffixes), a TextGrid directory alone, or row lists [(file, onset, offset,
    label), ...]. format: zr, ctm or textgrid (default: from the inputs). options: those of
    prepare_gold (fill_gaps, sort, spk_rule, phones_txt, segments, ...). With data_dir= the
    data dir is written too. The same inputs and options are prepared once per process."""
    inputs = [phones] if words is None else [phones, words]
    g = api_inputs.prepare(inputs, format, lambda p: options_argv(p, options, "prepare_gold"), _parse)
    if data_dir is not None:
        g.write(data_dir, [os.fspath(x) for x in inputs if isinstance(x, (str, os.PathLike)) and x != "-"])
    return g


def score_tde(gold: Any, classes: Any, benchmark: str = "zrc2020", *,
              exp_dir: str | os.PathLike | None = None, gold_options: Mapping[str, Any] | None = None,
              **options: Any) -> dict:
    """Term discovery scores (steps/score_tde.sh): zrc2020 (tdev2), zr2015 or zr2017.

    gold: a prepared data dir, a (phones, words) pair of paths or row lists, a TextGrid dir, or
    prepare_gold(...); raw gold is prepared with gold_options (default: the SIL-less
    preparation for zr2015/zr2017, prepare_gold's defaults for zrc2020). classes: a class (or
    pairs) file, or [[(file, onset, offset), ...], ...]. options: nj, lenient, end_tolerance,
    workers, folds, bootstrap, seed, ci, bootstrap_unit, ..."""
    if gold_options is None and benchmark in ("zr2015", "zr2017"):
        gold_options = TDE15_GOLD
    with api_inputs.scratch() as s, _gold_dir(gold, gold_options) as data:
        cls = _path_or_rows(classes, s, "classes", nested=True)
        return run_step("score_tde", [data, cls], {"benchmark": benchmark, **options}, exp_dir, "score_tde")


def score_segmentation(gold: Any, segmentation: Any, *, exp_dir: str | os.PathLike | None = None,
                       gold_options: Mapping[str, Any] | None = None, **options: Any) -> dict:
    """Word or phone segmentation scores (steps/score_segmentation.sh). segmentation: a class
    file, an interval file, a vqwordseg intervals/ dir, rows [(utt, onset, offset[, label]), ...]
    or classes [[(file, onset, offset), ...], ...]. options: tolerance, level, compat, ..."""
    with api_inputs.scratch() as s, _gold_dir(gold, gold_options) as data:
        seg = _path_or_rows(segmentation, s, "segmentation", nested=None)
        return run_step("score_segmentation", [data, seg], options, exp_dir, "score_segmentation")


def score_std(kws_dir: str | os.PathLike, detections: str | os.PathLike, *,
              exp_dir: str | os.PathLike | None = None, **options: Any) -> dict:
    """Spoken term detection scores (steps/score_std.sh): ATWV, MTWV, Cnxe, ... options:
    preset, p_target, c_miss, c_fa, compat, align, tolerance, breakdown, plots, bootstrap, ..."""
    return run_step("score_std", [os.fspath(kws_dir), os.fspath(detections)], options, exp_dir, "score_std")


def score_quesst(kws_dir: str | os.PathLike, detections: str | os.PathLike, *,
                 exp_dir: str | os.PathLike | None = None, **options: Any) -> dict:
    """QUESST per-document scores (steps/score_quesst.sh). options: default_score, p_target, ..."""
    return run_step("score_quesst", [os.fspath(kws_dir), os.fspath(detections)], options, exp_dir, "score_quesst")


def compare_systems(systems: Sequence[str | os.PathLike], *, out_dir: str | os.PathLike | None = None,
                    **options: Any) -> dict:
    """Paired comparison of systems scored into exp dirs (steps/compare_systems.sh): the content
    of <out-dir>/scores/compare.json. options: bootstrap, seed, ci, test, plot (default: true
    with out_dir, false without)."""
    import json
    import tempfile
    systems = api_inputs.system_list(systems)
    out_dir = api_inputs.exp_dir_path(out_dir, "out_dir")
    mod = _step("compare_systems")
    if out_dir is None:
        options = {"plot": False, **options}
    argv = options_argv(mod.get_parser(), options, "compare_systems")
    with tempfile.TemporaryDirectory(prefix="termeval-compare-") as tmp:
        out = os.fspath(out_dir) if out_dir is not None else tmp
        err = io.StringIO()
        try:
            with _argparse_raises(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                mod.main(argv + ["--", *[os.fspath(x) for x in systems], out])
        finally:      # keep what was not compared, drop the line naming the output files
            sys.stderr.writelines(ln for ln in io.StringIO(err.getvalue()) if "not compared" in ln)
        with open(os.path.join(out, "scores", "compare.json"), encoding="utf-8") as f:
            return json.load(f)
