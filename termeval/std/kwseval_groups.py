"""KWSEval's conditional groups as F4DE 3.5.0's KWSAlignment fills them (utils/KWSEval -q, -Y):
which terms a group holds, a -Y group's duration (KWSecf::calcTotalDur with the group's source
types and -N). A group exists only when something was added to it; a -Y group without ECF
duration never does (F4DE prints a warning for each term without any trial instead)."""
from __future__ import annotations

import numpy as np

from termeval.std.perlhash import PadHash, PerlHash, perl_keys
from termeval.std.score import file_channel_regexes
from termeval.std.userregex import UserRegex


def has_trials(res) -> np.ndarray:
    """Whether each term has a trial of the run: a scored detection or reference."""
    out = np.asarray(res.ntrue) > 0
    dt = np.asarray(res.ali["det_term"], np.int64)
    out[dt] = True
    return out


def group(cond: tuple, untried: np.ndarray, sourced: list) -> tuple:
    """A condition's (name, result, terms) as KWSAlignment fills its group: a -Y group gets the
    terms with a trial in its excerpts and every term without any trial (an empty block); a
    -q group its attribute's terms (those with trials bring them, the others an empty block)."""
    name, r, sel = cond
    if any(c.name == name for c in sourced):
        sel = sel & (has_trials(r) | untried)
    return name, r, sel


def group_duration(ecf, types: tuple | None, file_channels: str, buckets: int = 8) -> float:
    """KWSecf::calcTotalDur of a -Y group: the excerpts whose source type matches one of the
    types (anchored, any case; None: every excerpt) and whose FILE/CHAN one of the -N
    expressions."""
    keep = np.ones(len(ecf), dtype=bool)
    if types is not None:
        rx = [UserRegex(t, "-Y", ignore_case=True, perl_anchored=True) for t in types]
        keep = np.asarray([any(r.search(str(st)) for r in rx) for st in ecf.source_type], dtype=bool)
    fc = file_channel_regexes([x for x in file_channels.split(",") if x])
    if fc:
        keep &= np.asarray([any(r.search(f"{f}/{c}") for r in fc) for f, c in zip(ecf.file, ecf.channel)],
                           dtype=bool)
    return ecf.subset(keep).total_duration("f4de", buckets)


def main_buckets(ecf, file_channels: str) -> int:
    """The buckets calcTotalDur's `my %excerpts` keeps after the main duration (the files -N
    keeps): the -Y groups' durations are summed in a hash of that size."""
    fc = file_channel_regexes([x for x in file_channels.split(",") if x])
    files = [str(f) for f, c in zip(ecf.file.tolist(), ecf.channel.tolist())
             if not fc or any(r.search(f"{f}/{c}") for r in fc)]
    return PerlHash(dict.fromkeys(files)).max + 1


def zero_group_offender(res, kws, dets, empty: list, order: list[str]) -> tuple[str, list[int]] | None:
    """(term, its detections F4DE wrote outside its occurrences' file/channels, the last one the
    first trial KWSAlignment adds to a -Y group whose duration (under -N) is 0, where TrialsTWV
    dies with `parameter 'TotDur' must > 0`); None if there is none.
    Only a detection on a file/channel where its term has no RTTM occurrence escapes -N (it is
    never filtered), so only those can: F4DE adds them term after term (`order`), per term its
    files and channels in Perl hash order (`keys %termlkup`, stored as the term's detections
    inside the ECF come) and the detections in file order; a detection's group is the source
    type of the first excerpt of its file/channel holding it."""
    if not empty:
        return None
    ecf = kws.ecf
    excerpts: dict = {}
    for f, c, b, e, st in zip(ecf.file.tolist(), ecf.channel.tolist(), ecf.tbeg.tolist(), ecf.tend.tolist(),
                              ecf.source_type.tolist()):
        excerpts.setdefault((f, int(c)), []).append((b, e, str(st)))
    rx = [UserRegex(t, "-Y", ignore_case=True, perl_anchored=True) for c in empty for t in c.source_types]
    pos = {t: i for i, t in enumerate(res.terms.ids)}
    occ_fc = {(int(q), f, int(c)) for q, f, c in zip(kws.occ.term.tolist(), kws.occ.file.tolist(),
                                                    kws.occ.chan.tolist())}
    dterm = _detection_terms(dets, pos)
    files_pad = PadHash()       # `my %termlkup` of the term loop keeps its buckets from term to term
    for t in order:
        q = pos[t]
        lookup: dict = {}
        for d in np.flatnonzero(dterm == q).tolist():
            f, c = dets.file_ids[int(dets.file[d])], int(dets.chan[d])
            b, e = float(dets.tbeg[d]), float(dets.tbeg[d]) + float(dets.dur[d])
            ex = next((x for x in excerpts.get((f, c), ()) if b >= x[0] and e <= x[1]), None)
            if ex is not None:          # belongsInECF
                lookup.setdefault(f, {}).setdefault(str(c), []).append((d, ex[2]))
        written = []
        for f in files_pad.keys(list(lookup)):
            for c in perl_keys(list(lookup[f])):
                if (q, f, int(c)) in occ_fc:
                    continue
                for d, st in lookup[f][c]:
                    written.append(d)
                    if any(r.search(st) for r in rx):
                        return t, written
    return None


def _detection_terms(dets, pos: dict) -> np.ndarray:
    """The term index of each detection (-1: a term not in the list)."""
    code = np.asarray([pos.get(t, -1) for t in dets.term_ids], np.int64)
    return code[np.asarray(dets.term, np.int64)] if len(dets) else np.zeros(0, np.int64)
