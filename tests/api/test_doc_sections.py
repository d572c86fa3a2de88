"""issue 31: every `docs/<page>.md §N` reference (help texts of steps/, utils/, termeval/bin/, the
library's docstrings, docs/ and README.md) names a heading numbered N of that page; the seed
modes' help points to the seed documents' section (it said §11, the regression values)."""
from __future__ import annotations

import glob
import os
import re

REF = re.compile(r"(?:docs/)?([a-z][a-z0-9-]*)\.md[,:]?\s*\(?§\s?(\d+(?:\.\d+)*[a-z]?)"
                 r"|§\s?(\d+(?:\.\d+)*[a-z]?) (?:of|in) (?:docs/)?([a-z][a-z0-9-]*)\.md")
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
            page, n = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            yield os.path.relpath(f, root), page, n


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
