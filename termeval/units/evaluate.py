"""Units against gold phones, end to end: pair the files, count per file (additive: what jobs
add up and the bootstrap resamples), then map the units to phones and score (PNMI, purities,
PER, boundaries; fairseq's quantities under --compat fairseq).

The two compat modes (docs/units.md):
  discophon  the file sets must be equal; a length difference beyond the repeat count, a unit
             id outside [0, n_units), more distinct phones than rows: errors naming file and line
  fairseq    phone labels lose their digits (Mandarin tones merge), each file is cut to the
             shorter sequence whatever the difference, files without units are skipped and
             units without gold ignored (each said in a warning), as its script does
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from termeval.core.errors import InputError
from termeval.units import boundaries, cooccurrence, mapping, per, quality
from termeval.units.cooccurrence import Pairing
from termeval.units.frames import GoldFrames
from termeval.units.readers import UnitSeqs

FILE_COLUMNS = ("frames", "units", "cut", "per_errors", "per_length", "bnd_ref", "bnd_pred", "bnd_hit")


@dataclass(frozen=True)
class Settings:
    compat: str = "discophon"     # discophon | fairseq
    kind: str = "many-to-one"     # many-to-one | one-to-one
    step_ms: int = 20             # ms per unit
    n_units: int = 0              # 0: the largest id + 1 (many-to-one) or the rows (one-to-one)
    n_rows: int = 0               # phone classes with silence (n_phonemes + 1); 0: the gold's labels

    @property
    def repeat(self) -> int:
        return self.step_ms // 10


def strip_digits(gold: GoldFrames) -> GoldFrames:
    """fairseq's `re.sub("[0-9]", "", phn)` on every label (labels that become equal merge)."""
    stripped = [re.sub("[0-9]", "", x) for x in gold.labels]
    table = list(dict.fromkeys(stripped))
    code = np.array([table.index(x) for x in stripped], np.int32)
    return GoldFrames(gold.files, table, code[gold.phone] if len(code) else gold.phone, gold.starts,
                      gold.first_line, gold.line_of, gold.path, gold.speaker)


@dataclass
class Corpus:
    """Gold frames and unit sequences paired file by file."""
    gold: GoldFrames
    units: UnitSeqs
    pairing: Pairing
    n_units: int
    n_rows: int
    warnings: list[str] = field(default_factory=list)
    counts: dict = field(default_factory=dict)     # fairseq: frm diff, utt miss, units without gold


def _describe(units: UnitSeqs, i: int) -> str:
    p, ln = units.at(i)
    return f"{p}:{ln}" if ln is not None else p


def pair(gold: GoldFrames, units: UnitSeqs, s: Settings) -> Corpus:
    """Pair the files, check them as the mode's tool does (InputError), and cut the lengths."""
    uidx = units.index()
    unit_of = np.array([uidx.get(f, -1) for f in gold.files], np.int64)
    gset = set(gold.files)
    extra = [i for i, k in enumerate(units.keys) if k not in gset]
    missing = np.flatnonzero(unit_of < 0)
    warnings: list[str] = []
    counts: dict = {}
    if s.compat == "discophon" and (len(missing) or extra):
        if extra:
            p, ln = units.at(extra[0])
            raise InputError(f"utterance '{units.keys[extra[0]]}' is not in the gold {gold.path} ({len(extra)} "
                             f"utterances have no gold, {len(missing)} gold files no units): discophon scores "
                             "the same files on both sides", p, ln)
        f = int(missing[0])
        raise InputError(f"file '{gold.files[f]}' has no units in {units.path} ({len(missing)} gold files "
                         "without units): discophon scores the same files on both sides", gold.path,
                         int(gold.first_line[f]))
    if len(missing):
        warnings.append(f"{len(missing)} of {len(gold.files)} gold files have no units in {units.path} "
                        f"(e.g. '{gold.files[int(missing[0])]}'): skipped, as fairseq's script does (utt miss)")
    if extra:
        warnings.append(f"{len(extra)} utterances of {units.path} are not in the gold (e.g. "
                        f"'{units.keys[extra[0]]}'): not scored (fairseq's script counts them in hyp segL only)")
    if not np.any(unit_of >= 0):
        raise InputError(f"no utterance of {units.path} is a file of the gold {gold.path}", units.path)
    n_rows = s.n_rows or len(gold.labels)
    n_units = s.n_units or (n_rows if s.kind == "one-to-one" else int(units.values.max()) + 1)
    _check_ids(units, n_units, s)
    r = s.repeat
    paired = unit_of >= 0
    P = gold.length()
    U = np.zeros(len(P), np.int64)
    U[paired] = units.length()[unit_of[paired]] * r
    cut = np.minimum(P, U)
    over = np.flatnonzero(paired & ((P - cut > r) | (U - cut > r)))
    if len(over):
        f = int(over[0])
        text = (f"utterance '{gold.files[f]}': {U[f] // r} units of {s.step_ms} ms ({U[f] * 10} ms) against "
                f"{P[f] * 10} ms of gold phones ({gold.path}:{int(gold.first_line[f])}): more than {r} frames of "
                f"10 ms apart")
        if s.compat == "discophon":
            p, ln = units.at(int(unit_of[f]))
            raise InputError(text + " (discophon trims at most one unit's frames; is --step-units right?)", p, ln)
        warnings.append(f"{len(over)} files differ from their units by more than one unit's frames, e.g. "
                        f"{text}: cut to the shorter, as fairseq's script does")
    counts = {"frames_diff": int(np.abs(P - U)[paired].sum()), "utterances": len(gold.files),
              "utterances_missing": int(len(missing)), "units_without_gold": len(extra)}
    return Corpus(gold, units, Pairing(unit_of, cut, r), n_units, n_rows, warnings, counts)


def _check_ids(units: UnitSeqs, n_units: int, s: Settings) -> None:
    bad = np.flatnonzero(units.values >= n_units)
    if len(bad):
        i = int(np.searchsorted(units.starts, bad[0], side="right") - 1)
        p, ln = units.at(i)
        why = ("--n-units" if s.compat != "discophon" or s.n_units else
               "n_units (256 many-to-one, the phonemes + 1 one-to-one)")
        raise InputError(f"utterance '{units.keys[i]}': unit {int(units.values[bad[0]])} is not below {why} "
                         f"= {n_units}", p, ln)


def file_counts(c: Corpus, lo: int, hi: int) -> dict[str, np.ndarray]:
    """The additive statistics of gold files lo..hi-1: their cells and first frames."""
    return cooccurrence.file_cells(c.gold.phone, c.gold.starts, c.units.values, c.units.starts, c.pairing,
                                   np.arange(lo, hi, dtype=np.int64), len(c.gold.labels), c.n_units)


def merge_counts(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    out = {k: np.concatenate([p[k] for p in parts]) for k in ("cell_file", "cell_phone", "cell_unit", "cell_count")}
    out["first"] = cooccurrence.merge_first([p["first"] for p in parts])
    return out


@dataclass
class Result:
    scores: dict                  # metric -> value (None: undefined)
    per_file: np.ndarray          # (files x FILE_COLUMNS) int64
    rows: cooccurrence.Rows
    count: np.ndarray             # (rows x n_units) in discophon's order
    unit_row: np.ndarray          # the row each unit id maps to
    fairseq: dict | None = None   # fairseq's table values


def score(c: Corpus, counts: dict[str, np.ndarray], s: Settings) -> Result:
    """Map and score from the summed counts."""
    gold = c.gold
    flat_total = np.bincount(counts["cell_phone"], weights=counts["cell_count"],
                             minlength=len(gold.labels)).astype(np.int64)
    rows, over = cooccurrence.discophon_rows(counts["first"], flat_total, gold.labels, c.n_rows)
    if over is not None:
        key = int(counts["first"][over])
        f, frame = key >> cooccurrence.FIRST_SHIFT, key & ((1 << cooccurrence.FIRST_SHIFT) - 1)
        raise InputError(f"file '{gold.files[f]}': phone '{gold.labels[over]}' is one more than the {c.n_rows} phone "
                         f"classes (phonemes + silence) of the inventory", gold.path,
                         gold.line_of.line(int(gold.starts[f]) + frame))
    count = cooccurrence.matrix(counts, rows, len(gold.labels), c.n_units)
    unit_row = mapping.mapping(count, s.kind)
    per_file = _per_file(c, rows, unit_row, s)
    tot = per_file.sum(axis=0)
    phone_purity, cluster_purity = quality.purities(count)
    b = boundaries.values(int(tot[7]), int(tot[6] - tot[7]), int(tot[5] - tot[7]))
    scores = {"pnmi": quality.pnmi(count), "phone_purity": phone_purity, "cluster_purity": cluster_purity,
              "per": int(tot[3]) / int(tot[4]) if tot[4] else None,
              "boundary_precision": b["precision"], "boundary_recall": b["recall"],
              "boundary_fscore": b["fscore"], "boundary_rvalue": b["rvalue"]}
    fs = None
    if s.compat == "fairseq":
        fs = _fairseq(c, counts)
        scores.update(pnmi=fs["pnmi"], phone_purity=fs["ref_purity"], cluster_purity=fs["hyp_purity"],
                      ref_entropy=fs["ref_entropy"], hyp_entropy=fs["hyp_entropy"],
                      mutual_information=fs["mutual_information"], ref_segment_length=fs["ref_segment_length"],
                      hyp_segment_length=fs["hyp_segment_length"])
    return Result(scores, per_file, rows, count, unit_row, fs)


def _per_file(c: Corpus, rows: cooccurrence.Rows, unit_row: np.ndarray, s: Settings) -> np.ndarray:
    """FILE_COLUMNS of every gold file under the mapping (PER and boundaries on whole sequences)."""
    gold = c.gold
    # gold labels as rows of the matrix (a label seen only past the cut gets a code of its own)
    row_of_label = np.arange(len(rows.code), len(rows.code) + len(gold.labels), dtype=np.int64)
    real = rows.code >= 0
    row_of_label[rows.code[real]] = np.flatnonzero(real)
    ref = row_of_label[gold.phone]
    hyp = unit_row[c.units.values]
    up = c.pairing.unit_of
    paired = np.flatnonzero(up >= 0)
    out = np.zeros((len(gold.files), len(FILE_COLUMNS)), np.int64)
    out[:, 0] = gold.length()
    out[paired, 1] = c.units.length()[up[paired]]
    out[:, 2] = np.where(up >= 0, c.pairing.cut, 0)
    dist, length = per.edit_counts(hyp, c.units.starts, ref, gold.starts, np.c_[up[paired], paired])
    out[paired, 3], out[paired, 4] = dist, length
    bnd = boundaries.hits(ref, gold.starts, hyp, c.units.starts, up, s.step_ms)
    out[:, 5:8] = bnd
    out[up < 0, 5:8] = 0
    return out


def segment_length(seq: np.ndarray, starts: np.ndarray, repeat: int = 1) -> float:
    """fairseq's comp_avg_seg_dur: frames / segments (label runs) over the sequences."""
    n_segs = len(starts) - 1 + len(boundaries.change_times(seq, starts, 1)[0])
    return (len(seq) * repeat) / n_segs


def _fairseq(c: Corpus, counts: dict[str, np.ndarray]) -> dict:
    flat = np.bincount(counts["cell_phone"] * c.n_units + counts["cell_unit"], weights=counts["cell_count"],
                       minlength=len(c.gold.labels) * c.n_units).astype(np.int64).reshape(len(c.gold.labels), c.n_units)
    p_xy = quality.fairseq_table(flat, c.gold.labels)
    out = quality.fairseq_quality(p_xy)
    out["ref_segment_length"] = segment_length(c.gold.phone, c.gold.starts)
    out["hyp_segment_length"] = segment_length(c.units.values, c.units.starts, c.pairing.repeat)
    out.update(shape=p_xy.shape, frames=int(flat.sum()), frames_diff=c.counts["frames_diff"],
               utterances=c.counts["utterances"], utterances_missing=c.counts["utterances_missing"])
    return out
