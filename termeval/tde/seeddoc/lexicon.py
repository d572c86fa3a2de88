"""Type and token scores: zr2015-doc (V10-V12, §3.6-3.7: sets of phone strings and of phone
ranges over the whole fold) and lrec2014 (V13, §4.6: occurrences on the covered corpus, type
as a per-type average of token precision/recall)."""
from __future__ import annotations

import numpy as np

from termeval.tde.seeddoc.common import Corpus, Strings, ratio
from termeval.tde.seeddoc.ngrams import covered_phones


def _range_keys(k0: np.ndarray, k1: np.ndarray) -> np.ndarray:
    return np.asarray(k0, np.int64) * (1 << 32) + np.asarray(k1, np.int64)


def zr_counts(c: Corpus, strings: Strings, fsid: np.ndarray) -> dict[str, int]:
    """Counts of §3.6 (type, type_3to20) and §3.7 (token); fsid = string id per fragment."""
    wk = np.unique(_range_keys(c.w_k0, c.w_k1))
    w0, w1 = wk >> 32, wk & ((1 << 32) - 1)
    wsid = strings.ids(w0, w1)
    fl, wl = c.f_k1 - c.f_k0, w1 - w0
    fd, tg = np.unique(fsid), np.unique(wsid)
    fd3 = np.unique(fsid[(fl >= 3) & (fl <= 20)])
    tg3 = np.unique(wsid[(wl >= 3) & (wl <= 20)])
    fr = np.unique(_range_keys(c.f_k0, c.f_k1))
    return {"type_disc": len(fd), "type_gold": len(tg), "type_hit": len(np.intersect1d(fd, tg)),
            "type3_disc": len(fd3), "type3_gold": len(tg3), "type3_hit": len(np.intersect1d(fd3, tg3)),
            "token_disc": len(fr), "token_gold": len(wk), "token_hit": len(np.intersect1d(fr, wk))}


def zr_scores(n: dict) -> dict[str, float | None]:
    return {"type_precision": ratio(n["type_hit"], n["type_disc"]), "type_recall": ratio(n["type_hit"], n["type_gold"]),
            "type_3to20_precision": ratio(n["type3_hit"], n["type3_disc"]),
            "type_3to20_recall": ratio(n["type3_hit"], n["type3_gold"]),
            "token_precision": ratio(n["token_hit"], n["token_disc"]), "token_recall": ratio(n["token_hit"], n["token_gold"])}


def covered(c: Corpus) -> np.ndarray:
    """Phones inside the transcribed range of some discovered fragment (cover(F_disc))."""
    return covered_phones(len(c.ph_on), c.f_k0, c.f_k1)


def lrec_scores(c: Corpus, strings: Strings, fsid: np.ndarray) -> tuple[dict[str, float | None], dict[str, int]]:
    """§4.6: Y = distinct word ranges whose first and last phones are covered."""
    cov = covered(c)
    wk = np.unique(_range_keys(c.w_k0, c.w_k1))
    w0, w1 = wk >> 32, wk & ((1 << 32) - 1)
    y = cov[w0] & cov[w1 - 1] if len(wk) else np.zeros(0, bool)
    yk = wk[y]
    fk = _range_keys(c.f_k0, c.f_k1)
    hit = np.isin(fk, yk)                                   # occurrences that are a Y token
    found = np.isin(yk, fk)                                 # Y tokens found
    out: dict[str, float | None] = {"token_precision": ratio(int(hit.sum()), len(fk)),
                                    "token_recall": ratio(int(found.sum()), len(yk))}
    t, inv = np.unique(fsid, return_inverse=True)
    inv = inv.reshape(-1)
    per_p = np.bincount(inv, weights=hit, minlength=len(t)) / np.bincount(inv, minlength=len(t)) if len(t) else []
    out["type_precision"] = float(np.mean(per_p)) if len(t) else None
    ys = strings.ids(yk >> 32, yk & ((1 << 32) - 1))
    ty, invy = np.unique(ys, return_inverse=True)
    invy = invy.reshape(-1)
    per_r = np.bincount(invy, weights=found, minlength=len(ty)) / np.bincount(invy, minlength=len(ty)) if len(ty) else []
    out["type_recall"] = float(np.mean(per_r)) if len(ty) else None
    return out, {"covered_phones": int(cov[c.phone_mask].sum()), "covered_words": len(yk)}
