"""The Python API: every step as one function call (docs/api.md).

    import termeval
    scores = termeval.score_tde("data/mandarin", "kamper_mandarin.class")   # zrc2020
    scores["ned"], scores["boundary_fscore"]

Each function takes the step's options as typed keyword arguments (the fields of the step's
Options dataclass, e.g. termeval/tde/options.py: nj, bootstrap, seed, ci, folds, preset, ...;
`help(termeval.score_tde)` lists them; a list for a comma list), builds the Options directly
(no argv, no argparse: the same checks and messages as the command line, Options.validate)
and runs the step's Stage through the one driver (termeval.run.driver.run) in this process;
two threads may call it at once. A scoring step's result is the mapping the step writes to
scores/scores.json (the other steps return what they wrote or found: each function's doc).
With exp_dir= the step's files are written there as by the shell step; without it nothing is written anywhere (temporary inputs and reports
live in a temporary directory removed before the call returns). Bad input raises
termeval.InputError, whose message is the line the step prints after `<step>: error: `
(option checks included: `argument --nj: must be a positive integer, got '0'`); a value of the
wrong Python type raises TypeError naming the argument.

Gold alignments and classes may be paths or in-memory rows (termeval.api_inputs); gold given
as rows or files is prepared once per process, and a parsed data dir is parsed once per process.
"""
from __future__ import annotations

import contextlib
import threading
import dataclasses
import functools
import inspect
import io
import os
import re
import sys
from typing import Any, Iterator, Mapping, Sequence

from termeval import api_inputs
from termeval.api_inputs import GoldData
from termeval.core import datadir
from termeval.core.declaration import Step, load
from termeval.core.errors import InputError
from termeval.core.face import as_api
from termeval.core.options import flag_of
from termeval.results import formats as results_formats
from termeval.results import summary as results_summary
from termeval.results.options import SummarizeOptions
from termeval.run import driver, plan
from termeval.steps import (COMPARE_SYSTEMS, EXPORT_TEXT, EXPORT_ZR, MEASURE_RESOURCES, PREPARE_CLASSES, PREPARE_GOLD,
                            PREPARE_KWS, SCORE_DISCOPHON, SCORE_QUESST, SCORE_RESOURCES, SCORE_SEGMENTATION, SCORE_STD,
                            SCORE_TDE, SCORE_TEXT_SEGMENTATION, SCORE_UNITS, SCORE_ZRC_SUBMISSION, SUMMARIZE_SCORES,
                            TEXT_TO_TIMES, VALIDATE_ALIGNMENT_DIR)
from termeval.tde.benchmarks import benchmark as tde_benchmark

__all__ = ["score_tde", "score_std", "score_quesst", "score_segmentation", "score_units", "score_discophon",
           "score_text_segmentation",
           "score_resources", "score_zrc_submission", "export_text", "text_to_times", "compare_systems",
           "prepare_gold", "prepare_kws", "prepare_classes", "validate_alignment_dir", "export_zr",
           "measure_resources", "summarize_scores", "results_table", "load_results", "GoldData", "InputError"]

_api_gold_memo: dict = {}          # termeval.core.datadir's memo of parsed data dirs, while a call runs
# the SIL-less preparation the 2015/2017 definitions need (docs/guide.md §7.4): the benchmarks
# whose record says sil_less_gold
TDE15_GOLD = {"drop_silence": True, "fill_gaps": False, "sort": True}


class _WhileCalls:
    """A process-wide setting held while at least one API call runs, safe with threads: the
    first call to enter sets it, the last to leave restores it (two threads each saving and
    restoring a global would leave the other's value behind)."""

    def __init__(self, enter: Any, leave: Any) -> None:
        self.enter, self.leave = enter, leave
        self.lock = threading.Lock()
        self.depth = 0
        self.saved: Any = None

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        with self.lock:
            if self.depth == 0:
                self.saved = self.enter()
            self.depth += 1
        try:
            yield
        finally:
            with self.lock:
                self.depth -= 1
                if self.depth == 0:
                    self.leave(self.saved)


def _memo_on() -> Any:
    saved, datadir.gold_memo = datadir.gold_memo, _api_gold_memo
    return saved


def _memo_off(saved: Any) -> None:
    datadir.gold_memo = saved


class _WarningsOnly(io.TextIOBase):
    """stderr while API calls run: a step's progress lines are dropped (a notebook scoring 20
    systems gets 20 results, not 60 log lines); its warning and note lines pass, whole (each
    thread's partial line is buffered on its own)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.partial = threading.local()

    def write(self, text: str) -> int:
        buf = getattr(self.partial, "text", "") + text
        *lines, self.partial.text = buf.split("\n")
        for line in lines:
            if "warning" in line or "note:" in line:
                self.real.write(line + "\n")
        return len(text)

    def flush(self) -> None:
        self.real.flush()


def _quiet_on() -> Any:
    saved, sys.stderr = sys.stderr, _WarningsOnly(sys.stderr)
    return saved


def _quiet_off(saved: Any) -> None:
    sys.stderr = saved


_gold_memo = _WhileCalls(_memo_on, _memo_off)    # termeval.core.datadir's memo of parsed data dirs
_quiet = _WhileCalls(_quiet_on, _quiet_off)


# ----------------------------------------------------------------------------- typed steps

def declared(step: Step, fixed: Sequence[str] = ()) -> Any:
    """Decorator of the API function of a declared step (termeval/steps): its signature (help(),
    IDEs) and docstring list the fields of the step's Options (name, type, default, doc), after
    the step's summary; `fixed` names the fields the function sets itself. The call runs in the
    API's face (termeval.core.face: warnings headed with the function's name, option names
    spelled as Python arguments), its progress lines hidden; an InputError it raises speaks
    Python (`lenient=True`, not `--lenient true`: python_words)."""

    def wrap(fn: Any) -> Any:
        sig = inspect.signature(fn)
        params = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        taken = {p.name for p in params} | set(fixed)
        lines = []
        for f in step.fields():
            if f.name in taken or not f.metadata.get("cli", True) or f.metadata.get("hidden") \
                    or f.metadata.get("positional") or not f.metadata.get("api", True):
                continue
            params.append(inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                                            annotation=f.type))
            lines.append(f"    {f.name} ({f.type}, default {f.default!r}): {f.metadata.get('doc', '')}")

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            with as_api(step.name), _quiet():
                try:
                    return fn(*args, **kwargs)
                except InputError as e:
                    raise python_words(step, e) from None
        call.__signature__ = sig.replace(parameters=params)
        call.__doc__ = (step.summary + "\n\n    " + (fn.__doc__ or "").strip() + "\n\n    Options:\n"
                        + "\n".join(lines) + "\n")
        return call
    return wrap


def python_words(step: Step, e: InputError) -> InputError:
    """The error's line as the API says it: each option of the step written as the command line
    writes it (`--lenient true`, `--keywords FILE`, `--benchmark zr2015-doc`, `--nj`) becomes the
    Python argument (`lenient=True`, `keywords=FILE`, `benchmark='zr2015-doc'`, `nj`)."""
    fields = {flag_of(f): f for f in step.fields() if f.metadata.get("cli", True) and not f.metadata.get("positional")}
    if not fields:
        return e
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in sorted(fields, key=len, reverse=True))
                         + r")(?![\w-])(?:[ =](\S+))?")

    def spelled(m: re.Match) -> str:
        f, value = fields[m.group(1)], m.group(2)
        word = value.rstrip(".,;:)") if value else None
        tail = value[len(word):] if value else ""
        kind = str(f.type).replace(" ", "")
        if word in ("true", "false") and kind.startswith("bool"):
            return f"{f.name}={word == 'true'}{tail}"
        if word and (word.isupper() or (f.metadata.get("choices") and word in f.metadata["choices"])
                     or re.fullmatch(r"-?[0-9.]+(e-?[0-9]+)?", word)):
            shown = word if word.isupper() or not kind.startswith(("str", "None|str", "str|None")) else repr(word)
            return f"{f.name}={shown}{tail}"
        return f.name + (f" {value}" if value else "")

    message = pattern.sub(spelled, e.message)
    if message == e.message:
        return e
    new = InputError(message, e.path, e.line)
    new.preceding = e.preceding
    return new


def run_options(step: Step, opts: Any) -> dict:
    """Run a scoring step on typed options in this process, through the one plan (nothing
    written without opts.exp_dir)."""
    with _gold_memo():
        return plan.run_step(step, opts, echo=False)


def run_task(step: Step, opts: Any) -> Any:
    """Run a one-shot step's task on typed options (its files written through the driver)."""
    return load(step.task)(opts, driver.run_task)


_PYTHON_TYPES = {"bool": (bool,), "int": (int,), "float": (int, float), "str": (str, os.PathLike)}


def typed_values(options_class: type, values: Mapping[str, Any], where: str) -> dict:
    """The keyword options of an API call checked against the fields of `options_class`: a
    value of the wrong Python type raises TypeError naming the argument; None keeps the default;
    a list of strings for a text field is its comma list; a name that is not an option of the
    command line (the driver's own fields, the positional arguments the function takes itself)
    is refused as unknown (InputError, the options listed)."""
    fields = {f.name: f for f in dataclasses.fields(options_class)}
    public = sorted(n for n, f in fields.items() if f.metadata.get("cli", True) and f.metadata.get("api", True)
                    and not f.metadata.get("positional") and not f.metadata.get("hidden"))
    out: dict = {}
    for name, v in values.items():
        f = fields.get(name)
        if name not in public:
            raise InputError(f"{where}: unknown option {name!r} (options: {', '.join(public)})")
        if v is None and f.default is not None:
            continue
        kinds = str(f.type).replace(" ", "").split("|")
        if "str" in kinds and isinstance(v, (list, tuple)) and all(
                isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in v):
            v = ",".join(str(x) for x in v)          # a comma-list option given as a list
        if not ((v is None and "None" in kinds) or any(
                isinstance(v, _PYTHON_TYPES[k]) and not (k != "bool" and isinstance(v, bool))
                for k in kinds if k in _PYTHON_TYPES)):
            raise TypeError(f"{where}: {name} must be {' or '.join(kinds)}, got {type(v).__name__} {v!r}")
        out[name] = os.fspath(v) if isinstance(v, os.PathLike) else v
    return out


def build_options(options_class: type, options: Mapping[str, Any], where: str, **fixed: Any) -> Any:
    """A step's validated Options from an API call: the caller's keyword `options` checked by
    typed_values, and the arguments the function sets itself (`fixed`: paths, exp_dir)."""
    return options_class.build({**typed_values(options_class, options, where), **fixed}, where)


def _exp(exp_dir: Any, name: str = "exp_dir") -> str | None:
    """An output directory argument: None, or a path that is (or can be made) a directory."""
    return api_inputs.exp_dir_path(exp_dir, name)


# ----------------------------------------------------------------------------- running a step

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

@declared(PREPARE_GOLD, fixed=("format", "inputs"))
def prepare_gold(phones: Any, words: Any = None, *, format: str | None = None,
                 data_dir: str | os.PathLike | None = None, **options: Any) -> GoldData:
    """Gold alignments prepared as steps/prepare_gold.sh does, held in memory.

    phones, words: ZeroSpeech .phn/.wrd paths, phone and word CTM paths (words '-': derived from
    the position suffixes), a TextGrid directory alone, or row lists [(file, onset, offset,
    label), ...]. format: zr, ctm or textgrid (default: from the inputs). With data_dir= the
    data dir is written too. The same inputs and options are prepared once per process."""
    values = typed_values(PREPARE_GOLD.options, options if format is None else {**options, "format": format},
                          "prepare_gold")
    inputs = [phones] if words is None else [phones, words]
    g = api_inputs.prepare(inputs, values.pop("format", None), values)
    if data_dir is not None:
        g.write(data_dir, [os.fspath(x) for x in inputs if isinstance(x, (str, os.PathLike)) and x != "-"])
    return g


@declared(SCORE_TDE, fixed=("data_dir", "class_file", "exp_dir", "benchmark"))
def score_tde(gold: Any, classes: Any, benchmark: str = "zrc2020", *,
              exp_dir: str | os.PathLike | None = None, gold_options: Mapping[str, Any] | None = None,
              **options: Any) -> dict:
    """steps/score_tde.sh: zrc2020 (tdev2), zr2015, zr2017, zr2015-doc or lrec2014; the mapping
    scores/scores.json holds.

    gold: a prepared data dir, a (phones, words) pair of paths or row lists, a TextGrid dir, or
    prepare_gold(...); raw gold is prepared with gold_options (default: the SIL-less
    preparation for zr2015/zr2017, prepare_gold's defaults for zrc2020). classes: a class (or
    pairs) file, or [[(file, onset, offset), ...], ...]."""
    values = typed_values(SCORE_TDE.options, {"benchmark": benchmark, **options}, "score_tde")
    exp = _exp(exp_dir)
    if gold_options is None and tde_benchmark(values.get("benchmark", "zrc2020")).sil_less_gold:
        gold_options = TDE15_GOLD
    with api_inputs.scratch() as s, _gold_dir(gold, gold_options) as data:
        cls = _path_or_rows(classes, s, "classes", nested=True)
        opts = SCORE_TDE.options.build({**values, "data_dir": data, "class_file": cls, "exp_dir": exp}, "score_tde")
        return run_options(SCORE_TDE, opts)


@declared(SCORE_SEGMENTATION, fixed=("data_dir", "segmentation", "exp_dir"))
def score_segmentation(gold: Any, segmentation: Any, *, exp_dir: str | os.PathLike | None = None,
                       gold_options: Mapping[str, Any] | None = None, **options: Any) -> dict:
    """steps/score_segmentation.sh. segmentation: a class file, an interval file, a vqwordseg
    intervals/ dir, rows [(utt, onset, offset[, label]), ...] or classes [[(file, onset,
    offset), ...], ...]; gold as score_tde's."""
    if isinstance(segmentation, Mapping) or segmentation is None:
        raise TypeError(f"segmentation: expected a path, rows [(utt, onset, offset[, label]), ...] or classes "
                        f"[[(file, onset, offset), ...], ...], got {type(segmentation).__name__}")
    exp = _exp(exp_dir)
    with api_inputs.scratch() as s, _gold_dir(gold, gold_options) as data:
        seg = _path_or_rows(segmentation, s, "segmentation", nested=None)
        opts = build_options(SCORE_SEGMENTATION.options, options, "score_segmentation", data_dir=data,
                             segmentation=seg, exp_dir=exp)
        return run_options(SCORE_SEGMENTATION, opts)


def _units_text(units: Mapping[str, Any]) -> tuple[str, list[str]]:
    """{utterance: sequence of ints} as a Kaldi text archive (keys in order), with each line's row name."""
    lines, where = [], []
    for key, seq in units.items():
        if not isinstance(key, str) or not key or any(c.isspace() for c in key):
            raise InputError(f"units: utterance {key!r}: expected a non-empty string without spaces")
        values = [int(x) for x in (seq.tolist() if hasattr(seq, "tolist") else seq)]
        lines.append(key + "".join(f" {v}" for v in values) + "\n")
        where.append(f"units[{key!r}]")
    return "".join(lines), where


@declared(SCORE_UNITS, fixed=("data_dir", "units", "exp_dir"))
def score_units(gold: Any, units: Any, *, exp_dir: str | os.PathLike | None = None,
                gold_options: Mapping[str, Any] | None = None, **options: Any) -> dict:
    """steps/score_units.sh (discophon 0.2.0's definitions; compat="fairseq":
    measure_teacher_quality.py's numbers and its entropies, mutual information and segment
    lengths). gold: a prepared data dir, prepare_gold(...) or what
    prepare_gold reads; units: a path (Kaldi text or binary archive, discophon .jsonl, a dir of
    .npy) or {utterance: [unit ids]}."""
    exp = _exp(exp_dir)
    with api_inputs.scratch() as s, _gold_dir(gold, gold_options) as data:
        if isinstance(units, Mapping):
            text, where = _units_text(units)
            path = s.write("units.txt", text, where)
            options = {**options, "units_format": "text"}
        else:
            path = _path(units, "units")
        opts = build_options(SCORE_UNITS.options, options, "score_units", data_dir=data, units=path, exp_dir=exp)
        return run_options(SCORE_UNITS, opts)


@declared(SCORE_DISCOPHON, fixed=("dataset", "predictions", "exp_dir"))
def score_discophon(dataset: str | os.PathLike, predictions: str | os.PathLike, *,
                    exp_dir: str | os.PathLike | None = None, **options: Any) -> dict:
    """steps/score_discophon.sh, as discophon 0.2.0's `benchmark_discovery`: the mapping scores/scores.json holds (<code>_<split>_pnmi, _per,
    _f1, _r_val of every pair), plus "scores_jsonl": discophon's rows as a list of dicts. With
    exp_dir= the files are written there (scores.jsonl whole, scores/, details/discophon/)."""
    opts = build_options(SCORE_DISCOPHON.options, options, "score_discophon", dataset=_path(dataset, "dataset"),
                         predictions=_path(predictions, "predictions"), exp_dir=_exp(exp_dir))
    return run_options(SCORE_DISCOPHON, opts)


@declared(SCORE_TEXT_SEGMENTATION, fixed=("gold", "segmented", "exp_dir"))
def score_text_segmentation(gold_text: str | os.PathLike, segmented_text: str | os.PathLike, *,
                            exp_dir: str | os.PathLike | None = None, **options: Any) -> dict:
    """steps/score_text_segmentation.sh: the mapping scores/scores.json holds
    (text_token_fscore, text_boundary_noedge_fscore, ...), plus wordseg-eval's printed lines
    under "wordseg_eval"."""
    opts = build_options(SCORE_TEXT_SEGMENTATION.options, options, "score_text_segmentation",
                         gold=_path(gold_text, "gold_text"), segmented=_path(segmented_text, "segmented_text"),
                         exp_dir=_exp(exp_dir))
    return run_options(SCORE_TEXT_SEGMENTATION, opts)


@declared(EXPORT_TEXT, fixed=("data_dir", "out_dir"))
def export_text(data_dir: str | os.PathLike, out_dir: str | os.PathLike, **options: Any) -> dict:
    """utils/export_text.sh: writes <out_dir>/gold.txt, prepared.txt and utt_phones (whole or
    not at all). Returns {"utterances": n, "without_words": utterances left out, "gold": path,
    "prepared": path, "utt_phones": path}."""
    return run_task(EXPORT_TEXT, build_options(EXPORT_TEXT.options, options, "export_text",
                                               data_dir=_path(data_dir, "data_dir"), out_dir=_path(out_dir, "out_dir")))


@declared(TEXT_TO_TIMES, fixed=("export_dir", "segmented", "out_dir"))
def text_to_times(export_dir: str | os.PathLike, segmented: str | os.PathLike, out_dir: str | os.PathLike,
                  **options: Any) -> dict:
    """utils/text_to_times.sh, through the gold phones of export_dir (written by export_text):
    writes <out_dir>/intervals (for score_segmentation) and <out_dir>/classes (for score_tde),
    whole or not at all. Returns {"words": n, "intervals": path, "classes": path}."""
    return run_task(TEXT_TO_TIMES, build_options(
        TEXT_TO_TIMES.options, options, "text_to_times", export_dir=_path(export_dir, "export_dir"),
        segmented=_path(segmented, "segmented"), out_dir=_path(out_dir, "out_dir")))


@declared(SCORE_STD, fixed=("kws_dir", "detections", "exp_dir"))
def score_std(kws_dir: str | os.PathLike, detections: str | os.PathLike, *,
              exp_dir: str | os.PathLike | None = None, **options: Any) -> dict:
    """steps/score_std.sh: ATWV, MTWV, OTWV, Cnxe, ...; the mapping scores/scores.json holds. A
    comma-list option may be a list (breakdown=["ngram", "freq"])."""
    opts = build_options(SCORE_STD.options, options, "score_std", kws_dir=_path(kws_dir, "kws_dir"),
                         detections=_path(detections, "detections"), exp_dir=_exp(exp_dir))
    return run_options(SCORE_STD, opts)


@declared(SCORE_QUESST, fixed=("kws_dir", "detections", "exp_dir"))
def score_quesst(kws_dir: str | os.PathLike, detections: str | os.PathLike, *,
                 exp_dir: str | os.PathLike | None = None, **options: Any) -> dict:
    """steps/score_quesst.sh: the mapping scores/scores.json holds (act_twv, max_twv, act_cnxe,
    min_cnxe, ...)."""
    opts = build_options(SCORE_QUESST.options, options, "score_quesst", kws_dir=_path(kws_dir, "kws_dir"),
                         detections=_path(detections, "detections"), exp_dir=_exp(exp_dir))
    return run_options(SCORE_QUESST, opts)


@declared(SCORE_ZRC_SUBMISSION, fixed=("submission_dir", "init"))
def score_zrc_submission(submission_dir: str | os.PathLike, **options: Any) -> dict:
    """steps/score_zrc_submission.sh, as zrc 0.9.4 scores it: writes <submission-dir>/scores/
    (scores.json, leaderboard.json, termeval/<lang>/) and returns the content of its scores.json
    (zrc's file: one block per language). `languages` may be a list."""
    opts = build_options(SCORE_ZRC_SUBMISSION.options, options, "score_zrc_submission",
                         submission_dir=_path(submission_dir, "submission_dir"))
    with _gold_memo():
        return run_task(SCORE_ZRC_SUBMISSION, opts)["scores"]


def _path(x: Any, name: str) -> str:
    if not isinstance(x, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {type(x).__name__}")
    return os.fspath(x)


@declared(SCORE_RESOURCES, fixed=("reference", "exp_dir"))
def score_resources(reference: str | os.PathLike, exp_dir: str | os.PathLike | None = None,
                    **options: Any) -> dict:
    """steps/score_resources.sh. reference: the kws dir, ECF or reco2dur that gives T_audio.
    exp_dir: holds the measured phases (resources/{index,search}, utils/measure_resources.sh)
    and gets scores/resources; without it the phases come from resources_file= and nothing is
    written."""
    opts = build_options(SCORE_RESOURCES.options, options, "score_resources", reference=_path(reference, "reference"),
                         exp_dir=_exp(exp_dir))
    return run_options(SCORE_RESOURCES, opts)


@declared(PREPARE_KWS, fixed=("data_dir", "kws_dir"))
def prepare_kws(data_dir: str | os.PathLike, kws_dir: str | os.PathLike, **options: Any) -> dict:
    """steps/prepare_kws.sh (keywords= or kwlist= is required), written whole into kws_dir.
    Returns what it found: n_keywords, n_occurrences, n_utterances, trials (the searched seconds
    as F4DE counts them) and no_occurrence (keywords that never occur)."""
    return run_task(PREPARE_KWS, build_options(PREPARE_KWS.options, options, "prepare_kws",
                                               data_dir=_path(data_dir, "data_dir"), kws_dir=_path(kws_dir, "kws_dir")))


@declared(COMPARE_SYSTEMS, fixed=("systems", "out_dir", "dirs"))
def compare_systems(systems: Sequence[str | os.PathLike], *, out_dir: str | os.PathLike | None = None,
                    **options: Any) -> dict:
    """steps/compare_systems.sh, each system with the first: the content of
    <out-dir>/scores/compare.json. With out_dir= its files are written there (scores/compare,
    scores/compare.json, RESULTS.compare.md, report.html unless report=False and, unless
    plot=False, the forest plot); without it nothing is written."""
    dirs = tuple(api_inputs.system_list(systems))
    if "plot" in options and isinstance(options["plot"], bool):
        options = {**options, "plot": "true" if options["plot"] else "false"}
    opts = build_options(COMPARE_SYSTEMS.options, options, "compare_systems", systems=dirs,
                         out_dir=_exp(out_dir, "out_dir"))
    with contextlib.redirect_stdout(io.StringIO()):
        return run_task(COMPARE_SYSTEMS, opts)


@declared(PREPARE_CLASSES, fixed=("data_dir", "class_file", "exp_dir"))
def prepare_classes(data_dir: str | os.PathLike, class_file: str | os.PathLike, exp_dir: str | os.PathLike,
                    **options: Any) -> dict:
    """steps/prepare_classes.sh: writes <exp_dir>/classes/ and scores/prepare (scores.json
    updated), whole or not at all. Returns {"classes_dir": path, the counts scores/prepare holds
    (classes_read, fragments_written, ...), "notes": the notes the step prints, "format": the
    file's format}."""
    return run_task(PREPARE_CLASSES, build_options(
        PREPARE_CLASSES.options, options, "prepare_classes", data_dir=_path(data_dir, "data_dir"),
        class_file=_path(class_file, "class_file"), exp_dir=_path(exp_dir, "exp_dir")))


@declared(VALIDATE_ALIGNMENT_DIR, fixed=("data_dir",))
def validate_alignment_dir(data_dir: str | os.PathLike, **options: Any) -> dict:
    """utils/validate_alignment_dir.sh: the first problem raises InputError naming the file and
    line; otherwise returns what it found: {"files", "speakers", "phones", "words", "summary":
    the line the step prints}."""
    return run_task(VALIDATE_ALIGNMENT_DIR, build_options(VALIDATE_ALIGNMENT_DIR.options, options,
                                                          "validate_alignment_dir", data_dir=_path(data_dir, "data_dir")))


@declared(EXPORT_ZR, fixed=("data_dir", "out_phn", "out_wrd"))
def export_zr(data_dir: str | os.PathLike, phn: str | os.PathLike, wrd: str | os.PathLike, **options: Any) -> dict:
    """utils/export_zr.sh. Returns {"phones": n, "words": n, "phn": path, "wrd": path}."""
    return run_task(EXPORT_ZR, build_options(EXPORT_ZR.options, options, "export_zr",
                                             data_dir=_path(data_dir, "data_dir"), out_phn=_path(phn, "phn"),
                                             out_wrd=_path(wrd, "wrd")))


@declared(MEASURE_RESOURCES, fixed=("exp_dir", "phase", "command"))
def measure_resources(exp_dir: str | os.PathLike, phase: str, command: Sequence[str | os.PathLike],
                      **options: Any) -> dict:
    """utils/measure_resources.sh: run `command` (a list of arguments, no shell), write
    <exp_dir>/resources/<phase> (phase: index or search) and return the values it holds
    (exit_status among them: a failing command is measured, not raised; with append=True the
    phase's runs added up)."""
    if not isinstance(phase, str):
        raise TypeError(f"measure_resources: phase must be str, got {type(phase).__name__} {phase!r}")
    if isinstance(command, (str, bytes, os.PathLike)) or not isinstance(command, Sequence) or not all(
            isinstance(x, (str, os.PathLike)) for x in command):
        raise TypeError(f"measure_resources: command must be a list of arguments (str), got "
                        f"{type(command).__name__} {command!r}")
    opts = build_options(MEASURE_RESOURCES.options, options, "measure_resources", exp_dir=_path(exp_dir, "exp_dir"),
                         phase=phase, command=tuple(os.fspath(x) for x in command))
    res = run_task(MEASURE_RESOURCES, opts)
    return {k: v for k, v in res.items() if k not in ("this_run", "path")}


def _summary_options(exp_roots: Any, options: Mapping[str, Any], where: str, **fixed: Any) -> SummarizeOptions:
    """SummarizeOptions of an API call: exp_roots one path or a list of paths."""
    roots = [exp_roots] if isinstance(exp_roots, (str, os.PathLike)) else exp_roots
    if not isinstance(roots, Sequence) or isinstance(roots, bytes):
        raise TypeError(f"{where}: exp_roots must be a path or a list of paths, got {type(exp_roots).__name__}")
    roots = tuple(_path(x, f"exp_roots[{i}]") for i, x in enumerate(roots))
    if not roots:
        raise InputError(f"{where}: exp_roots: give at least one directory")
    if isinstance(options.get("metrics"), (list, tuple)):       # metrics=["ned", "coverage"]
        options = {**options, "metrics": ",".join(map(str, options["metrics"]))}
    return build_options(SummarizeOptions, options, where, exp_roots=roots, **fixed)


@declared(SUMMARIZE_SCORES, fixed=("exp_roots", "out"))
def summarize_scores(exp_roots: str | os.PathLike | Sequence[str | os.PathLike], *,
                     out: str | os.PathLike | None = None, **options: Any) -> list[dict]:
    """utils/summarize_scores.sh's tables over every scores/scores.json below the exp roots (one
    path or a list): returns their rows, in the file's order, as flat dicts {"table": title,
    "system": name, <metric>: value (None where the system has none), and <metric>_ci_lo /
    <metric>_ci_hi where it has an interval}. With out= the table is written there (whole;
    format= md by default); without it nothing is written."""
    opts = _summary_options(exp_roots, options, "summarize_scores", out=None if out is None else _path(out, "out"))
    return run_task(SUMMARIZE_SCORES, opts)["rows"]


@declared(SUMMARIZE_SCORES, fixed=("exp_roots", "out"))
def results_table(exp_roots: str | os.PathLike | Sequence[str | os.PathLike], format: str = "md",
                  **options: Any) -> str:
    """The text utils/summarize_scores.sh --format <format> writes (md, csv, tsv, latex, json, html)
    over every scores/scores.json below the exp roots (one path or a list); nothing is written.
    e.g. termeval.results_table("exp", format="latex", percent=True, bold_best=True)."""
    opts = _summary_options(exp_roots, options, "results_table", format=format)
    return results_formats.render(results_summary.collect(opts.roots), opts)


@declared(SUMMARIZE_SCORES, fixed=("exp_roots", "out", "format", "bold_best"))
def load_results(exp_roots: str | os.PathLike | Sequence[str | os.PathLike], **options: Any) -> list[dict]:
    """The rows of the summary tables as flat dicts, one per table and system (pandas:
    pandas.DataFrame(termeval.load_results("exp"))): {"table", "system", "data" (the data
    dir's short name or None), "data_id" (the content digest of its gold), each metric's value
    (None where the system has none), <metric>_lo / <metric>_hi where a system of the table has
    an interval, "warnings" (the warning lines of its scores, '' when none)}; the same rows as
    utils/summarize_scores.sh --format csv. Nothing is written."""
    opts = _summary_options(exp_roots, options, "load_results")
    return results_formats.flat(results_summary.collect(opts.roots), opts)
