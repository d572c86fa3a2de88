"""What F4DE's KWSEval writes, from one run of the STD engine (utils/KWSEval, `termeval
kwseval`; the command line is termeval/bin/kwseval.py, the mapping docs/std-kaldi-compat.md
"KWSEval's command line").

The scores are the engine's (score_std's stage run whole by the one plan, termeval/run/plan.py
compute, on the StdOptions the command line maps to, with KWSEval's conditions added to its
context: `conditions`); this module only names and lays out KWSEval's outputs (KWSEval.pl 3.5.0):
- the file root `-f R`: `R` ending in a name after a `/` gets a `.` (`dir/p` -> `dir/p.sum.txt`),
  `dir/` gives `dir/sum.txt`, a bare name `p` gives `psum.txt` (KWSEval's rule, kept); `-` prints
  the reports on stdout, the alignment then goes to `./alignment.csv` and the DET files to `./dets/`;
- reports in KWSEval's order: `sum` (-o), `bsum` (-b), `cond.sum` (-O), `cond.bsum` (-B), each as
  `.csv` then `.txt` (-y), announced by `Summary Report: <file root>sum` lines on stdout;
- `alignment.csv` (-c), DET points `dets/sum.Occurrence.dat.1/.dat.2` (-d).
Every file of a run is published together (temporary siblings renamed at the end), after the
output guard refused any output that is an input.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import IO, Any, Callable

from termeval.core.errors import InputError
from termeval.core.guard import check_outputs
from termeval.core.publish import all_or_none
from termeval.std import f4de_reports
from termeval.std.options import StdOptions
from termeval.std.report import write_alignment_csv


@dataclass(frozen=True)
class Request:
    """What KWSEval was asked to write (the StdOptions say how to score)."""
    file_root: str
    summary: bool = False            # -o
    block: bool = False              # -b
    cond_summary: bool = False       # -O
    cond_block: bool = False         # -B
    types: tuple[str, ...] = ("TXT",)   # -y (TXT always, as KWSEval's default list is appended to)
    alignment: bool = False          # -c
    det: bool = False                # -d
    segment: bool = False            # -g
    system_title: str = ""           # -I
    global_measures: tuple[str, ...] = ()   # -zG
    queries: tuple[str, ...] = ()     # -q A[:regex=RE] (one condition per value)
    sources: tuple[str, ...] = ()     # -Y NAME:TYPES (one condition)


def root_of(file_root: str) -> str:
    """KWSEval's file root: a trailing name after a `/` gets a `.`."""
    return file_root + "." if re.search(r"/[^/]+$", file_root) else file_root


def paths(req: Request) -> dict[str, str]:
    """{output name: path} of the files written (stdout reports are not files)."""
    root = root_of(req.file_root)
    stdout = req.file_root == "-"
    base = "" if stdout else root
    out: dict[str, str] = {}
    reports = [("sum", req.summary), ("bsum", req.block),
               ("cond.sum", req.cond_summary), ("cond.bsum", req.cond_block)]
    for name, on in reports:
        if on and not stdout:
            for t in ("csv", "txt"):
                if t.upper() in req.types:
                    out[f"{name}.{t}"] = root + f"{name}.{t}"
    if req.alignment:
        out["alignment.csv"] = base + "alignment.csv"
    if req.det:
        for k in (1, 2):
            out[f"dets/sum.Occurrence.dat.{k}"] = base + f"dets/sum.Occurrence.dat.{k}"
    return out


def conditions(queries: tuple = (), sources: tuple = ()) -> Callable[[Any], None]:
    """What KWSEval adds to the engine's loaded context: its conditions. Each `-q A[:regex=RE]`
    gives one condition per value of attribute A that RE matches (score.term_conditions,
    `--term-attr A:RE --term-attr-mode per-value`), each `-Y NAME:TYPES` one condition
    (score.source_type_condition, `--source-type NAME:TYPES`); the result's `conditions` then
    holds each scored as its own run."""
    def adjust(ctx: Any) -> None:
        from termeval.std.score import source_type_condition, term_conditions  # numpy: not for the usage
        conds = [c for q in queries for c in _term_conditions(ctx.kws.terms, q, term_conditions)]
        conds += [source_type_condition(y if ":" in y else f"{y}:{y}") for y in sources]
        if queries or sources:
            ctx.conditions = sorted(conds, key=lambda c: c.name)
    return adjust


def _term_conditions(terms, query: str, term_conditions: Callable) -> list:
    """The conditions of one -q; an attribute no term has, or a regex matching none of its
    values, gives none (F4DE groups nothing), not an error; a bad regex stays an error."""
    if query.partition(":")[0] not in {k for a in terms.attrs for k in a}:
        return []
    try:
        return term_conditions(terms, query)
    except InputError as e:
        if "matches no value" in e.message:
            return []
        raise


REPORTS = (("sum", "Summary Report"), ("bsum", "Block Summary Report"),
           ("cond.sum", "Conditional Summary Report"), ("cond.bsum", "Conditional Block Summary Report"))


def _texts(req: Request, res, opts: StdOptions) -> list[tuple[str, str, str]]:
    """(output name, announcement line, text) of each requested report, in KWSEval's order
    (each as .csv then .txt); a conditional report without conditions is KWSEval's note line."""
    fmt = "both" if "CSV" in req.types else "txt"
    # -zG MAP/MAPpct: the Global Measures columns (Optimum/Supremum go to dets/*.dat.2 only)
    measures = tuple(dict.fromkeys(m for m in req.global_measures if m in ("MAP", "MAPpct")))
    texts = f4de_reports.report_texts(res, res.conditions or None, opts.trials_per_sec, fmt, measures)
    root = root_of(req.file_root)
    shown = "-" if req.file_root == "-" else None
    asked = (req.summary, req.block, req.cond_summary, req.cond_block)
    out = []
    for (name, title), on in zip(REPORTS, asked):
        if not on:
            continue
        if name.startswith("cond") and not res.conditions:
            out.append(("", "  No Conditional Summary Report will be generated.  No conditional DET "
                            "Curves found", ""))
            continue
        line = f"{title}: {shown or root + name}"
        files = [f"{name}.{t}" for t in ("csv", "txt") if f"{name}.{t}" in texts]
        out += [(f, line if k == 0 else "", texts[f]) for k, f in enumerate(files)]
    return out


def write(req: Request, opts: StdOptions, say: Callable[[str], None], engine: Callable[..., tuple],
          stdout: IO | None = None) -> None:
    """Score and write KWSEval's outputs; `say` prints KWSEval's progress lines; `engine(opts,
    adjust)` -> (context, StdResult): score_std's stage run whole (termeval.run.plan.compute)."""
    files = paths(req)
    check_outputs("KWSEval", [opts.ecf, opts.rttm, opts.termlist, opts.detections], files.values(),
                  dirs={d for f in files.values() for d in _parents(f)})
    say("Performing Segment Alignment" if req.segment else "Performing Occurrence Alignment")
    ctx, res = engine(opts, conditions(req.queries, req.sources))
    say("Computing requested DET curves and reports")
    texts = _texts(req, res, opts)
    rendered = {name for name, _, _ in texts}
    files = {k: v for k, v in files.items() if k in rendered or k == "alignment.csv" or k.startswith("dets/")}
    with all_or_none(list(files.values())) as tmp:
        for name, line, text in texts:
            if line:
                say(line)
            if not name:
                continue
            if req.file_root == "-":
                (stdout or sys.stdout).write(text)
            else:
                _put(tmp[files[name]], text)
        if req.alignment:
            write_alignment_csv(tmp[files["alignment.csv"]], res, ctx.prep.kws, ctx.prep.dets)
        if req.det:
            from termeval.std.kwseval_det import det_files    # numpy DET points: only with -d
            for name, text in det_files(res, req.global_measures).items():
                _put(tmp[files[f"dets/sum.Occurrence.{name}"]], text)
    if req.det and res.twv.n_terms_with_targets > 0:
        _det_png(files["dets/sum.Occurrence.dat.1"][:-len(".dat.1")], res)


def _det_png(prefix: str, res) -> None:
    """<prefix>.png (and .pdf): the DET curve with its actual and maximum-TWV points
    (termeval.std.det; without matplotlib nothing is drawn, after one note)."""
    from termeval.std import det     # matplotlib: only with -d
    m, tw = res.metrics, res.twv
    det.plot_det(prefix, tw.det_pmiss, tw.det_pfa, res.beta, (m["p_fa"], m["p_miss"]),
                 (m["p_fa_at_mtwv"], m["p_miss_at_mtwv"]),
                 f"DET (ATWV {m['atwv']:.4f}, MTWV {m['mtwv']:.4f})")


def _parents(path: str) -> list[str]:
    """The directories a file's path needs, up to the first that exists (or is a file)."""
    out = []
    d = os.path.dirname(path)
    while d and d not in out:
        out.append(d)
        if os.path.lexists(d):
            break
        d = os.path.dirname(d)
    return out


def _put(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def check_inputs(opts: StdOptions, say: Callable[[str], None]) -> None:
    """KWSEval's MMisc::check_file_r on each input and its `Loading ...` line, in its order."""
    for what, line, path in (("ECF", "ECF", opts.ecf), ("STD", "KWSList File", opts.detections),
                             ("TERM", "KWList File", opts.termlist), ("RTTM", "RTTM File", opts.rttm)):
        if not os.path.exists(path):
            raise InputError(f"Problem with {what} File ({path}): file does not exist")
        if not os.path.isfile(path):
            raise InputError(f"Problem with {what} File ({path}): is not a file")
        say(f"Loading {line} {path}")
