"""F4DE AutoTable's HTML rendering (AutoTable::renderHTMLTable, 3.5.0), what KWSEval `-y HTML`
writes: one `<table border=1 >`, a header row per column level (a group spanning its
consecutive columns, `colspan=N` when it has more than one), then one `<tr>` per row: with the
key column kept, the row labels as `<th>` cells spanning the rows that share them (`rowspan=N`)
and an HTML comment in place of a label already shown; each cell `<td  align="right" >` (the
header table: `left`) followed by a comment naming its row and column ids. An empty or missing
cell is `&nbsp;`; a cell with a `url={...}` special is wrapped in `<a href="...">`. Cell texts
are written as they are (AutoTable escapes nothing). Whitespace and comments are F4DE's, byte
for byte.
"""
from __future__ import annotations

import re

_URL = re.compile(r"url=\{([^}]+?)\}")


def _split(cid: str) -> list[str]:
    """AutoTable's _safeSplit on `|` (an escaped `\\|` is kept inside a label)."""
    return re.split(r"(?<!\\)\|", cid)


def _anchor(special: str) -> tuple[str, str]:
    """(before, after) of a cell's special (KWSEval uses `url={...}` only)."""
    before, after = [], []
    for url in _URL.findall(special or ""):
        before.append(f'<a href="{url}">')
        after.insert(0, "</a>")
    return "".join(before), "".join(after)


def _col_nodes(col_ids: list[str]) -> list[list[tuple[str, list[str]]]]:
    """Per column level, the header nodes: (label, the column ids under it), consecutive equal
    labels under the same parent merged, as AutoTable::_buildTree."""
    out = []
    parents = [col_ids]
    for lv in range(len(_split(col_ids[0]))):
        nodes: list[tuple[str, list[str]]] = []
        for ids in parents:
            last = None
            for cid in ids:
                lab = _split(cid)[lv]
                if lab != last:
                    nodes.append((lab, []))
                last = lab
                nodes[-1][1].append(cid)
        parents = [subs for _, subs in nodes]
        out.append(nodes)
    return out


def render_html(col_ids: list[str], row_ids: list[str], data: dict, specials: dict, key_column: bool,
                align: str = "right") -> str:
    """The table: `data` {(row id, col id): text}, `specials` {(row id, col id): special}."""
    if not data:
        return "Warning: Empty table.  Nothing to produce.\n"
    levels = _col_nodes(col_ids)
    row_labels = [_split(r) for r in row_ids]
    n_row_levels = len(row_labels[0]) if row_labels else 0
    out = ["<table border=1 >\n"]
    for lv, nodes in enumerate(levels):
        out.append("<tr>\n")
        if key_column and lv == 0:
            out.append(f"  <th rowspan={len(levels)} colspan={n_row_levels}> &nbsp; </th>\n")
        for lab, subs in nodes:
            span = f" colspan={len(subs)}" if len(subs) > 1 else ""
            out.append(f"  <th{span} > {lab}  </th>\n")
        out.append("</tr>\n")
    leaves = [subs[0] for _, subs in levels[-1]]
    last = [""] * n_row_levels
    for r, rid in enumerate(row_ids):
        out.append("<tr>\n")
        ids = row_labels[r]
        if key_column:
            for lv in range(n_row_levels):
                show = last[lv] != ids[lv]
                if show:
                    for k in range(lv + 1, n_row_levels):
                        last[k] = ""
                    span = 0
                    for la in range(r, len(row_ids)):
                        if row_labels[la][lv] != ids[lv] or any(row_labels[la][k] != ids[k] for k in range(lv)):
                            break
                        span += 1
                    out.append(f"  <th{f' rowspan={span}' if span > 1 else ''} > {ids[lv]} </th>\n")
                else:
                    out.append("  <!-- <th> &nbsp; </th> -->\n")
                last[lv] = ids[lv]
        for cid in leaves:
            v = data.get((rid, cid))
            if v is None or not str(v).strip():
                v = "&nbsp;"
            h1, h2 = _anchor(specials.get((rid, cid), ""))
            out.append(f'  <td  align="{align}" > {h1}{v}{h2} </td>  <!-- {rid} {cid}  --> \n')
        out.append("</tr>\n")
    out.append("</table>\n")
    return "".join(out)
