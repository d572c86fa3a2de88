"""issue 31: every `docs/<page>.md §N` reference (help texts of steps/, utils/, termeval/bin/, the
library's docstrings, docs/ and README.md) names a heading numbered N of that page, also the
further sections of a list (`docs/guide.md §2, §6, §7.4`); the seed modes' help points to the seed
documents' section (it said §11, the regression values). issue 35: docs/README.md lists every page
of docs/, one line each, and every page it lists exists."""
from __future__ import annotations

import glob
import os
import re

N = r"\d+(?:\.\d+)*[a-z]?"
REF = re.compile(rf"(?:docs/)?([a-z][a-z0-9-]*)\.md[,:]?\s*\(?§\s?({N})((?:,\s*§\s?{N})*)"
                 rf"|§\s?({N}) (?:of|in) (?:docs/)?([a-z][a-z0-9-]*)\.md")
HEAD = re.compile(r"^#+\s+(\d+(?:\.\d+)*[a-z]?)[.\s]+(.*)$", re.M)


def headings(root):
    return {os.path.basename(p)[:-3]: dict(HEAD.findall(open(p, encoding="utf-8").read()))
            for p in glob.glob(os.path.join(root, "docs", "*.md"))}


def references(root):
    files = (glob.glob(f"{root}/steps/*.sh") + glob.glob(f"{root}/utils/*.sh") + glob.glob(f"{root}/local/*.sh")
             + glob.glob(f"{root}/termeval/**/*.py", recursive=True) + glob.glob(f"{root}/docs/*.md")
             + [f"{root}/README.md"])
    for f in files:
        # a reference may be wrapped over comment lines: join them
        text = re.sub(r"\n[ \t]*#?[ \t]*", " ", open(f, encoding="utf-8").read())
        for m in REF.finditer(text):
            if m.group(1):
                for n in [m.group(2)] + re.findall(N, m.group(3) or ""):
                    yield os.path.relpath(f, root), m.group(1), n
            else:
                yield os.path.relpath(f, root), m.group(5), m.group(4)


def test_every_section_reference_names_a_heading(root):
    heads = headings(root)
    refs = [(f, p, n) for f, p, n in references(root) if p in heads]
    assert len(refs) > 20
    bad = [f"{f}: docs/{p}.md §{n}" for f, p, n in refs if n not in heads[p]]
    assert bad == []


def test_seed_modes_help_points_to_the_seed_documents_section(root):
    heads = headings(root)
    text = open(f"{root}/steps/score_tde.sh", encoding="utf-8").read()
    [n] = re.findall(r"docs/tde\.md §(\d+)", text)
    assert "seed documents" in heads["tde"][n]


def test_docs_index_lists_every_page_once(root):
    pages = sorted(os.path.basename(p) for p in glob.glob(os.path.join(root, "docs", "*.md"))
                   if os.path.basename(p) != "README.md")
    index = open(os.path.join(root, "docs", "README.md"), encoding="utf-8").read()
    listed = re.findall(r"^- \[([a-z0-9-]+\.md)\]\(\1\): \S", index, re.M)
    assert sorted(listed) == pages                     # every page, once, each with its line


def test_guide_list_references_are_checked(root):
    refs = {(f, p, n) for f, p, n in references(root)}
    assert ("README.md", "guide", "10") in refs        # the last of `docs/guide.md §2, §6, §7, §10`
