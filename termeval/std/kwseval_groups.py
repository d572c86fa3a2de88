"""KWSEval's conditional groups as F4DE 3.5.0's KWSAlignment fills them (utils/KWSEval -q, -Y):
which terms a group holds, a -Y group's duration (KWSecf::calcTotalDur with the group's source
types and -N). A group exists only when something was added to it; a -Y group without ECF
duration never does (F4DE prints a warning for each term without any trial instead)."""
from __future__ import annotations

import re

import numpy as np


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


def group_duration(ecf, types: tuple | None, file_channels: str) -> float:
    """KWSecf::calcTotalDur of a -Y group: the excerpts whose source type matches one of the
    types (anchored, any case; None: every excerpt) and whose FILE/CHAN one of the -N
    expressions."""
    keep = np.ones(len(ecf), dtype=bool)
    if types is not None:
        rx = [re.compile(t, re.I) for t in types]
        keep = np.asarray([any(r.fullmatch(str(st)) for r in rx) for st in ecf.source_type], dtype=bool)
    fc = [re.compile(x, re.I) for x in file_channels.split(",") if x]
    if fc:
        keep &= np.asarray([any(r.fullmatch(f"{f}/{c}") for r in fc) for f, c in zip(ecf.file, ecf.channel)],
                           dtype=bool)
    return ecf.subset(keep).total_duration("f4de")
