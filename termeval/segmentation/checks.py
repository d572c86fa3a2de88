"""What is refused and what is said (warnings, kept in scores.json) about a segmentation run:
the tolerance (seconds; a unit slip such as `--tolerance 20` for 20 ms is refused) and the
segments the reader dropped or kept with a caveat (termeval.segmentation.inputs counts them)."""
from __future__ import annotations

from termeval.core.errors import InputError
from termeval.segmentation import scorer_registry as scorers
from termeval.segmentation.options import MAX_TOLERANCE
from termeval.segmentation.stats import Settings

PLAUSIBLE_TOLERANCE = 0.1    # seconds; above it a warning, recorded in scores.json


def check_settings(s: Settings) -> None:
    """InputError for a negative tolerance, a frame shift <= 0 or a tolerance of a second or more."""
    if s.tolerance < 0 or s.frame_shift <= 0:
        raise InputError("--tolerance must be >= 0 and --frame-shift > 0")
    if s.tolerance >= MAX_TOLERANCE:
        raise InputError(f"--tolerance is in seconds: {s.tolerance:g} s is not a boundary tolerance "
                         f"(20 ms is --tolerance 0.02; at most {MAX_TOLERANCE:g} s accepted)")
    named = scorers.get(s.compat)
    if named is not None and named.frame_shift is not None:
        k = s.tolerance / s.frame_shift
        if abs(k - round(k)) > 1e-6:
            raise InputError(f"--compat {s.compat} counts the tolerance in frames: --tolerance {s.tolerance:g} "
                             f"is not a whole number of --frame-shift {s.frame_shift:g} frames")
        getattr(named.impl(), "check", lambda _: None)(s)


def warnings(s: Settings, path: str, counts: dict[str, int]) -> list[str]:
    """The warning lines of a run: an implausible tolerance, then one line per kind of dropped
    segment and the overlaps of a class file, each with its count and the file."""
    out = []
    if s.tolerance > PLAUSIBLE_TOLERANCE:
        out.append(f"--tolerance {s.tolerance:g} s is larger than boundary tolerances usually are "
                   f"({PLAUSIBLE_TOLERANCE:g} s and less; 20 ms is --tolerance 0.02): boundary scores "
                   "are inflated")
    read = counts.get("segments_read", 0)
    for key, what in (("segments_outside_utterances", "lie outside every utterance"),
                      ("segments_zero_length", "have zero length (onset = offset)")):
        n = counts.get(key, 0)
        if n:
            out.append(f"{path}: {n} of {read} segments ({100 * n / max(read, 1):.1f} %) {what} "
                       f"and were dropped ({key} in scores.json)")
    n = counts.get("segments_overlapping", 0)
    if n:
        out.append(f"{path}: {n} of {read} fragments overlap another of their utterance: a term "
                   "discovery output, scored as it is (not a segmentation; segments_overlapping in "
                   "scores.json)")
    return out
