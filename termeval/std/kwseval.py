"""What F4DE's KWSEval writes, from one run of the STD engine (utils/KWSEval, `termeval
kwseval`; the command line is termeval/bin/kwseval.py, the mapping docs/std-kaldi-compat.md
"KWSEval's command line").

The scores are the engine's (score_std's stage run whole by the one plan, termeval/run/plan.py
compute, on the StdOptions the command line maps to, with KWSEval's conditions added to its
context: `score`); this module only names and lays out KWSEval's outputs (KWSEval.pl 3.5.0):
- the file root `-f R`: `R` ending in a name after a `/` gets a `.` (`dir/p` -> `dir/p.sum.txt`),
  `dir/` gives `dir/sum.txt`, a bare name `p` gives `psum.txt` (KWSEval's rule, kept); `-` prints
  the reports on stdout, the alignment then goes to `./alignment.csv` and the DET files to `./dets/`;
- reports in KWSEval's order: `sum` (-o), `bsum` (-b), `cond.sum` (-O), `cond.bsum` (-B), each as
  `.csv`, `.txt` then `.html` (-y), announced by `Summary Report: <file root>sum` lines on stdout;
- `alignment.csv` (-c), the DET files `dets/sum.<DecisionID>.dat.1/.dat.2/.png/.thresh.png` and
  `dets/sum.png` (-d, drawn with the summary report -o, as KWSEval does).
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
from termeval.core.warn import warn
from termeval.std.options import StdOptions


@dataclass(frozen=True)
class Request:
    """What KWSEval was asked to write (the StdOptions say how to score)."""
    file_root: str
    summary: bool = False            # -o
    block: bool = False              # -b
    cond_summary: bool = False       # -O
    cond_block: bool = False         # -B
    types: tuple[str, ...] = ("TXT",)   # -y (TXT without -y: KWSEval's default list is replaced)
    alignment: bool = False          # -c
    det: bool = False                # -d
    segment: bool = False            # -g
    system_title: str = ""           # -I
    global_measures: tuple[str, ...] = ()   # -zG
    queries: tuple[str, ...] = ()     # -q A[:regex=RE] (one condition per value)
    sources: tuple[str, ...] = ()     # -Y NAME:TYPES (one condition)
    cost: str = "0.1000"             # -k -K -p -n as given (KWSEval prints them so)
    value: str = "1"
    ptarg: str = "0.0001"
    trials_per_sec: str = "1"
    articulated: bool = False        # -a: F4DE's articulated DET points


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
            for t in ("csv", "txt", "html"):
                if t.upper() in req.types:
                    out[f"{name}.{t}"] = root + f"{name}.{t}"
    if req.alignment:
        out["alignment.csv"] = base + "alignment.csv"
    if req.det and req.summary:     # KWSEval draws its DETs with the summary report (-o) only
        label = "Segment" if req.segment else "Occurrence"
        for k in (1, 2):
            out[f"dets/sum.dat.{k}"] = base + f"dets/sum.{label}.dat.{k}"
    return out


def score(opts: StdOptions, engine: Callable[..., tuple], queries: tuple = (), sources: tuple = ()):
    """(context, StdResult, warnings) of the engine for these options, one process, all terms
    (no result when the ECF excerpts -N keeps have no duration): `engine(opts, adjust)` ->
    (context, StdResult) is score_std's stage run whole (termeval.run.plan.compute), `adjust`
    what KWSEval adds to the loaded context (its conditions).
    KWSEval's conditions: each `-q A[:regex=RE]` gives one condition per value of attribute A
    that RE matches (score.term_conditions, `--term-attr A:RE --term-attr-mode per-value`),
    each `-Y NAME:TYPES` one condition (score.source_type_condition, `--source-type
    NAME:TYPES`); the result's `conditions` then holds each scored as its own run, with the
    terms F4DE puts in it (groups)."""
    from termeval.std.score import source_type_condition, term_conditions  # numpy: not for the usage
    from termeval.std.kwseval_groups import (group, group_duration, has_trials, main_buckets,  # numpy: idem
                                             zero_group_offender)
    from termeval.std.kwseval_order import processing_order     # idem
    from termeval.std.ecf import read_ecf      # idem
    if not group_duration(read_ecf(opts.ecf), None, opts.file_channels) > 0:
        return None, None, []           # F4DE's trials refuse an empty search (-N), once aligned
    sourced = [source_type_condition(y if ":" in y else f"{y}:{y}") for y in sources]
    empty: list = []

    def adjust(ctx: Any) -> None:
        conds = [c for q in queries for c in _term_conditions(ctx.kws.terms, q, term_conditions)]
        # a -Y group whose source types have no ECF duration gets nothing (F4DE warns per empty term)
        empty[:] = [c for c in sourced if not group_duration(ctx.kws.ecf, c.source_types, opts.file_channels) > 0]
        conds += [c for c in sourced if c not in empty]
        if queries or sources:
            ctx.conditions = sorted(conds, key=lambda c: c.name)
    ctx, res = engine(opts, adjust)
    untried = ~has_trials(res)
    if res.system_terms is not None:     # -j: a term without a block is never processed
        untried &= res.system_terms
    order = processing_order(res.terms.ids, ctx.prep.dets.blocks, res.system_terms is not None
                             and opts.alignment != "segment")
    # under -N, a trial can reach a -Y group without duration: F4DE dies there (write())
    stop = zero_group_offender(res, ctx.kws, ctx.prep.dets, empty, order) \
        if opts.file_channels and opts.alignment != "segment" else None
    done = order[:order.index(stop[0])] if stop else order
    pos = {t: i for i, t in enumerate(res.terms.ids)}
    warnings = [f"[Warning] No ECF segments available for group : {c.name}, (group duration is 0)"
                for t in done if untried[pos[t]] for c in sorted(empty, key=lambda c: c.name)]
    if opts.alignment == "segment":
        # KWSSegAlign gives a term without any trial an empty block in every -Y group after
        # aligning all terms (none with -j): a group without segments then dies
        warnings = []
        stop = ("", []) if empty and untried.any() and res.system_terms is None else None
    res.extra["kwseval_stop"] = stop
    if sourced and opts.alignment != "segment":     # the -Y groups' TotDur as calcTotalDur sums it
        size = main_buckets(ctx.kws.ecf, opts.file_channels)
        for name, r, _ in res.conditions:
            c = next((c for c in sourced if c.name == name), None)
            if c is not None:
                r.extra["t_audio"] = group_duration(ctx.kws.ecf, c.source_types, opts.file_channels, size)
    if res.conditions:
        res.conditions = [g for g in (group(c, untried, sourced) for c in res.conditions) if g[2].any()]
    return ctx, res, warnings


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


def _texts(req: Request, res, dets) -> list[tuple[str, str, str]]:
    """(output name, announcement line, text) of each requested report, in KWSEval's order
    (each as .csv then .txt); a conditional report without conditions is KWSEval's note line."""
    from termeval.std.kwseval_tables import Echo, report_texts  # numpy: not for KWSEval's usage text
    # -zG MAP/MAPpct: the Global Measures columns; Optimum/Supremum: their analysis columns
    gm = req.global_measures
    echo = Echo(cost=req.cost, value=req.value, ptarg=req.ptarg, trials_per_sec=req.trials_per_sec,
                articulated=req.articulated, optimum="Optimum" in gm, supremum="Supremum" in gm,
                measures=tuple(m for m in ("MAP", "MAPpct") if m in gm))
    root = root_of(req.file_root)
    det_root = ("" if req.file_root == "-" else root) + "dets/sum"
    texts, main = report_texts(res, dets, echo, req.types, res.conditions or [], det_root, req.det, req.segment,
                               (req.summary, req.block, req.cond_summary, req.cond_block))
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
        files = [f"{name}.{t}" for t in ("csv", "txt", "html") if f"{name}.{t}" in texts]
        out += [(f, line if k == 0 else "", texts[f]) for k, f in enumerate(files)]
    return out, main


def write(req: Request, opts: StdOptions, say: Callable[[str], None], engine: Callable[..., tuple],
          stdout: IO | None = None) -> None:
    """Score and write KWSEval's outputs; `say` prints KWSEval's progress lines; `engine(opts,
    adjust)` -> (context, StdResult): score_std's stage run whole (termeval.run.plan.compute)."""
    files = paths(req)
    check_outputs("KWSEval", [opts.ecf, opts.rttm, opts.termlist, opts.detections], files.values(),
                  dirs={d for f in files.values() for d in _parents(f)}, files=files.values())
    say("Performing Segment Alignment" if req.segment else "Performing Occurrence Alignment")
    ctx, res, warnings = score(opts, engine, req.queries, req.sources)
    if res is None:                        # F4DE's TrialsTWV refuses an empty search (-N)
        if req.alignment:                  # after KWSAlignment opened alignment.csv
            from termeval.std.kwseval_align import HEADER   # numpy: not for KWSEval's usage text
            with all_or_none([files["alignment.csv"]]) as tmp:
                _put(tmp[files["alignment.csv"]], HEADER)
        # TrialsDiscreteTWV counts the segments -N keeps, TrialsTWV the seconds
        raise InputError("parameter 'TotTrials' must > 0" if req.segment else "parameter 'TotDur' must > 0")
    for w in res.warnings:                 # the engine's (score_std's Report would print them)
        warn(None, w)
    for w in warnings:
        say(w)
    if res.extra["kwseval_stop"]:      # a trial for a -Y group without duration: F4DE's trials die
        if req.alignment:              # alignment.csv has the lines written until then
            with all_or_none([files["alignment.csv"]]) as tmp:
                _put(tmp[files["alignment.csv"]], _alignment(res, ctx.prep.kws, ctx.prep.dets, opts))
        raise InputError("parameter 'TotTrials' must > 0" if req.segment else "parameter 'TotDur' must > 0")
    say("Computing requested DET curves and reports")
    if req.articulated:
        say("Building Articulated DETs")
    texts, main = _texts(req, res, ctx.prep.dets)
    rendered = {name for name, _, _ in texts}
    files = {k: v for k, v in files.items()
             if k in rendered or k == "alignment.csv" or (k.startswith("dets/") and main.png)}
    with all_or_none(list(files.values())) as tmp:
        for name, line, text in texts:
            if line:
                say(line)
            if not name:
                continue
            if req.file_root == "-":
                _print(stdout or sys.stdout, text, _report_encoding(name, text))
            else:
                _put(tmp[files[name]], text, _report_encoding(name, text))
                say(f"Wrote: {files[name]}")
        if req.alignment:
            _put(tmp[files["alignment.csv"]], _alignment(res, ctx.prep.kws, ctx.prep.dets, opts))
        if "dets/sum.dat.1" in files:
            from termeval.std.kwseval_det import det_files    # only with -d
            for name, text in det_files(main, score_texts(opts.detections)).items():
                _put(tmp[files[f"dets/sum.{name}"]], text)
    if req.det and not req.summary:        # KWSEval makes the directory, nothing draws in it
        _mkdir(("" if req.file_root == "-" else root_of(req.file_root)) + "dets")
    if req.det and req.summary:
        from termeval.std.kwseval_det import det_pngs  # matplotlib: only with -d
        prefix = paths(req)["dets/sum.dat.1"][:-len(".dat.1")]
        det_pngs(prefix, prefix.rsplit(".", 1)[0], main)


def _alignment(res, kws, dets, opts: StdOptions) -> str:
    """alignment.csv's text (termeval.std.kwseval_align), the times as the inputs wrote them."""
    from termeval.std import kwseval_align as ka      # numpy: not for KWSEval's usage text
    from termeval.std.textnorm import parse_modes    # numpy: not for KWSEval's usage text
    if opts.alignment == "segment":
        refs = ka.segment_begin_texts(kws, opts.ecf)
    else:
        refs = ka.lexeme_begin_texts(kws.rttm_path, kws.lexemes, parse_modes(opts.term_normalization)) \
            if kws.rttm_path else None
        if refs is not None and kws.lexemes is not None and len(refs) != len(kws.lexemes):
            refs = None
    return ka.alignment_csv(res, kws, dets, ka.kwslist_texts(opts.detections, len(dets)), refs)


def score_texts(path: str) -> dict:
    """{score value: its text} of a KWSLIST (the first text of each value): F4DE prints scores
    as it read them (`1.0`)."""
    out: dict = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for m in re.finditer(r'\sscore="([^"]*)"', f.read()):
            try:
                out.setdefault(float(m.group(1)), m.group(1))
            except ValueError:
                pass
    return out


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


def _mkdir(path: str) -> None:
    """KWSEval's mkdir of its dets/ directory (not recursive; an existing one is fine)."""
    try:
        os.mkdir(path)
    except OSError:
        pass


def _report_encoding(name: str, text: str) -> str:
    """How KWSEval writes a report: `.txt` and `.html` through the kwlist's encoding layer (UTF-8),
    `.csv` without a layer, so Perl prints a text whose characters all fit a byte as Latin-1 bytes
    (`café` -> `caf\\xe9`). A wider character makes F4DE die (`Wide character in print`,
    docs/std-kaldi-compat.md): termeval then writes UTF-8."""
    if name.endswith(".csv") and not text.isascii():
        try:
            text.encode("latin-1")
            return "latin-1"
        except UnicodeEncodeError:
            pass
    return "utf-8"


def _put(path: str, text: str, encoding: str = "utf-8") -> None:
    with open(path, "w", encoding=encoding) as f:
        f.write(text)


def _print(out: IO, text: str, encoding: str) -> None:
    """A report on stdout (`-f -`), as bytes in `encoding` where stdout has a byte buffer."""
    if encoding == "utf-8" or not hasattr(out, "buffer"):
        out.write(text)
        return
    out.flush()
    out.buffer.write(text.encode(encoding))
    out.buffer.flush()


def check_inputs(opts: StdOptions, say: Callable[[str], None]) -> None:
    """KWSEval's MMisc::check_file_r on each input and its `Loading ...` line, in its order."""
    for what, line, path in (("ECF", "ECF", opts.ecf), ("STD", "KWSList File", opts.detections),
                             ("TERM", "KWList File", opts.termlist), ("RTTM", "RTTM File", opts.rttm)):
        if not os.path.exists(path):
            raise InputError(f"Problem with {what} File ({path}): file does not exist")
        if not os.path.isfile(path):
            raise InputError(f"Problem with {what} File ({path}): is not a file")
        say(f"Loading {line} {path}")
