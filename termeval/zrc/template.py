"""A zrc TDE17 submission template (steps/score_zrc_submission.sh --init <dir>, termeval
score-zrc-submission --init <dir>): meta.yaml with every field of zerospeech-benchmarks 0.9.4's
tde17 template, each to fill in a `<...>` placeholder that the meta.yaml check
(termeval.zrc.submission.check_meta) refuses until it is replaced (one error line per field),
and params.yaml with zrc's defaults. No network (zrc's `submission:init` needs it). Both files
are written or neither (a full disk leaves no meta.yaml without its params.yaml). An existing
meta.yaml or params.yaml is never overwritten: the init is refused, naming it, and nothing is
written -- unless it is byte for byte termeval's untouched template, which an interrupted
--init left: the template is then completed.
"""
from __future__ import annotations

import contextlib
import os

from termeval.core import publish
from termeval.core.errors import InputError

META_TEMPLATE = """\
# meta.yaml of a ZeroSpeech TDE17 submission (the fields of zerospeech-benchmarks 0.9.4's template),
# written by termeval (score_zrc_submission --init). Replace every "<...>" value: scoring refuses a
# submission while one is left (one error line naming the field). A field marked optional or
# recommended may be set to null instead.
username: "<your zerospeech.com user name>"
submission_id: "<optional: an id of this submission>"
benchmark_name: tde17
model_info:
  model_id: "<optional: an id of the model>"
  system_description: "<a short description of the system>"
  train_set: "<the data the system was trained on>"
  gpu_budget: "<recommended: the GPU training time, e.g. 60 hours>"
publication:
  author_label: "<optional: e.g. Doe et al.>"
  authors: "<the authors, e.g. J. Doe and A. Smith>"
  paper_title: "<recommended: the title of the paper>"
  paper_url: "<recommended: the URL of the paper>"
  publication_year: "<the year of the publication, e.g. 2024>"
  bib_reference: "<optional: a BibTeX entry>"
  DOI: "<optional: the DOI of the paper>"
  institution: "<the institution>"
  team: "<optional: the team>"
open_source: "<true or false>"
code_url: "<recommended: the URL of the system's code>"
"""

PARAMS_TEMPLATE = """\
# params.yaml of a ZeroSpeech TDE17 submission (zerospeech-benchmarks 0.9.4's defaults).
# njobs: the jobs per language (the default of --nj); quiet: zrc's progress output.
quiet: false
njobs: 1
"""

FILES = {"meta.yaml": META_TEMPLATE, "params.yaml": PARAMS_TEMPLATE}


def init_submission(path: str) -> list[str]:
    """Write meta.yaml and params.yaml into `path` (made if missing), both or neither
    (termeval.core.publish.all_or_none: a full disk leaves no half template); the paths written.
    A meta.yaml or params.yaml already there is refused (InputError, nothing written) unless it
    is byte for byte termeval's own untouched template (what an interrupted --init left): then
    the template is completed. A `path` that is not a directory is refused too."""
    if os.path.lexists(path) and not os.path.isdir(path):
        raise InputError("exists and is not a directory (--init writes the submission template into a directory)",
                         path)
    for name, text in FILES.items():
        full = os.path.join(path, name)
        if os.path.lexists(full) and not _is_template(full, text):
            raise InputError("exists: --init never overwrites a submission's meta.yaml or params.yaml "
                             "(move it away to write the template)", full)
    made = not os.path.isdir(path)
    written = [os.path.join(path, name) for name in FILES]
    try:
        with publish.all_or_none(written) as tmps:
            for (name, text), full in zip(FILES.items(), written):
                with open(tmps[full], "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
    except BaseException as e:
        if made:                          # the directory --init made: gone with its template
            with contextlib.suppress(OSError):
                os.rmdir(path)
        if isinstance(e, OSError) and e.filename is None and e.errno is not None:
            # a write or close that failed (a full disk) names no file: name the template's place
            raise OSError(e.errno, e.strerror, path) from None
        raise
    return written


def _is_template(path: str, text: str) -> bool:
    """Whether `path` is a regular file holding exactly `text` (termeval's untouched template)."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) != len(text.encode()):
            return False
        with open(path, encoding="utf-8", newline="") as f:
            return f.read() == text
    except (OSError, UnicodeDecodeError):
        return False
