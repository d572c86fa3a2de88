"""Term lists: NIST STD 2006 / MediaEval TLIST and BABEL/Kaldi KWLIST (docs/std.md §1.3).

Element mapping: termlist/kwlist, term[termid]/kw[kwid], termtext/kwtext,
terminfo/kwinfo (or attr directly under term) -> attr(name, value).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from termeval.core.errors import InputError
from termeval.core.textio import iter_lines
from termeval.std import xmlsafe
from termeval.std.userregex import UserRegex


@dataclass
class TermList:
    """ids[i], texts[i], attrs[i] (dict name -> value), in file order."""
    ids: list[str]
    texts: list[str]
    attrs: list[dict] = field(default_factory=list)
    compare_normalize: str = ""
    dialect: str = "kwlist"   # 'kwlist' | 'termlist' | 'kaldi'
    language: str = ""
    path: str = ""

    def __len__(self) -> int:
        return len(self.ids)

    def index(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.ids)}

    def select(self, name: str, regex: str) -> list[int]:
        """Indices of the terms whose attribute `name` fully matches `regex` (F4DE -q). An
        attribute no term has, or a regex no value matches, would leave nothing to score (F4DE
        prints every figure empty): refused, naming the option and what the terms do have."""
        rx = compile_term_regex(regex)
        self.check_attribute(name, "--term-attr")
        chosen = [i for i, a in enumerate(self.attrs) if name in a and rx.fullmatch(a[name])]
        if not chosen:
            values = sorted({a[name] for a in self.attrs if name in a})
            shown = ", ".join(values[:10]) + (f", ... ({len(values)} values)" if len(values) > 10 else "")
            raise InputError(f"--term-attr: '{xmlsafe.clip(regex)}' matches the attribute '{name}' "
                             f"of no term (its values: {xmlsafe.clip(shown)})", self.path or None)
        return chosen

    def check_attribute(self, name: str, option: str) -> None:
        check_attribute(self.attrs, name, option, self.path or None)


def check_attribute(attrs: list[dict], name: str, option: str, path: str | None = None) -> None:
    """Refuse `option` (--term-attr, --breakdown attr:NAME) naming an attribute no term has."""
    if any(name in a for a in attrs):
        return
    have = sorted({k for a in attrs for k in a})
    what = f"attributes: {', '.join(have)}" if have else "the term list has no attributes"
    raise InputError(f"{option}: no term has the attribute '{xmlsafe.clip(name)}' "
                     f"({xmlsafe.clip(what)})", path)


def compile_term_regex(regex: str) -> UserRegex:
    """The pattern of --term-attr (KWSEval -q), its matching time bounded (std.userregex)."""
    return UserRegex(regex, "--term-attr")


def parse_term_attr(spec: str) -> tuple[str, str]:
    """--term-attr NAME:REGEX (or NAME:regex=REGEX, F4DE's -q form) -> (name, regex), the
    regex checked now so a typo is reported before anything is read."""
    name, colon, rx = spec.partition(":")
    if not colon or not name:
        raise InputError(f"--term-attr: expected NAME:REGEX, got '{xmlsafe.clip(spec)}'")
    if rx.startswith("regex="):
        rx = rx[len("regex="):]
    compile_term_regex(rx)
    return name, rx



def read_termlist(path: str, check: "Callable[[str, str], None] | None" = None) -> TermList:
    """Read a TLIST (`termlist`) or KWLIST (`kwlist`) XML file. Duplicate ids are errors.
    check(id, text), if given, is called at each </kw> (</term>) with the raw text ('' when
    missing): an InputError it raises names the file and that line."""
    ids: list[str] = []
    texts: list[str] = []
    attrs: list[dict] = []
    meta: dict = {}
    state: dict = {"text": None, "attr": None, "field": None, "buf": [], "had_text": None}
    seen: dict[str, int] = {}

    def start(tag: str, a: dict) -> None:
        if not meta:
            if tag not in ("kwlist", "termlist"):
                raise InputError(f"expected a <kwlist> or <termlist> root element, found <{xmlsafe.clip(tag)}>")
            meta.update(a)
            meta["_dialect"] = tag
            return
        if tag in ("kw", "term"):
            tid = a.get("kwid", a.get("termid"))
            if tid is None:
                raise InputError(f"<{tag}> without kwid/termid")
            if tid in seen:
                raise InputError(f"duplicate term id '{xmlsafe.clip(tid)}'")
            seen[tid] = len(ids)
            ids.append(tid)
            texts.append("")
            attrs.append({})
            state["had_text"] = None
        elif tag in ("kwtext", "termtext"):
            state["text"] = True
            state["had_text"] = tag
            state["buf"] = []
        elif tag == "attr":
            state["attr"] = {}
        elif tag in ("name", "value") and state["attr"] is not None:
            state["field"] = tag
            state["buf"] = []

    def end(tag: str) -> None:
        if tag in ("kw", "term") and check is not None and ids:
            check(ids[-1], texts[-1])
        if tag in ("kw", "term") and ids and state["had_text"] and not texts[-1]:
            raise InputError(f"term '{xmlsafe.clip(ids[-1])}': empty <{state['had_text']}> (a term is "
                             "searched by its words; leave the element out for a query named by its id)")
        if tag in ("kwtext", "termtext") and state["text"]:
            if ids:
                texts[-1] = "".join(state["buf"]).strip()
            state["text"] = None
        elif tag in ("name", "value") and state["field"] == tag:
            state["attr"][tag] = "".join(state["buf"]).strip()
            state["field"] = None
        elif tag == "attr" and state["attr"] is not None:
            at = state["attr"]
            if ids and "name" in at:
                attrs[-1][at["name"]] = at.get("value", "")
            state["attr"] = None

    def text(data: str) -> None:
        if state["text"] or state["field"]:
            state["buf"].append(data)

    xmlsafe.parse(path, start, end, text)
    if not meta:
        raise InputError("empty term list", path)
    for i, t in enumerate(texts):
        if not t:
            texts[i] = ids[i]  # QbE lists sometimes omit the text: the id is the query
    dialect = "termlist" if meta["_dialect"] == "termlist" else "kwlist"
    return TermList(ids, texts, attrs, meta.get("compareNormalize", ""), dialect,
                    meta.get("language", ""), path)


def read_keywords_txt(path: str) -> TermList:
    """Kaldi `keywords.txt`: `KWID word1 word2 ...` per line."""
    ids, texts = [], []
    seen = set()
    for lineno, line in iter_lines(path):
        parts = line.split(None, 1)
        if not parts:
            continue
        if parts[0] in seen:
            raise InputError(f"duplicate keyword id '{xmlsafe.clip(parts[0])}'", path, lineno)
        seen.add(parts[0])
        ids.append(parts[0])
        texts.append(parts[1].strip() if len(parts) > 1 else parts[0])
    return TermList(ids, texts, [{} for _ in ids], "", "kaldi", "", path)
