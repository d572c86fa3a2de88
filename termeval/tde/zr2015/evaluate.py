"""Per-fold driver of the zr2015/zr2017 evaluation (what zr2015/stage.py calls).

`prepare` loads everything once (gold data dir, segments, the n-gram type index, discovered
classes with truncation and annotation, the gold classes of `<prefix>.classes` or the corpus
side of the generated n-gram classes, folds); `score_fold` computes every metric of one fold
from numpy arrays (zr2015/stage.py gives each --nj job its share of the folds); the generated
gold classes are never listed (termeval.tde.zr2015.ngrams.fold_gold counts a fold's share).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from termeval.core.datadir import Gold, load_gold
from termeval.tde.zr2015 import boundary, coverage, grouping, matching, ned, token_type
from termeval.tde.zr2015.classfile import from_prepared, read_classfile
from termeval.tde.zr2015.corpus import Fragments, Segmented, annotate, check_mode, segment_tier
from termeval.tde.zr2015.folds import (FoldSet, Intervals, fold_prefix_files, per_speaker, read_foldset,
                                  read_split, whole_corpus)
from termeval.tde.zr2015.foldpairs import fold_pairs
from termeval.tde.zr2015.foldview import FileIndex, file_index, members, take
from termeval.tde.zr2015.ngramindex import StreamedCodes
from termeval.tde.zr2015.ngrams import GoldNgrams, NgramIndex, fold_gold
from termeval.tde.zr2015.pairs import r2_occurrences

MODE_OF = {"zr2015": "zr2015", "zr2017": "zr2017"}  # benchmark name = mode name
ALL_MEASURES = ("matching", "ned", "coverage", "grouping", "token_type", "boundary")


@dataclass
class Prepared:
    mode: str
    gold: Gold
    phones: Segmented
    words: Segmented
    disc: Fragments
    goldcls: Fragments | None           # listed gold classes (<prefix>.classes), else None:
    ngrams: NgramIndex | None            # None in a job (index_for builds what a fold needs)
    foldsets: dict[str, FoldSet]
    counts: dict = field(default_factory=dict)
    ned_cache: "ned.NedCache | None" = None
    disc_ix: FileIndex | None = None       # per-file slices (termeval.tde.zr2015.foldview)
    gold_ix: FileIndex | None = None
    word_ix: FileIndex | None = None
    gold_ngrams: GoldNgrams | None = None  # the generated n-gram classes, counted per fold
    index_for: Any = None                  # a job (ngrams None): (fold, lengths) -> the NgramIndex
                                           # of the fold's files, levels of those lengths


def prepare(data_dir: str, class_file: str, folds: str, mode: str, log=None, for_jobs: bool = False) -> Prepared:
    """Everything a fold needs. for_jobs (zr2015/prepcache.py saves it for --nj jobs): the
    n-gram index is not kept (ngrams None): the transcriptions' codes and the corpus's
    repeated n-grams come from one pass over its levels (ngramindex.StreamedCodes)."""
    check_mode(mode)
    t0 = time.time()
    gold = load_gold(data_dir)
    phones = segment_tier(gold.phones, mode)
    words = segment_tier(gold.words, mode)
    counts: dict = {"phone_segments": phones.nseg, "word_segments": words.nseg,
                    "phone_inexact_joins": phones.inexact_joins,
                    "word_inexact_joins": words.inexact_joins}
    if os.path.isdir(class_file):
        raw = from_prepared(class_file, gold)
    else:
        raw = read_classfile(class_file, gold.file_index)
    counts["classfile"] = raw.counts
    split = None
    gold_classes = None
    if folds == "none":
        foldsets = {"cross": FoldSet("cross", [whole_corpus(len(gold.files))], ["all"]),
                    "within": per_speaker(gold.speaker)}
    else:
        files = fold_prefix_files(folds)
        sp = read_split(files["split"], gold.file_index)
        split = (sp.file, sp.onset, sp.offset)
        counts["split_unknown_file_lines"] = sp.unknown
        foldsets = {"cross": read_foldset(files["intervals.cross"], "cross", gold.file_index),
                    "within": read_foldset(files["intervals.within"], "within", gold.file_index)}
        for k, fs in foldsets.items():
            counts[f"{k}_fold_unknown_file_lines"] = int(sum(f.unknown for f in fs.folds))
        gold_classes = files.get("classes")
    # the segmented tiers replace the gold tiers (only files and speakers are used after this)
    gold = replace(gold, phones=None, words=None)
    marks: dict = {}
    ngrams = StreamedCodes(phones) if for_jobs else NgramIndex(phones)
    disc = annotate(phones, raw.cls, raw.file, raw.onset, raw.offset, mode, split=split, marks=marks,
                    ngrams=ngrams)
    counts["disc"] = disc.counts
    nf = len(gold.files)
    goldcls = gold_ngrams = gold_ix = None
    if gold_classes:
        rg = read_classfile(gold_classes, gold.file_index)
        goldcls = annotate(phones, rg.cls, rg.file, rg.onset, rg.offset, mode, split=None, marks=marks,
                           ngrams=ngrams)
        counts["gold_classes"] = {"source": gold_classes, **goldcls.counts}
        gold_ix = file_index(goldcls.file, nf, goldcls.occ_frag)
    elif for_jobs:
        gold_ngrams = GoldNgrams(phones, nf, *ngrams.repeat_lengths())
        counts["gold_classes"] = generated_counts(gold_ngrams)
    else:
        gold_ngrams, counts["gold_classes"] = generated_gold(phones, ngrams, nf)
    # mark tuples of every id (discovered and gold share the dict)
    inv = sorted(marks, key=marks.get)
    disc.marks = inv
    if goldcls is not None:
        goldcls.marks = inv
    if log:
        log(f"prepared in {time.time() - t0:.2f} s: {len(disc)} distinct fragments, "
            f"{counts['gold_classes']['distinct_fragments'] if 'gold_classes' in counts else 'no'} gold fragments")
    return Prepared(mode=mode, gold=gold, phones=phones, words=words, disc=disc, goldcls=goldcls,
                    ngrams=None if for_jobs else ngrams, foldsets=foldsets, counts=counts,
                    ned_cache=ned.NedCache(inv),
                    disc_ix=file_index(disc.file, nf, disc.occ_frag),
                    gold_ix=gold_ix, word_ix=file_index(words.file, nf), gold_ngrams=gold_ngrams)


def generated_gold(phones: Segmented, ngrams: NgramIndex, nfiles: int) -> tuple[GoldNgrams, dict]:
    """The corpus side of the generated gold classes (repeated 3-20-grams) and their counts entry."""
    g = GoldNgrams.of_index(phones, ngrams, nfiles)
    return g, generated_counts(g)


def generated_counts(g: GoldNgrams) -> dict:
    return {"source": "generated: repeated 3-20-grams inside segments", **g.counts}


def score_fold(p: Prepared, fold: Intervals, measures=ALL_MEASURES, units: dict | None = None,
               band: tuple[int, int] | None = None) -> dict:
    """Every metric of one fold; with a dict `units`, also the per-unit statistics of the
    bootstrap (termeval.tde.zr2015.units): units["class"] / units["file"] = {column: (ids,
    values)}, global class and file indices. With a `band` of n-gram lengths
    (matching.BANDS: a --nj unit), matching gives its additive statistics
    ("matching_stats", matching.finish adds the bands up) instead of its values."""
    mode = p.mode
    nf = len(p.gold.files)
    cu = units.setdefault("class", {}) if units is not None else None
    fu = units.setdefault("file", {}) if units is not None else None
    res: dict = {}
    # R1(D, F): a view of the fold's fragments (every fragment of the view is in the fold)
    disc = take(p.disc, p.disc_ix, members(fold, p.disc_ix, p.disc.file, p.disc.onset, p.disc.offset))
    occ_r2 = r2_occurrences(disc.occ_cls, np.ones(len(disc.occ_cls), dtype=bool), disc.nclasses)
    in_d2 = np.zeros(len(disc), dtype=bool)
    in_d2[disc.occ_frag[occ_r2]] = True
    # the counted PW; matching also needs the phone-sharing fragments listed (sub-pair duplicates)
    fp = fp_plain = None
    if "matching" in measures:
        fp = fold_pairs(disc, occ_r2, mode, p.phones, sharing=True)
    if {"ned", "grouping"} & set(measures):
        fp_plain = fp if fp is not None and not fp.shared else fold_pairs(
            disc, occ_r2, mode, p.phones, sharing=False)
    if "ned" in measures:
        v, npairs, nempty = ned.ned(disc, fp_plain, p.ned_cache)
        res.update(ned=v, ned_pairs=npairs, ned_empty_pairs=nempty)
        if cu is not None:
            c, sums, pairs = ned.ned_by_class(disc, fp_plain, p.ned_cache)
            cu.update(ned_sum=(c, sums), ned_pairs=(c, pairs))
    g = idx = None
    lengths = band or matching.ALL_LENGTHS
    if "matching" in measures:
        idx = p.ngrams if p.ngrams is not None else p.index_for(fold, lengths)
    if {"coverage", "matching"} & set(measures):          # R1(G, F), classes renumbered
        if p.goldcls is None:
            g = fold_gold(p.gold_ngrams, idx, fold, mode, lengths if "matching" in measures else (1, 0),
                          cover="coverage" in measures)
            gcomp = g.cover
        else:
            g = take(p.goldcls, p.gold_ix, members(fold, p.gold_ix, p.goldcls.file, p.goldcls.onset,
                                                   p.goldcls.offset), dense_classes=True)
            gcomp = coverage.components(g.file, g.onset, g.offset, mode)
    if "coverage" in measures:
        dcomp = coverage.components(disc.file, disc.onset, disc.offset, mode)
        res["coverage"] = coverage.coverage(coverage.total(dcomp), coverage.total(gcomp), mode)
        if fu is not None:
            fu.update(cov_num=_dense(coverage.by_file(dcomp, nf)), cov_den=_dense(coverage.by_file(gcomp, nf)))
    if "grouping" in measures:
        gp, gr = grouping.grouping(disc, fp_plain, in_d2, mode)
        res.update(grouping_precision=gp, grouping_recall=gr)
        if cu is not None:
            pw_cls = ned.pw_classes(len(disc), fp_plain)
            c, gi, gp_, gg = grouping.grouping_by_class(disc, fp_plain, in_d2, mode, pw_cls)
            cu.update(grp_i=(c, gi), grp_p=(c, gp_), grp_g=(c, gg))
    if {"token_type", "boundary"} & set(measures):
        w = p.words
        wf = w.subset(members(fold, p.word_ix, w.file, w.onset, w.offset))
    if "token_type" in measures:
        th = token_type.hits(wf, disc.file, disc.onset, disc.offset, mode)
        tp, tr, yp, yr, unplaced = token_type.token_type(wf, disc.file, disc.onset, disc.offset, mode, th)
        res.update(token_precision=tp, token_recall=tr, type_precision=yp, type_recall=yr,
                   token_unplaced=unplaced)
        if fu is not None:
            t = token_type.token_type_by_file(wf, disc.file, disc.onset, disc.offset, mode, nf, th)
            for k, col in enumerate(("tok_hit", "tok_disc", "tok_gold", "type_hit", "type_seen", "type_gold")):
                fu[col] = _dense(t[:, k])
    if "boundary" in measures:
        bm = boundary.matched(disc.file, disc.onset, disc.offset, wf.file, wf.onset, wf.offset)
        bp, br = boundary.boundary(disc.file, disc.onset, disc.offset, wf.file, wf.onset, wf.offset, bm)
        res.update(boundary_precision=bp, boundary_recall=br)
        if fu is not None:
            b = boundary.boundary_by_file(disc.file, disc.onset, disc.offset, wf.file, wf.onset, wf.offset, nf, bm)
            for k, col in enumerate(("bnd_dhit", "bnd_disc", "bnd_ghit", "bnd_gold")):
                fu[col] = _dense(b[:, k])
    if "matching" in measures:
        stats = matching.matching(p.phones, idx, disc, fp, g, mode, lengths)
        if band is None:
            mp, mr, extra = matching.finish([stats])
            res.update(matching_precision=mp, matching_recall=mr, **extra)
        else:
            res["matching_stats"] = stats
    res["fragments_in_fold"] = int(len(disc))
    return res


def _dense(per_file: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(file indices, values) of the nonzero entries of a per-file array."""
    i = np.flatnonzero(per_file)
    return i, per_file[i]
