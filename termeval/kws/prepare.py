"""Build a kws data dir from word alignments and a keyword list (steps/prepare_kws.sh).

Written (docs/std-kaldi-compat.md, "prepare_kws"):
  ecf.xml      one excerpt per utterance (per recording without segments), audio_filename
               `<reco>.sph` (F4DE strips the last extension), channel 1, --ecf-source-type
  rttm         one LEXEME line per word (`LEXEME reco 1 tbeg dur word lex speaker <NA>`)
  kwlist.xml   KWLIST (compareNormalize lowercase) with the categories as kwinfo attributes
  keywords.txt `kwid word ...`;  categories  `kwid Category=value` (termeval.std.categories)
  hitlist      `kwid utt-number start-frame end-frame 0`, frames of --frame-shift from the
               utterance start (rounded to the nearest frame, the end clipped to the utterance)
  utt.map      `utt number`, 1..N in C order;  segments (only when the data dir has them)
  trials       the searched duration as F4DE computes it from ecf.xml (splitcts counts half);
               frame_length
Occurrences are found once, by the same code the F4DE-mode scorer runs on this rttm
(termeval.std.rttm.find_occurrences: F4DE's RTTMList::findTermOccurrences, successive words
of the same speaker at most 0.5 s apart), so the hitlist and the rttm always agree.
"""
from __future__ import annotations

import math
import os
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Callable, Optional
from xml.sax.saxutils import escape, quoteattr

from termeval.core.errors import InputError
from termeval.core.guard import check_outputs, check_replaced_dir
from termeval.kws.alignment import Alignment, read_alignment
from termeval.std.categories import categories_text, keyword_attributes
from termeval.std.ecf import read_ecf
from termeval.std.lexicon import read_keyword_list, read_lexicon, read_words_txt
from termeval.std.rttm import find_occurrences, read_rttm
from termeval.std.termlist import TermList
from termeval.core.textio import fmt_time
from termeval.core.warn import step_name, warn

FIND_THRESHOLD = 0.5  # F4DE KWSEval -F default: max gap (s) between successive words of a term
SOURCE_TYPES = ("bnews", "cts", "splitcts", "confmtg")


@dataclass
class KwsSummary:
    n_keywords: int
    n_occurrences: int
    n_utterances: int
    trials: float
    no_occurrence: list[str] = field(default_factory=list)


def _t(x: float) -> str:
    """Seconds with 6 decimals at most (microseconds), trailing zeros dropped."""
    s = f"{x:.6f}".rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def _frame(seconds: float, shift: float) -> int:
    return int(math.floor(seconds / shift + 0.5))


def build_files(ali: Alignment, terms: TermList, frame_shift: float = 0.01, source_type: str = "splitcts",
                language: str = "english", vocab: Optional[set[str]] = None,
                lexicon: Optional[dict[str, list[str]]] = None, workdir: str = ".") -> tuple[dict[str, str], KwsSummary]:
    """The text of every file of the kws dir, by name. `workdir` holds the rttm read back."""
    if not (0 < frame_shift <= 1):
        raise InputError(f"--frame-shift: expected seconds in (0, 1], got {frame_shift}")
    if source_type not in SOURCE_TYPES:
        raise InputError(f"--ecf-source-type must be one of {', '.join(SOURCE_TYPES)} (F4DE's ECF schema), "
                         f"got '{source_type}'")
    utts = ali.utts
    out: dict[str, str] = {}
    rttm_lines = []
    for w in ali.words:
        u = utts[w.utt]
        rttm_lines.append(f"LEXEME {u.reco} 1 {_t(w.onset)} {_t(w.offset - w.onset)} {w.word} lex {u.speaker} <NA>")
    out["rttm"] = "\n".join(rttm_lines) + "\n"
    excerpts = [f'  <excerpt audio_filename={quoteattr(u.reco + ".sph")} channel="1" tbeg="{_t(u.start)}" '
                f'dur="{_t(u.end - u.start)}" source_type="{source_type}"/>' for u in utts.values()]
    total = sum(u.end - u.start for u in utts.values())
    out["ecf.xml"] = (f'<?xml version="1.0" encoding="UTF-8"?>\n<ecf source_signal_duration="{_t(total)}" '
                      f'version="termeval-prepare_kws" language={quoteattr(language)}>\n'
                      + "\n".join(excerpts) + "\n</ecf>\n")
    attrs = [keyword_attributes(t, vocab, lexicon) for t in terms.texts]
    kws_xml = []
    for kwid, text, a, extra in zip(terms.ids, terms.texts, attrs, terms.attrs):
        allattrs = list(extra.items()) + [(n, v) for n, v in a if n not in extra]
        info = "".join(f"<attr><name>{escape(n)}</name><value>{escape(str(v))}</value></attr>" for n, v in allattrs)
        kws_xml.append(f"  <kw kwid={quoteattr(kwid)}><kwtext>{escape(text)}</kwtext><kwinfo>{info}</kwinfo></kw>")
    out["kwlist.xml"] = (f'<?xml version="1.0" encoding="UTF-8"?>\n<kwlist ecf_filename="ecf.xml" '
                         f'version="termeval-prepare_kws" language={quoteattr(language)} encoding="UTF-8" '
                         f'compareNormalize="lowercase">\n' + "\n".join(kws_xml) + "\n</kwlist>\n")
    out["keywords.txt"] = "".join(f"{k} {t}\n" for k, t in zip(terms.ids, terms.texts))
    out["categories"] = categories_text(terms.ids, attrs)
    numbers = {name: k for k, name in enumerate(utts, 1)}
    out["utt.map"] = "".join(f"{name} {k}\n" for name, k in numbers.items())
    if ali.has_segments:
        out["segments"] = "".join(f"{u.name} {u.reco} {_t(u.start)} {_t(u.end)}\n" for u in utts.values())
    out["frame_length"] = f"{fmt_time(frame_shift)}\n"
    # occurrences, from the rttm exactly as the F4DE-mode scorer will read it
    rttm_path = os.path.join(workdir, "rttm")
    ecf_path = os.path.join(workdir, "ecf.xml")
    for name, path in (("rttm", rttm_path), ("ecf.xml", ecf_path)):
        with open(path, "w", encoding="utf-8") as f:
            f.write(out[name])
    lex = read_rttm(rttm_path)
    trials = read_ecf(ecf_path).total_duration("f4de")
    out["trials"] = f"{fmt_time(trials)}\n"
    norm = TermList(terms.ids, terms.texts, terms.attrs, "lowercase", "kwlist", language, terms.path)
    occ = find_occurrences(lex, norm, FIND_THRESHOLD)
    # the utterance of each occurrence: the one of its first word (keyed as read back)
    first_utt = {(lex.file[i], float(lex.tbeg[i])): ali.words[i].utt for i in range(len(lex))}
    hits = []
    for t, fid, beg, end in zip(occ.term.tolist(), occ.file.tolist(), occ.beg.tolist(), occ.end.tolist()):
        u = utts[first_utt[(fid, beg)]]
        last = max(0, int(math.floor((u.end - u.start) / frame_shift + 1e-6)))  # frames inside the utterance
        s = min(max(0, _frame(beg - u.start, frame_shift)), last)
        e = min(max(s, _frame(end - u.start, frame_shift)), last)
        hits.append((t, numbers[u.name], s, e))
    hits.sort()
    out["hitlist"] = "".join(f"{terms.ids[t]} {n} {s} {e} 0\n" for t, n, s, e in hits)
    found = set(occ.term.tolist())
    missing = [k for i, k in enumerate(terms.ids) if i not in found]
    return out, KwsSummary(len(terms), len(hits), len(utts), trials, missing)


# every file a kws dir of prepare_kws may hold (build_files)
KWS_FILES = ("rttm", "ecf.xml", "kwlist.xml", "keywords.txt", "categories", "utt.map", "segments",
             "frame_length", "trials", "hitlist")


def build_dir(opts, dest: str) -> KwsSummary:
    """Read the inputs of `opts` (PrepareKwsOptions) and write every file of the kws dir into
    the new directory `dest` (termeval.run.driver.run_task moves it into place whole)."""
    if (opts.keywords is None) == (opts.kwlist is None):
        raise InputError("give exactly one of --keywords FILE and --kwlist XML")
    src = opts.keywords or opts.kwlist
    if not os.path.isfile(src):
        raise InputError("not found", src)
    for name in ("ctm", "words_txt", "lexicon"):
        v = getattr(opts, name)
        if v is not None and not os.path.isfile(v):
            raise InputError(f"--{name.replace('_', '-')}: not found", v)
    terms = read_keyword_list(src, opts.plain_list)
    vocab = read_words_txt(opts.words_txt) if opts.words_txt else None
    lexicon = read_lexicon(opts.lexicon) if opts.lexicon else None
    ali = read_alignment(opts.data_dir, opts.ctm)
    with tempfile.TemporaryDirectory(prefix="prepare_kws.", dir=os.path.dirname(dest)) as work:
        files, summary = build_files(ali, terms, opts.frame_shift, opts.ecf_source_type, opts.language,
                                     vocab, lexicon, work)
    os.makedirs(dest)                  # mode from the umask, as every output
    for name, text in files.items():
        with open(os.path.join(dest, name), "w", encoding="utf-8") as f:
            f.write(text)
    return summary


def task(opts) -> tuple[str, list[str], Callable[[str], KwsSummary]]:
    """(out_root, owned outputs, write) of prepare_kws for termeval.run.driver.run_task (with
    lock=False: out_root is the kws dir's parent, shared with unrelated outputs such as the data
    dir or other kws dirs being prepared at the same time; the kws dir itself is replaced by one
    rename). It is written under a temporary directory beside it and replaces the old one whole,
    so a reader never sees a half-written kws dir and a failure leaves the old one untouched."""
    check_outputs("prepare_kws", opts.paths("input"), [opts.kws_dir], [opts.kws_dir])   # named as given
    # an existing directory there is replaced only when it is an earlier kws dir of prepare_kws
    check_replaced_dir("prepare_kws", opts.kws_dir, KWS_FILES)
    kws = os.path.normpath(opts.kws_dir)
    if os.path.basename(kws) in ("", ".", ".."):
        raise InputError("give the kws dir by its name (it is replaced whole)", opts.kws_dir)
    parent, name = os.path.split(kws)
    return parent or ".", [name], lambda tmp: build_dir(opts, os.path.join(tmp, name))


def messages(summary: KwsSummary) -> tuple[list[str], str]:
    """The warnings and the closing line of a prepared kws dir (printed on stderr)."""
    warnings = []
    if summary.no_occurrence:
        shown = " ".join(summary.no_occurrence[:10]) + (" ..." if len(summary.no_occurrence) > 10 else "")
        warnings.append(f"{len(summary.no_occurrence)} keyword(s) never occur: {shown} "
                        "(kept; as in F4DE and compute-atwv they do not enter ATWV/MTWV unless "
                        "--include-notarget-terms true)")
    return warnings, (f"{summary.n_keywords} keywords, {summary.n_occurrences} occurrences in "
                      f"{summary.n_utterances} utterances, trials {summary.trials:g} s")


# ----------------------------------------------------------------------------- the step (termeval/steps)


def run(opts, run_task) -> dict:
    """prepare_kws on its PrepareKwsOptions: the kws dir written whole; what it found
    (n_keywords, n_occurrences, n_utterances, trials, no_occurrence), its warnings printed."""
    summary = run_task("prepare_kws", *task(opts), inputs=opts.paths("input"), lock=False)
    for w in messages(summary)[0]:
        warn(None, w)
    return {"kws_dir": opts.kws_dir, "n_keywords": summary.n_keywords, "n_occurrences": summary.n_occurrences,
            "n_utterances": summary.n_utterances, "trials": summary.trials,
            "no_occurrence": list(summary.no_occurrence)}


def show(opts, res: dict) -> None:
    line = messages(KwsSummary(res["n_keywords"], res["n_occurrences"], res["n_utterances"], res["trials"], []))[1]
    print(f"{step_name()}: {line} -> {opts.kws_dir}", file=sys.stderr)
