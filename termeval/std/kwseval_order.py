"""The orders in which F4DE 3.5.0's KWSEval meets terms and blocks, which decide the order of
alignment.csv's lines and of the sums behind its DET figures (termeval.std.perlhash gives the
Perl hash orders under KWSEval.pl's PERL_HASH_SEED=0):

- terms are processed (KWSAlignment::alignTerms, KWSSegAlign::alignSegments) in the order of
  the system's detected blocks, then the terms without a block in the order of `(keys
  %missed_terms)[0]` after each delete (`%missed_terms` a list assignment of `keys %TERMS`, the
  term list's hash); with `-j` (occurrence alignment) those are not processed at all;
- a set's trials hash gets its blocks in processing order (a term's first trial, or its empty
  block at the end of its processing); with segment alignment the empty blocks come after the
  loop, in `values %TERMS` order (none with `-j`);
- a DET's block hash (DETCurve::Compute_blocked_DET_points, MetricFuncs'
  getActualDecisionRawCountBlocks) gets the evaluated blocks in `keys %trials` order; the report
  tables' count hash gets them sorted; the `my` hashes of a sub keep the buckets their earlier
  uses grew to (perlhash.PadHash), so each DET's order also depends on the DETs F4DE computed
  before it: the main set's when the summary report (or the block report with Optimum or
  Supremum) asks for it, then the conditions' when the conditional summary does.
"""
from __future__ import annotations

from termeval.std.perlhash import PadHash, PerlHash, perl_keys


def processing_order(term_ids: list[str], blocks: list[str], skip_missed: bool) -> list[str]:
    """The terms in the order KWSEval processes them (a block naming an unknown term is left to
    the reader's error)."""
    terms = perl_keys(term_ids)                       # keys %{ $TERMLIST->{TERMS} }
    missed = PerlHash(terms, presize=len(terms))      # my %missed_terms = map {$_ => $_} keys ...
    known = set(term_ids)
    out = []
    for b in blocks:
        missed.delete(b)
        if b in known:
            out.append(b)
    if not skip_missed:     # taking the first key and deleting it leaves the others in order
        out += missed.keys()
    return out


def trial_insertion(order: list[str], members: set, empty: set, segment: bool, term_ids: list[str],
                    add_empty: bool = True) -> list[str]:
    """The order in which a set's trials hash got its blocks: `members` the terms with a trial
    in the set, `empty` those given an empty block. Occurrence alignment adds both in processing
    order; segment alignment adds the empty blocks last, in `values %TERMS` order."""
    if not segment:
        return [t for t in order if t in members or t in empty]
    head = [t for t in order if t in members]
    tail = [t for t in perl_keys(term_ids) if t in empty and t not in members] if add_empty else []
    return head + tail


def trial_keys(insertion: list[str]) -> list[str]:
    """`keys %{ $trials->{trials} }` (getBlockIDs) of a set."""
    return perl_keys(insertion)


def det_block_order(insertion: list[str], evaluated: set, pad: PadHash | None = None) -> list[str]:
    """The keys order of a DET's block hash: the evaluated blocks stored in getBlockIDs order
    (`pad`: the `my %blocks` of Compute_blocked_DET_points, which keeps the buckets of the DETs
    computed before; None: a new hash, as getActualDecisionRawCountBlocks' escaping one)."""
    stored = [b for b in trial_keys(insertion) if b in evaluated]
    return (pad or PadHash()).keys(stored)


def table_block_order(evaluated: set, pad: PadHash | None = None) -> list[str]:
    """The keys order of the report tables' count hash (`my %combData`, a PadHash of its sub):
    the evaluated blocks stored sorted."""
    return (pad or PadHash()).keys(sorted(evaluated))
