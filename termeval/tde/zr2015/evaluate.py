"""Per-fold driver of the zr2015/zr2017 evaluation (what zr2015/stage.py calls).

`prepare` loads everything once (gold data dir, segments, the n-gram type index, discovered
classes with truncation and annotation, the gold classes of `<prefix>.classes` or the corpus
side of the generated n-gram classes, folds); `score_fold` computes every metric of one fold,
or of one unit of it (termeval.tde.zr2015.plan), from numpy arrays; the generated gold classes
are never listed (termeval.tde.zr2015.ngrams.fold_gold counts a fold's share).

What a fold reads is a `Prepared`: `Indexed` in one process (every field, the corpus's n-gram
index), `store.JobPrepared` in a --nj job (the fields its units need, an n-gram index built
per fold); `prepare_for_store` gives the plain `Prepared` that termeval.tde.zr2015.store saves.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
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
from termeval.tde.zr2015.plan import ALL_MEASURES, ordered  # noqa: F401 (ALL_MEASURES re-exported)



@dataclass
class Prepared:
    """The inputs of every fold. The fields marked `need` are None only in a --nj job none of
    whose units needs them (plan.NEEDS, store.job_prepared); exactly one of goldcls (listed
    gold classes, with gold_ix) and gold_ngrams (generated ones) is set where gold is needed."""
    mode: str
    gold: Gold | Any                        # files, file_index, speaker (tiers dropped)
    foldsets: dict[str, FoldSet]
    counts: dict
    disc: Fragments                         # discovered fragments, annotated
    disc_ix: FileIndex                      # per-file slices (termeval.tde.zr2015.foldview)
    phones: Segmented | None                # need "phones"
    words: Segmented | None                 # need "words"
    word_ix: FileIndex | None               # with words
    ned_cache: ned.NedCache | None          # need "ned"
    goldcls: Fragments | None               # need "gold": listed gold classes (<prefix>.classes)
    gold_ix: FileIndex | Any | None         # with goldcls (store.LazyFileIndex in a job)
    gold_ngrams: GoldNgrams | None          # need "gold": the generated n-gram classes

    def index_for(self, fold: Intervals, lengths: tuple[int, int]) -> NgramIndex:
        """The n-gram index matching reads for a fold: its levels of `lengths` at least."""
        raise TypeError("saved inputs hold no n-gram index (score with evaluate.prepare or "
                        "store.job_prepared)")


@dataclass
class Indexed(Prepared):
    """One process: every field, and the corpus's n-gram index, which serves every fold."""
    ngrams: NgramIndex

    def index_for(self, fold: Intervals, lengths: tuple[int, int]) -> NgramIndex:
        return self.ngrams


def prepare(data_dir: str, class_file: str, folds: str, mode: str, log=None) -> Indexed:
    """Everything a fold needs, with the corpus's n-gram index."""
    fields, idx = _prepare(data_dir, class_file, folds, mode, NgramIndex, log)
    return Indexed(**fields, ngrams=idx)


def prepare_for_store(data_dir: str, class_file: str, folds: str, mode: str, log=None) -> Prepared:
    """What termeval.tde.zr2015.store saves for --nj jobs: no n-gram index is kept; the
    transcriptions' codes and the corpus's repeated n-grams come from one pass over its levels
    (ngramindex.StreamedCodes)."""
    fields, _ = _prepare(data_dir, class_file, folds, mode, StreamedCodes, log)
    return Prepared(**fields)


def read_folds(folds: str, gold: Gold, counts: dict) -> tuple[dict[str, FoldSet], tuple | None, str | None]:
    """(fold sets, the .split truncation (file, onset, offset) or None, the <prefix>.classes
    file or None) of --folds, their unknown-file counts into `counts`."""
    if folds == "none":
        return ({"cross": FoldSet("cross", [whole_corpus(len(gold.files))], ["all"]),
                 "within": per_speaker(gold.speaker)}, None, None)
    files = fold_prefix_files(folds)
    sp = read_split(files["split"], gold.file_index)
    counts["split_unknown_file_lines"] = sp.unknown
    foldsets = {"cross": read_foldset(files["intervals.cross"], "cross", gold.file_index),
                "within": read_foldset(files["intervals.within"], "within", gold.file_index)}
    for k, fs in foldsets.items():
        counts[f"{k}_fold_unknown_file_lines"] = int(sum(f.unknown for f in fs.folds))
    return foldsets, (sp.file, sp.onset, sp.offset), files.get("classes")


def _prepare(data_dir: str, class_file: str, folds: str, mode: str, index_of, log) -> tuple[dict, Any]:
    """(the fields of a Prepared, the n-gram codes index_of(phones) that annotated them)."""
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
    foldsets, split, gold_classes = read_folds(folds, gold, counts)
    # the segmented tiers replace the gold tiers (only files and speakers are used after this)
    gold = replace(gold, phones=None, words=None)
    marks: dict = {}
    ngrams = index_of(phones)
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
    elif isinstance(ngrams, StreamedCodes):
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
    fields = dict(mode=mode, gold=gold, foldsets=foldsets, counts=counts, disc=disc,
                  disc_ix=file_index(disc.file, nf, disc.occ_frag), phones=phones, words=words,
                  word_ix=file_index(words.file, nf), ned_cache=ned.NedCache(inv), goldcls=goldcls,
                  gold_ix=gold_ix, gold_ngrams=gold_ngrams)
    return fields, ngrams


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
    ("matching_stats", plan.ordered adds the bands up) instead of its values."""
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
        idx = p.index_for(fold, lengths)
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
        res["matching_stats"] = matching.matching(p.phones, idx, disc, fp, g, mode, lengths)
    res["fragments_in_fold"] = int(len(disc))
    return res if band is not None else ordered([res])


def _dense(per_file: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(file indices, values) of the nonzero entries of a per-file array."""
    i = np.flatnonzero(per_file)
    return i, per_file[i]
