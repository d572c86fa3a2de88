"""Safe, streamed XML reading for the STD inputs (ECF, TLIST/KWLIST, STDLIST/KWSLIST).

The files are parsed with expat in chunks (constant memory, no element tree is built), with
the same hardening as defusedxml: any entity declaration (the "billion laughs" attack), any
unparsed or external entity reference is refused before it can be expanded. Handlers receive
plain (tag, attributes) with namespaces stripped; errors become `InputError` naming the file
and line.
"""
from __future__ import annotations

import re
from typing import Callable, Optional
from xml.parsers import expat

from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden

from termeval.core.errors import InputError

StartHandler = Callable[[str, dict], None]
EndHandler = Callable[[str], None]
TextHandler = Callable[[str], None]

_CHUNK = 1 << 20
CLIP = 200


def clip(text, limit: int = CLIP) -> str:
    """An input value or line as quoted in an error message: at most ~`limit` characters
    (bytes are decoded leniently), so a 1 MB line never becomes a 1 MB message."""
    if isinstance(text, bytes):
        text = text[: limit * 4].decode("utf-8", "replace")
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"...[{len(text) - limit} more characters]"


def local_name(tag: str) -> str:
    """'{ns}kw' or 'ns:kw' -> 'kw'."""
    if "}" in tag:
        tag = tag.rsplit("}", 1)[1]
    if ":" in tag:
        tag = tag.rsplit(":", 1)[1]
    return tag


def check(path: str) -> None:
    """Well-formedness and safety check only (no element callbacks: runs at expat speed)."""
    parse(path, None)


def parse(path: str, start: Optional[StartHandler], end: Optional[EndHandler] = None,
          text: Optional[TextHandler] = None) -> None:
    """Stream `path` through expat, calling start(tag, attrs), end(tag) and text(data).

    Raises InputError for malformed XML, entity declarations and external references.
    Handlers may raise InputError themselves; the current line is filled in if missing.
    """
    p = expat.ParserCreate()
    p.buffer_text = True

    def _entity_decl(name, is_param, value, base, sysid, pubid, notation):
        raise EntitiesForbidden(name, value, base, sysid, pubid, notation)

    def _unparsed(name, base, sysid, pubid, notation):
        raise EntitiesForbidden(name, None, base, sysid, pubid, notation)

    def _external(context, base, sysid, pubid):
        raise ExternalReferenceForbidden(context, base, sysid, pubid)

    p.EntityDeclHandler = _entity_decl
    p.UnparsedEntityDeclHandler = _unparsed
    p.ExternalEntityRefHandler = _external
    if start is not None:
        p.StartElementHandler = lambda tag, attrs: start(local_name(tag), attrs)
    if end is not None:
        p.EndElementHandler = lambda tag: end(local_name(tag))
    if text is not None:
        p.CharacterDataHandler = text
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(_CHUNK)
                if not chunk:
                    break
                p.Parse(chunk, False)
            p.Parse(b"", True)
    except expat.ExpatError as e:
        raise InputError(f"malformed XML: {expat.ErrorString(e.code)} (column {e.offset})",
                         path, e.lineno) from None
    except (EntitiesForbidden, ExternalReferenceForbidden, DTDForbidden) as e:
        raise InputError("XML entity declarations and external entities are refused "
                         f"(possible entity-expansion attack): {clip(e)}", path, p.CurrentLineNumber) from None
    except InputError as e:
        if e.path is None:
            raise InputError(e.message, path, p.CurrentLineNumber) from None
        raise
    except (LookupError, ValueError) as e:  # after EntitiesForbidden, itself a ValueError
        if not isinstance(e, LookupError) and "encoding" not in str(e):
            raise
        # <?xml version="1.0" encoding="UTF-9"?>: no such codec (or one expat cannot use)
        raise InputError(f"unsupported XML encoding ({clip(e)}); use UTF-8", path, p.CurrentLineNumber) from None


_CONTROL = bytes(range(0x09)) + b"\x0b\x0c" + bytes(range(0x0e, 0x20))   # not XML 1.0 characters
_ENCODING = re.compile(rb"""<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]*)["']""")


def check_without(path: str, data: bytes, rest: bytes, utf8: bool = False) -> None:
    """check(path) for the file `data` when the elements taken out of it, leaving `rest`, are
    well-formed by themselves (self-closing, plain attributes without '<' or '&'): a UTF-8 file
    of XML characters only is then well-formed when `rest` is, which expat reads in a fraction
    of the time. Anything else, or a `rest` expat refuses, is checked whole (the error names
    the line of the problem). utf8: the caller has already decoded `data` as UTF-8."""
    ascii = data.isascii()     # (then neither U+FFFE/F nor invalid UTF-8 can be in it)
    # (a one-byte test first: memchr, where the three-byte search costs 10 ms for 20 MB)
    if (not (b"]" in data and b"]]>" in data)
            and (ascii or (b"\xef\xbf\xbe" not in data and b"\xef\xbf\xbf" not in data))
            and len(data.translate(None, _CONTROL)) == len(data) and utf8_declared(data)):
        try:
            if not (utf8 or ascii):
                data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if well_formed(rest):
                return
    check(path)


def utf8_declared(data: bytes) -> bool:
    """Whether the XML declaration of `data` (its start) says UTF-8 or no encoding (UTF-8)."""
    m = _ENCODING.match(data.lstrip(b"\xef\xbb\xbf \t\r\n"))
    return m is None or m.group(1).lower() in (b"utf-8", b"utf8")


def _refusing_parser():
    """An expat parser that refuses entity declarations and external references (no names
    kept: for the yes/no checks; `parse` names them in its messages)."""
    p = expat.ParserCreate()

    def _refuse(*a):
        raise EntitiesForbidden(*([None] * 6))

    p.EntityDeclHandler = _refuse
    p.UnparsedEntityDeclHandler = _refuse
    p.ExternalEntityRefHandler = _refuse
    return p


def well_formed(data: bytes) -> bool:
    """Whether expat accepts `data` as a whole document, with the same refusals as parse()."""
    p = _refusing_parser()
    try:
        p.Parse(data, True)
    except (expat.ExpatError, EntitiesForbidden, LookupError, ValueError):
        return False
    return True


def sniff_root(path: str, max_bytes: int = 65536) -> Optional[str]:
    """Local name of the root element, or None if the file does not look like XML."""
    with open(path, "rb") as f:
        head = f.read(max_bytes)
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not stripped.startswith(b"<"):
        return None
    root: list[str] = []

    class _Stop(Exception):
        pass

    def _start(tag, attrs):
        root.append(tag)
        raise _Stop

    try:
        parse_bytes(head, _start)
    except _Stop:
        pass
    except InputError:
        return "?"
    return root[0] if root else "?"


def parse_bytes(data: bytes, start: StartHandler) -> None:
    p = _refusing_parser()
    p.StartElementHandler = lambda tag, attrs: start(local_name(tag), attrs)
    try:
        p.Parse(data, False)
    except (expat.ExpatError, EntitiesForbidden, LookupError, ValueError):
        raise InputError("not well-formed XML") from None
