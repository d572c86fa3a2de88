"""System output readers: STDLIST (STD 2006 / MediaEval), KWSLIST (BABEL / Kaldi
write_kwslist.pl) and Kaldi plain-text results (`kwid utt start end score`), auto-detected.

`read_detections` returns a `Detections` of parallel numpy arrays with string vocabularies
(term ids and file ids are small integer codes into `term_ids` / `file_ids`), so 1M detections
stay compact and are never touched by Python loops after parsing. XML is streamed through
`xmlsafe.parse` (expat with defusedxml's entity/external-reference refusal).
"""
from __future__ import annotations

import re
from typing import Optional

import numpy as np

from termeval.core import textfast
from termeval.core.errors import InputError
from termeval.std import xmlsafe
from termeval.std.ecf import INT32, file_id
from termeval.std.detection_table import NO, UNSET, YES, Detections
from termeval.std.kaldi_results import read_kaldi_results
from termeval.std.xmlsafe import clip



def is_blank(path: str, limit: int = 1 << 16) -> bool:
    """Whether the file `path` is empty or holds only white space (read up to `limit` bytes)."""
    with open(path, "rb") as f:
        head = f.read(limit + 1)
    return len(head) <= limit and not head.strip()


def detect_format(path: str) -> str:
    """'stdlist', 'kwslist' or 'kaldi' from the file content (root element or first line)."""
    root = xmlsafe.sniff_root(path)
    if root is None:
        return "kaldi"
    if root in ("stdlist", "kwslist"):
        return root
    if root == "?":
        xmlsafe.check(path)  # names the line of the problem when there is one
        raise InputError("looks like XML but is not well-formed (or starts with a DOCTYPE/entity "
                         "declaration, which is refused)", path)
    raise InputError(f"unknown detection list: root element <{clip(root)}> (expected <stdlist> or "
                     "<kwslist>, or Kaldi text 'kwid utt start end score')", path)


def read_detections(path: str, fmt: str = "auto", frame_length: float = 0.01,
                    utt_map: Optional[dict[str, str]] = None,
                    segments: Optional[dict[str, tuple[str, float]]] = None) -> Detections:
    """Read a detection list. fmt: auto|stdlist|kwslist|kaldi.

    Kaldi text: times are frames of `frame_length` seconds relative to the utterance; `utt_map`
    (int id -> utterance name, the inverse of utt.map) and `segments` (utterance -> (recording,
    offset)) translate them to file times. Errors (NaN/inf scores, negative durations, unknown
    decisions, repeated term blocks) raise InputError naming the file and line.
    """
    if fmt != "kaldi" and is_blank(path):
        raise InputError("empty file: not a detection list (a list without detections is an empty "
                         "<kwslist ...></kwslist> or <stdlist ...></stdlist>; an empty Kaldi hitlist "
                         "is read with --format kaldi)", path)
    if fmt == "auto":
        fmt = detect_format(path)
    if fmt == "kaldi":
        return read_kaldi_results(path, frame_length, utt_map, segments)
    if fmt not in ("stdlist", "kwslist"):
        raise InputError(f"unknown detection format '{fmt}'")
    fast = _read_xml_fast(path)
    return fast if fast is not None else _read_xml(path)


def _vocab_codes(raw_vocab: dict[str, int], normalise) -> tuple[list[str], np.ndarray]:
    """Normalise a raw vocabulary; return the unique normalised names and a raw->new code map."""
    names: dict[str, int] = {}
    remap = np.empty(len(raw_vocab), dtype=np.int32)
    for raw, code in raw_vocab.items():
        remap[code] = names.setdefault(normalise(raw), len(names))
    return list(names), remap


def _read_xml(path: str) -> Detections:
    fmap: dict[str, int] = {}
    cmap: dict[str, int] = {}
    dmap: dict[str, int] = {}
    f_codes: list[int] = []
    c_codes: list[int] = []
    d_codes: list[int] = []
    tbegs: list[str] = []
    durs: list[str] = []
    scores: list[str] = []
    blocks: list[str] = []
    counts: list[int] = []
    header: dict = {}
    seen_blocks: dict[str, int] = {}
    state = {"root": None, "in_block": False}
    fa, ca, da = f_codes.append, c_codes.append, d_codes.append
    ta, ua, sa = tbegs.append, durs.append, scores.append

    def start(tag: str, a: dict) -> None:
        if tag == "kw" or tag == "term":
            if not state["in_block"]:
                raise InputError(f"<{tag}> outside a detected_kwlist/detected_termlist block")
            try:
                f = a["file"]
                ta(a["tbeg"])
                ua(a["dur"])
                sa(a["score"])
            except KeyError as e:
                raise InputError(f"<{tag}> lacks the {e} attribute") from None
            c = fmap.get(f)
            if c is None:
                c = fmap[f] = len(fmap)
            fa(c)
            ch = a.get("channel", "1")
            c = cmap.get(ch)
            if c is None:  # checked at its first use, so the message names this line
                _channel(ch)
                c = cmap[ch] = len(cmap)
            ca(c)
            dv = a.get("decision", "")
            c = dmap.get(dv)
            if c is None:
                if dv.strip().upper() not in ("YES", "NO", ""):
                    raise InputError(f"decision '{clip(dv)}' is neither YES nor NO")
                c = dmap[dv] = len(dmap)
            da(c)
            counts[-1] += 1
            return
        if tag in ("detected_kwlist", "detected_termlist"):
            tid = a.get("kwid", a.get("termid"))
            if tid is None:
                raise InputError(f"<{tag}> without kwid/termid")
            if tid in seen_blocks:
                raise InputError(f"term '{clip(tid)}' has a second {tag} block (F4DE would count its "
                                 "references twice); merge the blocks")
            seen_blocks[tid] = len(blocks)
            blocks.append(tid)
            counts.append(0)
            state["in_block"] = True
            return
        if state["root"] is None:
            if tag not in ("kwslist", "stdlist"):
                raise InputError(f"expected a <kwslist> or <stdlist> root element, found <{clip(tag)}>")
            state["root"] = tag
            header.update(a)

    def end(tag: str) -> None:
        if tag in ("detected_kwlist", "detected_termlist"):
            state["in_block"] = False

    xmlsafe.parse(path, start, end)
    if state["root"] is None:
        raise InputError("empty detection list file", path)
    n = len(f_codes)
    tb, du, sc = _times_and_scores(tbegs, durs, scores, path, blocks, counts)
    dec_lut = _decision_lut(dmap, d_codes, path, blocks, counts)
    chan_lut = np.empty(max(len(cmap), 1), dtype=np.int32)
    for k, c in cmap.items():
        chan_lut[c] = _channel(k)  # every value was checked when first seen
    file_ids, fremap = _vocab_codes(fmap, file_id)
    term = np.repeat(np.arange(len(blocks), dtype=np.int32), counts)
    mn, mx = _score_range(header, path)
    return Detections(
        term_ids=list(blocks), file_ids=file_ids, term=term,
        file=fremap[np.asarray(f_codes, dtype=np.int64)] if n else np.zeros(0, np.int32),
        chan=chan_lut[np.asarray(c_codes, dtype=np.int64)] if n else np.zeros(0, np.int32),
        tbeg=tb, dur=du, score=sc,
        decision=dec_lut[np.asarray(d_codes, dtype=np.int64)] if n else np.zeros(0, np.int8),
        fmt=state["root"], blocks=list(blocks), min_score=mn, max_score=mx,
        system_id=header.get("system_id", ""), path=path)


def _decision_lut(dmap: dict[str, int], d_codes: list[int], path: str, blocks, counts) -> np.ndarray:
    """YES / NO / UNSET of each distinct decision text (its code in dmap)."""
    dec_lut = np.empty(max(len(dmap), 1), dtype=np.int8)
    for k, c in dmap.items():
        ku = k.strip().upper()
        if ku == "YES":
            dec_lut[c] = YES
        elif ku == "NO":
            dec_lut[c] = NO
        elif ku == "":
            dec_lut[c] = UNSET
        else:
            first = d_codes.index(c)
            raise InputError(f"decision '{clip(k)}' is neither YES nor NO ({_where(first, blocks, counts)})", path)
    return dec_lut


def _channel(text: str) -> int:
    try:
        ch = int(text)
    except ValueError:
        ch = None
    if ch is None or not INT32[0] <= ch <= INT32[1]:
        raise InputError(f"channel '{clip(text)}' is not an int32 integer")
    return ch


def _where(i: int, blocks: list[str], counts: list[int]) -> str:
    ends = np.cumsum(counts)
    b = int(np.searchsorted(ends, i, side="right"))
    k = i - (int(ends[b - 1]) if b > 0 else 0)
    return f"term '{clip(blocks[b])}', detection #{k + 1}"


def _score_range(header: dict, path: str) -> tuple[float | None, float | None]:
    """The KWSLIST header's optional min_score/max_score (both or neither)."""
    mn, mx = header.get("min_score"), header.get("max_score")
    try:
        mn = float(mn) if mn not in (None, "") else None
        mx = float(mx) if mx not in (None, "") else None
    except ValueError:
        raise InputError(f"bad min_score/max_score '{clip(mn)}'/'{clip(mx)}' in the header", path) from None
    if (mn is None) != (mx is None):
        raise InputError("the kwslist header gives only one of min_score/max_score", path)
    return mn, mx


def _times_and_scores(tbegs, durs, scores, path: str, blocks, counts):
    """tbeg, dur, score columns (str or bytes) as float arrays; bad numbers, NaN/inf, negative
    durations and negative start times are input errors naming the term and detection."""
    tb = _to_float(tbegs, "tbeg", path, blocks, counts)
    du = _to_float(durs, "dur", path, blocks, counts)
    sc = _to_float(scores, "score", path, blocks, counts)
    for arr, raw, what in ((du, durs, "negative duration dur"), (tb, tbegs, "negative start time tbeg")):
        bad = np.flatnonzero(arr < 0)
        if len(bad):
            v = clip(raw[bad[0]])
            raise InputError(f"{what}={v} ({_where(bad[0], blocks, counts)})", path)
    return tb, du, sc


def _to_float(values: list[str], what: str, path: str, blocks, counts) -> np.ndarray:
    if not values:
        return np.zeros(0, dtype=np.float64)
    try:
        arr = np.fromiter(map(float, values), dtype=np.float64, count=len(values))
    except ValueError:
        for i, v in enumerate(values):
            try:
                float(v)
            except ValueError:
                raise InputError(f"{what} '{clip(v)}' is not a number ({_where(i, blocks, counts)})", path) from None
        raise
    bad = np.flatnonzero(~np.isfinite(arr))
    if len(bad):
        v = clip(values[bad[0]])
        raise InputError(f"{what} '{v}' is not a finite number "
                         f"({_where(int(bad[0]), blocks, counts)})", path)
    return arr


# ---------------------------------------------------------------------------------------------
# Fast path for large lists. When the file has no comments, CDATA, processing instructions,
# DOCTYPE, entity/character references, single-quoted attributes or namespace prefixes, every
# '<name' is a start tag and every ' attr="value"' inside it is that attribute, so the values
# are collected by regex (C speed); expat checks well-formedness and safety without element
# callbacks, and only around the detections when they are all plain (xmlsafe.check_without).
# Any doubt (counts that disagree, ...) falls back to the callback parser above, always exact.
_BLOCK = re.compile(rb"<detected_(kwlist|termlist)(\s[^>]*)?>")
_CANON = re.compile(rb'<(?:kw|term) file="([^"]*)" channel="([^"]*)" tbeg="([^"]*)" dur="([^"]*)" '
                    rb'score="([^"]*)" decision="([^"]*)"[^>]*>')
# the same with nothing after the six attributes: such an element is well-formed by itself (no
# '<' or '&' in a value, as checked), so expat need only read the rest (xmlsafe.check_without)
_STRICT = re.compile(rb'<(?:kw|term) file="([^"]*)" channel="([^"]*)" tbeg="([^"]*)" dur="([^"]*)" '
                     rb'score="([^"]*)" decision="([^"]*)"[ \t\r\n]*/>')


def _tag_attrs(tag: bytes) -> dict:
    return {k.decode(): v.decode("utf-8") for k, v in re.findall(rb'([\w.-]+)\s*=\s*"([^"]*)"', tag)}


def _block_ids(bl: list) -> Optional[tuple[list[str], Optional[tuple[str, str]]]]:
    """The term id of each block match and the first repeated (id, element name), or None when
    a block has no id (the exact parser names it)."""
    blocks: list[str] = []
    seen: set = set()
    repeated = None
    for m in bl:
        a = _tag_attrs(m.group(2) or b"")
        tid = a.get("kwid", a.get("termid"))
        if tid is None:
            return None
        if tid in seen and repeated is None:
            repeated = (tid, m.group(1).decode())
        seen.add(tid)
        blocks.append(tid)
    return blocks, repeated


def _split_blocks(body: bytes, bl: list, canon: re.Pattern) -> Optional[tuple]:
    """(block term ids, detections per block, the 6 columns, the text around the detections,
    the first repeated block or None) when every detection matches `canon`, else None."""
    ids = _block_ids(bl)
    if ids is None:
        return None
    blocks, repeated = ids
    counts: list[int] = []
    cols: list[list[bytes]] = [[] for _ in range(6)]   # file, channel, tbeg, dur, score, decision
    rest: list[bytes] = [body[:bl[0].start()]]
    for i, b in enumerate(bl):
        # split, not findall: [text, 6 values, text, 6 values, ..., text] gives each column as
        # one slice, without a tuple per detection to transpose
        seg = body[b.end():bl[i + 1].start() if i + 1 < len(bl) else len(body)]
        close = seg.find(b"</detected_")
        if close >= 0 and canon.search(seg, close):
            return None      # a detection after its block's end: the exact parser names it
        parts = canon.split(seg)
        counts.append(len(parts) // 7)
        for c, col in enumerate(cols, 1):
            col.extend(parts[c::7])
        rest.append(b.group(0))
        rest.extend(parts[0::7])
    n = sum(counts)
    # no comments/PI/CDATA here, so every '<' opens a tag: root, blocks and detections only
    if n == 0 or body.count(b"<") != n + 2 + 2 * len(bl):
        return None
    return blocks, counts, cols, rest, repeated


# what lies between the quotes of a canonical detection: after the file value, the channel, ...
_BETWEEN = [b" channel=", b" tbeg=", b" dur=", b" score=", b" decision="]
_BLOCK_END = re.compile(rb"</detected_(?:kwlist|termlist)\s*>")


def _starts_with(b: np.ndarray, loads: np.ndarray, at: np.ndarray, text: bytes) -> np.ndarray:
    """Whether the bytes at each position `at` start with `text` (loads: the unaligned 8-byte
    words of b, _loads)."""
    ok = at + len(text) <= len(b)
    for j in range(0, len(text), 8):
        part = text[j:j + 8]
        want = np.frombuffer(part.ljust(8, b"\0"), dtype=np.uint64)[0]
        mask = np.frombuffer((b"\xff" * len(part)).ljust(8, b"\0"), dtype=np.uint64)[0]
        inside = at + j < len(loads)
        ok &= inside & ((loads[np.where(inside, at + j, 0)] & mask) == want)
    return ok


def _loads(b: np.ndarray) -> np.ndarray:
    """The 8 bytes starting at each position of b but its last 7, as uint64 (a strided view,
    no copy)."""
    if len(b) < 8:
        b = np.concatenate((b, np.zeros(8 - len(b), dtype=np.uint8)))
    return np.ndarray((len(b) - 7,), dtype=np.uint64, buffer=b, strides=(1,))


def _gather(b: np.ndarray, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ranges b[s:e] side by side in one small array, with their new bounds."""
    size = e - s
    ends = np.cumsum(size)
    at = np.arange(int(ends[-1]) if len(ends) else 0) + np.repeat(s - (ends - size), size)
    return b[at], ends - size, ends


def _canonical(body: bytes, bl: list) -> Optional[tuple]:
    """(term ids, detections per block, value bounds (starts, ends) of the 6 attributes, the
    text around the detections, the first repeated block) when every detection of the file is
    `<kw file="." channel="." tbeg="." dur="." score="." decision="."/>` (or <term ...>)
    exactly, inside its block: found and checked with numpy on the bytes (no Python object
    per detection); None otherwise (the regex split then decides)."""
    b = np.frombuffer(body, dtype=np.uint8)
    loads = _loads(b)
    lt = np.flatnonzero(b == 60)
    det = lt[_starts_with(b, loads, lt, b'<kw file="') | _starts_with(b, loads, lt, b'<term file="')]
    if not len(det) or len(lt) != len(det) + 2 + 2 * len(bl):
        return None
    q = np.flatnonzero(b == 34)
    k = np.searchsorted(q, det)
    if k[-1] + 11 >= len(q):
        return None
    quote = [q[k + j] for j in range(12)]
    ok = quote[0] - det == np.where(b[det + 1] == 107, 9, 11)          # 'k': <kw file=
    for j, text in enumerate(_BETWEEN):
        gap = quote[2 * j + 2] - quote[2 * j + 1] - 1
        ok &= gap == len(text)
        ok &= _starts_with(b, loads, quote[2 * j + 1] + 1, text)
    end = quote[11] + 3                                                  # after '"/>'
    ok &= (end <= len(b)) & (b[np.minimum(quote[11] + 1, len(b) - 1)] == 47)
    ok &= b[np.minimum(quote[11] + 2, len(b) - 1)] == 62
    nxt = np.searchsorted(lt, det, side="right")                         # no '<' inside
    ok &= (nxt == len(lt)) | (lt[np.minimum(nxt, len(lt) - 1)] >= end)
    starts = np.array([m.start() for m in bl])
    ends = np.array([m.start() for m in _BLOCK_END.finditer(body)])
    blk = np.searchsorted(starts, det, side="right") - 1
    if (not ok.all() or len(ends) != len(bl) or (blk < 0).any() or (ends <= starts).any()
            or (ends[:-1] >= starts[1:]).any() or (det >= ends[np.maximum(blk, 0)]).any()):
        return None      # (blocks not one after the other, a detection outside its block)
    ids = _block_ids(bl)
    if ids is None:
        return None
    blocks, repeated = ids
    counts = np.bincount(blk, minlength=len(bl)).tolist()
    # the text between the detections: ranges [0, det0), [end0, det1), ..., [end_last, len)
    lo, hi = np.r_[0, end], np.r_[det, len(b)]
    if (hi < lo).any():
        return None
    return blocks, counts, [(quote[2 * j] + 1, quote[2 * j + 1]) for j in range(6)], _gather(b, lo, hi)[0].tobytes(), repeated


def _canonical_values(body: bytes, bounds: list, block: int = 1 << 16) -> Optional[tuple]:
    """(tbeg, dur, score, file names, file codes, channels, decisions) from the value bounds
    of _canonical (numbers as float() reads them, textfast.parse_floats; strings factorised in
    first-seen order), a block of detections at a time (small arrays); None for anything
    unusual (an empty or long value, a negative time, a channel or decision the exact parser
    must name)."""
    b = np.frombuffer(body, dtype=np.uint8)
    tables: list[dict[str, int]] = [{}, {}, {}]
    factorisers = [textfast.Factoriser(t) for t in tables]
    parts: list[list[np.ndarray]] = [[] for _ in range(6)]
    for lo in range(0, len(bounds[0][0]), block):
        cols = []
        for s, e in bounds:
            s, e = s[lo:lo + block], e[lo:lo + block]
            if (e == s).any():
                return None
            cols.append(_gather(b, s, e))        # the values of one column side by side
        for k, col in enumerate(cols):         # file, channel, tbeg, dur, score, decision
            if k in (2, 3, 4):
                got = textfast.parse_floats(*col)
            else:
                got = factorisers[min(k, 2)](col[0].tobytes(), *col)
            if got is None:
                return None
            parts[k].append(got)
    tb, du, sc = (np.concatenate(parts[k]) for k in (2, 3, 4))
    if (tb < 0).any() or (du < 0).any():
        return None
    fcodes, ccodes, dcodes = (np.concatenate(parts[k]) for k in (0, 1, 5))
    try:
        chan = np.asarray([int(c) for c in tables[1]], dtype=np.int32)[ccodes]
    except (ValueError, OverflowError):
        return None
    lut = {b"YES": YES, b"NO": NO, b"": UNSET}
    dec = [lut.get(v.encode("utf-8").strip().upper()) for v in tables[2]]
    if None in dec:
        return None
    return tb, du, sc, list(tables[0]), fcodes, chan, np.asarray(dec, dtype=np.int8)[dcodes]


def _read_xml_fast(path: str) -> Optional[Detections]:
    with open(path, "rb") as f:
        data = f.read()
    body = data
    if body.startswith(b"\xef\xbb\xbf"):
        body = body[3:]
    if body.lstrip().startswith(b"<?xml"):
        body = body[body.index(b"?>") + 2:]
    # anything unusual goes to the exact parser, which also checks the whole file (values are
    # decoded as UTF-8 here: another declared encoding too)
    try:
        data.isascii() or data.decode("utf-8")     # invalid UTF-8: the exact parser names the line
    except UnicodeDecodeError:
        return None
    if (not xmlsafe.utf8_declared(data) or b"&" in body or b"'" in body or (b"!" in body and b"<!" in body)
            or (b"?" in body and b"<?" in body)
            or (b":" in body and re.search(rb"</?[A-Za-z_][\w.-]*:", body))):   # memchr first
        return None
    m = re.search(rb"<([A-Za-z_][\w.-]*)(\s[^>]*)?>", body)
    if m is None or m.group(1) not in (b"kwslist", b"stdlist"):
        return None  # let the exact parser produce the message
    root = m.group(1).decode()
    header = _tag_attrs(m.group(2) or b"")
    bl = list(_BLOCK.finditer(body))
    if not bl:
        return None
    canon = _canonical(body, bl)
    if canon is not None:
        return _read_canonical(path, data, body, canon, header, root)
    got = _split_blocks(body, bl, _STRICT)
    strict = got is not None
    got = got or _split_blocks(body, bl, _CANON)    # detections with more after their attributes
    if got is None:
        return None
    blocks, counts, cols, rest, repeated = got
    n = sum(counts)
    # well-formedness and safety first: a malformed file is reported as such whatever else it has
    if strict:
        xmlsafe.check_without(path, data, data[:len(data) - len(body)] + b"".join(rest), utf8=True)
    else:
        xmlsafe.check(path)
    _refuse_repeated_block(repeated, path)
    fcol, ccol, tcol, dcol, scol, decol = cols
    tb, du, sc = _times_and_scores(tcol, dcol, scol, path, blocks, counts)
    fvoc = {v: i for i, v in enumerate(dict.fromkeys(fcol))}
    fcodes = np.fromiter(map(fvoc.__getitem__, fcol), dtype=np.int64, count=n)
    fmap = {v.decode("utf-8"): i for v, i in fvoc.items()}
    cvoc = {v: i for i, v in enumerate(dict.fromkeys(ccol))}
    try:
        clut = np.asarray([int(c) for c in cvoc], dtype=np.int32)
    except (ValueError, OverflowError):
        return None  # the exact parser names the offending detection
    if len(cvoc) == 1:      # one channel (the usual case): no code per detection to look up
        chan = np.full(n, clut[0], dtype=np.int32)
    else:
        chan = clut[np.fromiter(map(cvoc.__getitem__, ccol), dtype=np.int64, count=n)]
    dvoc = {v: i for i, v in enumerate(dict.fromkeys(decol))}
    lut = []
    for v in dvoc:
        v = v.strip().upper()
        if v == b"YES":
            lut.append(YES)
        elif v == b"NO":
            lut.append(NO)
        elif v == b"":
            lut.append(UNSET)
        else:
            return None  # the exact parser names the offending detection
    dec = np.asarray(lut, dtype=np.int8)[np.fromiter(map(dvoc.__getitem__, decol), dtype=np.int64, count=n)]
    return _assemble(path, header, root, blocks, counts, fmap, fcodes, chan, (tb, du, sc, dec))


def _refuse_repeated_block(repeated: Optional[tuple[str, str]], path: str) -> None:
    if repeated is not None:
        raise InputError(f"term '{clip(repeated[0])}' has a second detected_{repeated[1]} block (F4DE "
                         "would count its references twice); merge the blocks", path)


def _assemble(path: str, header: dict, root: str, blocks: list[str], counts: list[int], fmap: dict,
              fcodes: np.ndarray, chan: np.ndarray, values: tuple) -> Detections:
    """The Detections of a bulk-read file: blocks in order, file codes through their ids."""
    tb, du, sc, dec = values
    file_ids, fremap = _vocab_codes(fmap, file_id)
    mn, mx = _score_range(header, path)
    return Detections(term_ids=list(blocks), file_ids=file_ids,
                      term=np.repeat(np.arange(len(blocks), dtype=np.int32), counts),
                      file=fremap[fcodes], chan=chan, tbeg=tb, dur=du, score=sc, decision=dec,
                      fmt=root, blocks=list(blocks), min_score=mn, max_score=mx,
                      system_id=header.get("system_id", ""), path=path)


def _read_canonical(path: str, data: bytes, body: bytes, canon: tuple, header: dict, root: str) -> Optional[Detections]:
    """The Detections of a canonical file (_canonical), after the same checks as the regex
    path, in the same order: well-formedness and safety, then a repeated block."""
    blocks, counts, bounds, rest, repeated = canon
    xmlsafe.check_without(path, data, data[:len(data) - len(body)] + rest, utf8=True)
    _refuse_repeated_block(repeated, path)
    vals = _canonical_values(body, bounds)
    if vals is None:
        return None
    tb, du, sc, fnames, fcodes, chan, dec = vals
    fmap = {name: i for i, name in enumerate(fnames)}
    return _assemble(path, header, root, blocks, counts, fmap, fcodes, chan, (tb, du, sc, dec))
