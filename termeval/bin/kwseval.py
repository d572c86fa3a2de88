#!/usr/bin/env python3
"""NIST F4DE KWSEval's command line over termeval's STD engine: utils/KWSEval, `termeval kwseval`.

Usage: KWSEval -e ecffile -r rttmfile -s kwsfile -t kwfile -f fileroot [ OPTIONS ]

Options as KWSEval.pl 3.5.0 parses them (Perl Getopt::Long, `auto_abbrev no_ignore_case`): one
or two dashes, any unique prefix (`-csv` = `--csv-of-alignment`, `-inc`, `-zG`), case counts
(`-o` summary, `-O` conditional summary). Each maps onto an option of steps/score_std.sh (the
one engine, `--compat f4de --preset nist2006`); docs/std-kaldi-compat.md "KWSEval's command
line" has the table.
  -e -r -s -t      --ecf --rttm <detections> --termlist
  -f R             file root: `dir/` -> dir/sum.txt, `dir/p` -> dir/p.sum.txt, `-` -> stdout
  -o -b -O -B      sum.txt, bsum.txt, cond.sum.txt, cond.bsum.txt (--f4de-reports)
  -c               alignment.csv (details/alignment.csv)     -d  dets/sum.Occurrence.dat.1/.2
  -y TXT|CSV       report types (TXT is always written, as KWSEval's default list is appended to)
  -p -k -K -n      --p-target, --c-fa (cost), --c-miss (value), --trials-per-sec
  -S -F            --tolerance, --find-threshold        -inc  --include-notarget-terms true
  -q 'A:regex=RE'  one condition per value of attribute A matching RE (--term-attr)
  -Y name:t1,t2    one condition over those ECF source types (--source-type)
  -g               segment-based alignment     -x charsplit|notASCII|deleteHyphens
  -j               --just-system-terms true: terms without a block in the system file are not scored
  -N F/C[,F/C..]   --file-channels: only the FILE/CHAN matching a regex (anchored, any case), also
                   TotDur (-g: only the segments of those file/channels)
  -I name          the system title of the reports        -zG Optimum|Supremum  .dat.2's columns
  -zG MAP|MAPpct   accepted: MAP is score_std's map_f4de (scores/std_operating)
  -a -X -C -i -P -D -m --zIsoRatioDAF --ExcludePNGFileFromTxtTable: accepted without effect, they
                   only change F4DE's drawing (articulated DETs, xmllint, DET files, iso-ratio lines,
                   threshold plots; KWSEval 3.5.0 itself ignores --ExcludePNGFileFromTxtTable)
  -T -G -w --ExcludeCountsFromReports --zincludeRowTotals: refused (`[ERROR] ... is not supported`,
                   exit 1): they change numbers or files and termeval has no engine option for them
Exit status 0, or 1 with KWSEval's `[ERROR] ...` line on stdout (a bad option: Getopt::Long's
line on stderr first).
"""
from __future__ import annotations

import errno
import os
import sys
from typing import Any, Sequence

from termeval.core.errors import InputError
from termeval.run.cli import run
from termeval.run.getopt_long import Parsed, getoptions, spec
from termeval.std.kwseval import Request, check_inputs, write
from termeval.std.options import StdOptions
from termeval.steps import SCORE_STD

# KWSEval.pl's GetOptions table (names, types, `@` lists), in its order
SPECS = tuple(spec(s) for s in (
    "ecffile=s", "rttmfile=s", "sysfile|stdfile=s", "termfile=s", "Find-threshold=f",
    "Similarity-threshold=f", "file-root=s", "osummary-report", "block-summary-report",
    "Osummary-conditional-report", "Block-summary-conditional-report", "Term=s@", "query=s@",
    "Group-by-targ", "Namefile=s@", "YSourcetype=s@", "gsegment-based-alignment", "iso-lines:s",
    "det-curve", "DET-conditional-curve", "Clean-DETs-folder", "csv-of-alignment",
    "ytypes-of-report-output=s@", "koefcorrect=f", "Koefincorrect=f", "number-trials-per-sec=f",
    "prob-of-term=f", "Pooled-DETs", "version", "help", "words-oov", "include-blocks-w-notargs",
    "just-system-terms", "ID-System=s", "xprefilterText=s@", "articlulatedDET", "XmllintBypass",
    "ExcludePNGFileFromTxtTable", "ExcludeCountsFromReports", "measureThreshPlots=s", "zIsoRatioDAF",
    "zincludeRowTotals", "zGlobalMeasures=s@"))
VERSION = "KWSEval (termeval) 3.5.0"
PREFILTERS = {"charsplit": "charsplit", "notascii": "notASCII", "deletehyphens": "deleteHyphens"}
# options of KWSEval that change numbers or files and that termeval refuses (docs/std-kaldi-compat.md)
REFUSED = {"Term": "-T (--Term)", "Group-by-targ": "-G (--Group-by-targ)", "words-oov": "-w (--words-oov)",
           "ExcludeCountsFromReports": "--ExcludeCountsFromReports", "zincludeRowTotals": "--zincludeRowTotals"}


class KwsevalParser:
    """KWSEval's parser: `parse_args(argv)` -> Parsed (Getopt::Long's values), `format_help()`."""
    prog = "KWSEval"

    def parse_args(self, argv: Sequence[str]) -> Parsed:
        return getoptions(SPECS, argv)

    def format_help(self) -> str:
        return __doc__.split("\n", 2)[2].strip() + "\n"


def get_parser() -> KwsevalParser:
    return KwsevalParser()


class Quit(Exception):
    """KWSEval's MMisc::error_quit: `[ERROR] <message>` on stdout, exit 1."""


def checks(v: dict) -> None:
    """KWSEval's checks after parsing, in its order (the `[ERROR]` messages are its own)."""
    if not v["file-root"]:
        raise Quit("Must include a file root")
    if not v["rttmfile"]:
        raise Quit("An RTTM file must be set")
    if not v["termfile"]:
        raise Quit("A KWList file must be set")
    have_reports = any(v[k] for k in ("osummary-report", "block-summary-report", "Osummary-conditional-report",
                                      "Block-summary-conditional-report", "csv-of-alignment",
                                      "DET-conditional-curve"))
    if have_reports and not v["ecffile"]:
        raise Quit("An ECF file must be set")
    if have_reports and not v["sysfile"]:
        raise Quit("An STDList file must be set")
    if sum(bool(v[k]) for k in ("YSourcetype", "Term", "query", "words-oov", "Group-by-targ")) > 1:
        raise Quit("Cannot specify more than one condition (-Y, -q, -T, -G) for the conditional report")
    for key, name in REFUSED.items():
        if v[key]:
            raise Quit(f"{name} is not supported by termeval's KWSEval (docs/std-kaldi-compat.md)")
    for f in v["xprefilterText"]:
        if f.lower() not in PREFILTERS:
            raise Quit(f"Error: -zprefilterText option /{f}/ not defined.  Aborting.")
    if v["measureThreshPlots"] and v["measureThreshPlots"] not in ("true", "trueWithSE"):
        raise Quit("Error: argument for -measureThreshPlots must be either (true|trueWithSE), not "
                   + v["measureThreshPlots"])
    for g in v["zGlobalMeasures"]:
        if g not in ("MAP", "MAPpct", "Optimum", "Supremum"):
            raise Quit(f"Error: Requested global measure /{g}/ not (MAP|MAPpct|Optimum|Supremum)")


def options_of(v: dict) -> StdOptions:
    """The engine's options for a KWSEval command line (the mapping of the module docstring)."""
    rttm = v["rttmfile"]
    kws_dir = os.path.dirname(rttm) or "."
    return StdOptions.build(dict(
        kws_dir=kws_dir, detections=v["sysfile"] or "", exp_dir=None, compat="f4de", preset="nist2006",
        ecf=v["ecffile"], rttm=rttm, termlist=v["termfile"],
        p_target=_or(v["prob-of-term"], 0.0001), c_fa=_or(v["koefcorrect"], 0.1),
        c_miss=_or(v["Koefincorrect"], 1.0), trials_per_sec=_or(v["number-trials-per-sec"], 1.0),
        tolerance=_or(v["Similarity-threshold"], 0.5), find_threshold=_or(v["Find-threshold"], 0.5),
        include_notarget_terms=bool(v["include-blocks-w-notargs"]), write_alignment=False, plots=False,
        breakdown="none",      # KWSEval writes no breakdown tables: none computed
        just_system_terms=bool(v["just-system-terms"]),
        # each -N value is one regex (KWSAlignment::filterByFileChan): its commas stay literal
        file_channels=",".join(n.replace(",", r"\x2c") for n in v["Namefile"] if n),
        alignment="segment" if v["gsegment-based-alignment"] else "occurrence",
        term_normalization=",".join(dict.fromkeys(PREFILTERS[x.lower()] for x in v["xprefilterText"]))),
        "KWSEval")


def _or(x, default):
    return default if x is None else x


def request_of(v: dict) -> Request:
    """What to write: KWSEval's file names and reports."""
    # Getopt::Long puts the -y values in a new list: TXT (KWSEval's default) only without -y
    types = tuple(t.upper() for t in v["ytypes-of-report-output"]) or ("TXT",)
    return Request(file_root=v["file-root"], summary=bool(v["osummary-report"]),
                   block=bool(v["block-summary-report"]), cond_summary=bool(v["Osummary-conditional-report"]),
                   cond_block=bool(v["Block-summary-conditional-report"]), types=tuple(dict.fromkeys(types)),
                   alignment=bool(v["csv-of-alignment"]), det=bool(v["det-curve"]),
                   segment=bool(v["gsegment-based-alignment"]), system_title=v["ID-System"] or "",
                   global_measures=tuple(v["zGlobalMeasures"]), queries=tuple(v["query"]),
                   sources=tuple(v["YSourcetype"]), articulated=bool(v["articlulatedDET"]),
                   **{k: v[o].text for k, o in (("cost", "koefcorrect"), ("value", "Koefincorrect"),
                                                ("ptarg", "prob-of-term"), ("trials_per_sec", "number-trials-per-sec"))
                      if v[o] is not None})


def engine(opts: StdOptions, adjust: Any) -> tuple:
    """score_std's stage on the KWSEval options, whole, through the one plan (no report)."""
    from termeval.run import plan      # why: numpy, defusedxml: not for KWSEval's usage text
    return plan.compute(SCORE_STD, opts, adjust)


def say(line: str) -> None:
    print(line, flush=True)


# how KWSEval names a file system problem in its `[ERROR]` line
_WRITE_PROBLEMS = {errno.EROFS: "read-only file system", errno.ENOSPC: "no space left on device",
                   errno.EDQUOT: "disk quota exceeded", errno.EACCES: "permission denied",
                   errno.EPERM: "operation not permitted"}


def main(argv: Sequence[str] | None = None) -> int:
    """KWSEval's run; its warnings are headed `KWSEval: warning:` as utils/KWSEval (`termeval
    kwseval`: as every step of the command)."""
    prog = sys.argv[0]
    if not prog.startswith("termeval "):
        sys.argv[0] = "KWSEval"            # termeval.core.warn names the program by argv[0]
    try:
        return _main(argv)
    finally:
        sys.argv[0] = prog


def _main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print(get_parser().format_help())
        return 0
    p = get_parser().parse_args(argv)
    # utils/KWSEval: Getopt::Long's own lines; `termeval kwseval`: headed as every step's error
    head = f"{sys.argv[0]}: error: " if sys.argv[0].startswith("termeval ") else ""
    for line in p.errors:
        print(head + line, file=sys.stderr)
    v = p.values
    try:
        if p.errors:
            raise Quit("Unknown option(s)")
        if v["help"] or v["version"]:        # Getopt::Long runs these callbacks while parsing
            print(get_parser().format_help() if v["help"] else VERSION)
            return 0
        checks(v)
        for f in ("notASCII", "deleteHyphens"):
            if f.lower() in {x.lower() for x in v["xprefilterText"]} and \
                    "charsplit" not in {x.lower() for x in v["xprefilterText"]}:
                say(f"Warning: -zprefilterText {f} ignored because -z charsplit not used")
        opts = options_of(v)
        check_inputs(opts, say)
        req = request_of(v)
        write(req, opts, say, engine=engine)
    except Quit as e:
        print(f"[ERROR] {e}", flush=True)
        return 1
    except InputError as e:
        if e.message.startswith("Inconsistent NO/YES decision boundary"):   # KWSEval's words
            e = InputError("Error: Inconsistent NO/YES decision boundary: a NO decision scores above a "
                           "YES.  Error: Computation of Decision Score Threshold Failed.  Aborting", e.path)
        print(f"[ERROR] {e.format()}", flush=True)
        return 1
    except OSError as e:                 # a file system problem: one `[ERROR]` line, never a temporary's name
        why = _WRITE_PROBLEMS.get(e.errno or 0, e.strerror or type(e).__name__)
        read = [v[k] for k in ("ecffile", "rttmfile", "sysfile", "termfile") if v[k]]
        if e.filename is not None and os.fspath(e.filename) in read:
            print(f"[ERROR] Problem with file ({e.filename}): {why}", flush=True)
        else:                            # the reports cannot be written (read-only, full disk)
            print(f"[ERROR] Could not write the reports under the file root '{v['file-root']}': {why}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    run(main)        # an OSError (a full disk, a file where a directory must be): one line, exit 1
