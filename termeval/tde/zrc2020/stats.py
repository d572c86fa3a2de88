"""Per-shard statistics of the zrc2020 (tdev2) metrics and their merge.

A shard is a contiguous range of classes. Its statistics are
  * NED integers (ned.NedStats), which add up;
  * the table of its distinct kept fragments (file, onset, offset, kept phone range) with the
    grouping flags F and I (see grouping.py), which the merge unions (OR of the flags);
  * counts, per-class diagnostics and discarded fragments, which concatenate.
Every metric is then computed on the merged statistics, so the scores are identical for any
number of shards.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from termeval.core.datadir import Classes, Gold, empty_tier
from termeval.core.distinct import distinct
from termeval.core.stage import Shard, balanced_ranges
from termeval.tde.zrc2020 import boundary, coverage, grouping, token_type, units
from termeval.tde.zrc2020.ned import NedStats, ned_stats
from termeval.tde.zrc2020.transcribe import BELOW_RULE, NO_PHONE, SIL, Keys, Phones, load_phones, transcribe
from termeval.core.textio import fmt_time

FRAG_FIELDS = ("file", "onset", "offset", "k0", "k1", "F", "I")


@dataclass
class Corpus:
    """What every job needs from the gold data dir."""
    gold: Gold
    phones: Phones
    keys: Keys

    @classmethod
    def from_gold(cls, gold: Gold) -> "Corpus":
        ph = load_phones(gold)
        return cls(gold, ph, Keys(ph))

    @classmethod
    def labels_only(cls, files: list[str], label: np.ndarray, labels: list[str], path: str = "") -> "Corpus":
        """What a job needs when the transcription of its fragments is given (compute_shard's
        `transcription`): the file names and the phone labels (load_phones' order), no time."""
        z = np.zeros(0)
        nf = len(files)
        gold = Gold(files=files, file_index={f: i for i, f in enumerate(files)}, phones=empty_tier(nf),
                    words=empty_tier(nf), speaker=[], duration=z, path=path)
        ph = Phones(file=z.astype(np.int32), onset=z, offset=z, label=label, labels=labels,
                    starts=np.zeros(0, np.int64), sil=labels.index(SIL) if SIL in labels else -1)
        return cls(gold, ph, Keys(ph, local=True))


@dataclass
class ShardStats:
    ned: NedStats
    frag: dict
    counts: dict = field(default_factory=dict)
    clusters: list = field(default_factory=list)     # lines of details/clusters.txt
    discarded: list = field(default_factory=list)    # lines of details/discarded
    units: dict = field(default_factory=dict)        # per-unit arrays (zrc2020/units.py)


def class_costs(starts: np.ndarray) -> np.ndarray:
    """Cost of each class (boundaries `starts`, Classes.starts) for the split into jobs: its
    fragments plus its pairs (n + n^2/64)."""
    n = np.diff(starts).astype(np.float64)
    return n + n * n / 64.0


def shard_ranges(classes: Classes, nj: int) -> list[tuple[int, int]]:
    """Split the classes into nj contiguous ranges of about equal cost (termeval.core.stage)."""
    return balanced_ranges(class_costs(classes.starts), nj)


def dedupe_fragments(file, on, off, k0, k1, F, I, rows: bool = False):
    """Distinct (file, onset, offset) with the flags ORed, in (file, onset, offset) order;
    rows=True: also the row of each input fragment in that table, as (table, rows)."""
    return dedupe_table(dict(zip(FRAG_FIELDS, (file, on, off, k0, k1, F, I))), rows)


def dedupe_table(t: dict, rows: bool = False):
    """dedupe_fragments of the table `t` (FRAG_FIELDS), which it empties as it goes: the
    merge's peak holds one copy of each column, not two."""
    file, on, off = t["file"], t["onset"], t["offset"]
    if not len(on):
        u = {"file": file.astype(np.int32), "onset": on, "offset": off, "k0": t["k0"], "k1": t["k1"],
             "F": t["F"].astype(bool), "I": t["I"].astype(bool)}
        t.clear()
        return (u, np.zeros(0, np.int64)) if rows else u
    n = len(on)
    order = np.lexsort((off, on, file))
    del file, on, off
    new = np.ones(n, dtype=bool)
    for k in ("file", "onset", "offset"):
        c = t[k][order]
        new[1:] &= c[1:] == c[:-1]
    np.logical_not(new, out=new)
    new[0] = True
    pos = np.flatnonzero(new)
    u = {}
    for k in FRAG_FIELDS:
        c = t.pop(k)[order]
        u[k] = np.logical_or.reduceat(c, pos) if k in ("F", "I") else c[pos]
        del c
    u["file"] = u["file"].astype(np.int32)
    if not rows:
        return u
    row = np.empty(n, dtype=np.int64)
    row[order] = np.cumsum(new) - 1
    return u, row


def compute_shard(corpus: Corpus, classes: Classes, c0: int, c1: int, workers: int = 1,
                  transcription: tuple | None = None) -> ShardStats:
    """Statistics of classes c0..c1-1. transcription: the (k0, k1, ncov) of their fragments
    as transcribe gives them (saved by the step's --prepare-only), else computed here."""
    ph, keys, gold = corpus.phones, corpus.keys, corpus.gold
    f0, f1 = int(classes.starts[c0]), int(classes.starts[c1])
    nc = c1 - c0
    file = classes.file[f0:f1].astype(np.int64)
    on, off = classes.onset[f0:f1], classes.offset[f0:f1]
    cls = classes.cls[f0:f1].astype(np.int64) - c0
    k0, k1, ncov = transcribe(ph, file, on, off) if transcription is None else transcription
    kept = k1 > k0
    discarded = []
    for i in np.flatnonzero(~kept).tolist():
        reason = NO_PHONE if ncov[i] == 0 else BELOW_RULE
        if classes.frag_ids:
            fid = classes.frag_ids[f0 + i]
        else:       # the id the class dir gives it: <class-key>-<position in its class>
            c = int(classes.cls[f0 + i])
            fid = f"{classes.keys[c]}-{f0 + i - int(classes.starts[c]):07d}"
        discarded.append(f"{fid} {gold.files[file[i]]} {fmt_time(float(on[i]))} {fmt_time(float(off[i]))} {reason}")
    kc, kf, ka, kb, kk0, kk1 = cls[kept], file[kept], on[kept], off[kept], k0[kept], k1[kept]
    # NED on SIL-stripped strings
    sid, strings = keys.stripped_ids(kk0, kk1)
    # string ids in sorted-string order: the order of the per-class float NED sums (bootstrap
    # tables) then depends on the class alone, not on which shard it is in
    order = sorted(range(len(strings)), key=strings.__getitem__)
    rank = np.empty(len(strings), dtype=np.int64)
    rank[order] = np.arange(len(strings))
    sid, strings = rank[sid], [strings[i] for i in order]
    ned, ned_per_cluster = ned_stats(kc, sid, strings, nc, workers=workers)
    # grouping flags
    nid, n_ngrams = keys.ngram_ids(kk0, kk1)
    n_c = np.bincount(kc, minlength=nc).astype(np.int64)
    F = n_c[kc] >= 2
    I = grouping.partner_flags(kc * max(n_ngrams, 1) + nid, kf, ka, kb)
    frag, frag_row = dedupe_fragments(kf, ka, kb, kk0, kk1, F, I, rows=True)
    # diagnostics: per class, the most frequent transcription and the mean NED inside it
    listed = np.diff(classes.starts[c0:c1 + 1]).astype(np.int64)
    rep = np.full(nc, -1, dtype=np.int64)
    top_n = np.zeros(nc, dtype=np.int64)
    if len(kc):
        key, idx, cnt = np.unique(kc * n_ngrams + nid, return_index=True, return_counts=True)
        gc = key // n_ngrams
        order = np.lexsort((idx, -cnt, gc))      # most frequent, then first seen
        first = order[np.r_[True, gc[order][1:] != gc[order][:-1]]]
        rep[gc[first]] = idx[first]
        top_n[gc[first]] = cnt[first]
    lines = []
    for c in range(nc):
        n, m = int(listed[c]), int(n_c[c])
        pairs = m * (m - 1) // 2
        mean = f"{ned_per_cluster[c] / pairs:.6f}" if pairs else "-"
        share = f"{top_n[c] / m:.6f}" if m else "-"
        trs = keys.ngram_text(int(kk0[rep[c]]), int(kk1[rep[c]])) if m else "-"
        lines.append(f"{classes.keys[c0 + c]} {classes.names[c0 + c]} {n} {m} {mean} {share} {trs}")
    counts = {
        "classes": nc, "classes_kept": int((n_c >= 1).sum()), "classes_with_pairs": int((n_c >= 2).sum()),
        "fragments": int(f1 - f0), "fragments_kept": int(kept.sum()),
        "fragments_discarded_" + NO_PHONE: int(((~kept) & (ncov == 0)).sum()),
        "fragments_discarded_" + BELOW_RULE: int(((~kept) & (ncov > 0)).sum()),
    }
    unit_stats = units.shard_units(classes.keys[c0:c1], ned_per_cluster, n_c, kc, frag_row, I)
    return ShardStats(ned, frag, counts, lines, discarded, unit_stats)


def to_shard(st: ShardStats):
    """The statistics as a termeval.core.stage.Shard (arrays + JSON-able metadata)."""
    arrays = {"frag_" + k: st.frag[k] for k in FRAG_FIELDS}
    arrays["ned_E"] = st.ned.E
    arrays.update({"unit_" + k: v for k, v in st.units.items()})
    return Shard({"counts": st.counts, "ned_ones": st.ned.ones, "ned_pairs": st.ned.pairs,
                  "clusters": st.clusters, "discarded": st.discarded}, arrays)


def from_shard(sh) -> ShardStats:
    """Back from a termeval.core.stage.Shard."""
    a, m = sh.arrays, sh.meta
    return ShardStats(NedStats(a["ned_E"], int(m["ned_ones"]), int(m["ned_pairs"])),
                      {k: a["frag_" + k] for k in FRAG_FIELDS}, m["counts"], list(m["clusters"]),
                      list(m["discarded"]), {k[len("unit_"):]: v for k, v in a.items() if k.startswith("unit_")})


def merge(corpus: Corpus, shards: list[ShardStats], parts: dict | None = None,
          release: bool = False, lean: bool = False) -> tuple[dict, dict]:
    """All zrc2020 metrics (floats, NaN = undefined) and the counts, from shard statistics.
    `parts`, if given, receives what the per-unit tables need (units.all_tables). release:
    the shards' fragment tables are emptied once merged (the merge of a run needs them no
    more). lean (a merge process, which scores nothing else): the corpus's per-phone token
    table and the gold words are dropped once used (the merge's peak, issue 24)."""
    ned = NedStats()
    counts: dict = {}
    for s in shards:
        ned = ned.add(s.ned)
        for k, v in s.counts.items():
            counts[k] = counts.get(k, 0) + v
    sizes = [len(s.frag["onset"]) for s in shards]
    cat = {}
    for k in FRAG_FIELDS:     # column by column, each shard's column dropped once copied
        cat[k] = np.concatenate([s.frag[k] for s in shards]) if shards else np.zeros(0)
        if release:
            for sh in shards:
                sh.frag.pop(k)
    u, rows = dedupe_table(cat, rows=True)
    if parts is not None:     # each kept fragment's row in u (the per-unit tables)
        row = units.merged_rows(shards, sizes, rows)
        parts["row"] = row.astype(np.int32) if len(u["onset"]) < 2 ** 31 else row
        del row
    del rows
    ph, keys = corpus.phones, corpus.keys
    file, on, off, k0, k1 = u["file"], u["onset"], u["offset"], u["k0"], u["k1"]
    nid, n_ngrams = keys.ngram_ids(k0, k1)
    tid, _ = keys.token_ids(k0, k1)
    if lean:
        keys.release()
    G = grouping.partner_flags(nid, file, on, off)
    gp, gr, ginfo = grouping.grouping(u["F"], u["I"], G, nid, tid, n_ngrams)
    del tid
    cov, n_cov, n_ph = coverage.coverage(ph, k0, k1)
    words = token_type.load_words(corpus.gold, ph)
    if lean:
        corpus.gold.words = empty_tier(len(corpus.gold.files))
    nf = len(corpus.gold.files)
    bpoints = boundary.points(file, ph.onset[k0], ph.offset[k1 - 1] if len(k1) else ph.offset[:0],
                              words.file, words.onset, words.offset)
    bp, br, binfo = boundary.from_points(bpoints)
    if parts is not None:     # per file (what the tables need of the points)
        pf, disc, goldp, bhit = bpoints
        parts.update({k: np.bincount(pf, weights=v.astype(float), minlength=nf).astype(np.float64)
                      for k, v in (("bnd_hit", bhit), ("bnd_disc", disc), ("bnd_gold", goldp))})
        del pf, disc, goldp, bhit
    del bpoints
    tt = token_type.token_type(ph, words, file, on, off, k0, k1, nid)
    if parts is not None:
        hit = tt.pop("hit")
        chosen = tt.pop("chosen")
        parts["tok_hit"] = np.bincount(words.file[distinct(chosen[hit])], minlength=nf).astype(np.float64)
        del chosen
        parts.update(u=u, G=G, nid=nid, hit=hit, word_file=words.file, word_label=words.label)
    m = {
        "ned": ned.value(), "ned_pairs": ned.pairs, "coverage": cov,
        "grouping_precision": gp, "grouping_recall": gr,
        "type_precision": tt["type_precision"], "type_recall": tt["type_recall"],
        "token_precision": tt["token_precision"], "token_recall": tt["token_recall"],
        "boundary_precision": bp, "boundary_recall": br,
    }
    counts.update({"fragments_distinct": len(on), "transcriptions_distinct": n_ngrams,
                   "phones_covered": n_cov, "phones_speech": n_ph, "ned_pairs": ned.pairs})
    counts.update({"grouping_" + k: v for k, v in ginfo.items()})
    counts.update(binfo)
    counts.update(tt["counts"])
    return m, counts


def score(gold: Gold, classes: Classes, nj: int = 1) -> tuple[dict, dict]:
    """In-process scoring (tests, benchmarks): shard, compute, merge."""
    corpus = Corpus.from_gold(gold)
    shards = [compute_shard(corpus, classes, a, b) for a, b in shard_ranges(classes, nj)]
    return merge(corpus, shards)
