"""A zrc TDE17 submission directory, read and checked as zrc (zerospeech-benchmarks 0.9.4) does.

  DIR/<lang>.txt   ZeroSpeech class files, lang in english french mandarin german wolof
  DIR/meta.yaml    username, submission_id, benchmark_name (tde17), model_info{model_id,
                   system_description, train_set, gpu_budget}, publication{author_label, authors,
                   paper_title, paper_url, publication_year, bib_reference, DOI, institution,
                   team}, open_source, code_url
  DIR/params.yaml  njobs, quiet (optional; zrc writes the defaults when absent, we do not write)
  (termeval.zrc.template writes both, to fill in: score_zrc_submission --init DIR)

meta.yaml rules (zrc's MetaFile and its validation): required fields typed as zrc's model
(benchmark_name one of its names, open_source a boolean, publication_year an integer); errors on
a string field starting with a `<...>` template placeholder and on a missing or empty
username, publication.authors, publication.institution, publication.publication_year,
model_info.system_description or model_info.train_set; warnings on a missing
publication.paper_title, publication.paper_url, model_info.gpu_budget or code_url.
Every error is one line `meta.yaml:<line>: <field>: <problem>`. A string field (username,
submission_id, code_url, model_info's and publication's fields but publication_year) takes a
string or a number, as zrc's model coerces it; a list, a mapping or true/false is refused.

YAML files are read with aliases (`*name`) refused and at most MAX_YAML_BYTES (64 kB): an alias
bomb ("billion laughs") is one error line, not a hang. params.yaml's njobs must be an integer
from 1 to MAX_NJOBS (1024); anything else is refused, naming params.yaml and its line.

Class files: zrc 0.9.4 scores all five languages and refuses a submission whose `<lang>.txt` is
not a regular file ("Given TDE Disc file does not exist": missing, a directory, a dangling
symlink, a symlink loop) or is empty (tdev2's Disc fails: "list index out of range"); so do we,
naming the file and zrc's rule. With partial=True (--partial true) the languages there are
scored and each missing or empty one is a warning.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from termeval.classes.fast import plain_syntax
from termeval.classes.tokens import class_file_tokens, is_header
from termeval.core.errors import InputError
from termeval.core.options import MAX_JOBS

from termeval.zrc.options import LANGUAGES  # noqa: E402,F401  (declared with the options)
BENCHMARK_NAMES = ("tde17", "test-tde17")
META_FIELDS = {
    "": ("username", "submission_id", "benchmark_name", "model_info", "publication", "open_source", "code_url"),
    "model_info": ("model_id", "system_description", "train_set", "gpu_budget"),
    "publication": ("author_label", "authors", "paper_title", "paper_url", "publication_year",
                    "bib_reference", "DOI", "institution", "team"),
}
_TEMPLATE = re.compile(r"<.*>")
TEMPLATE_ERROR = "has value from template"
# zrc's rules: a required field empty or missing is an error; a recommended one a warning
REQUIRED_FIELDS = ("username", "benchmark_name", "model_info", "model_info.system_description",
                   "model_info.train_set", "publication", "publication.authors", "publication.publication_year",
                   "publication.institution", "open_source")
RECOMMENDED_FIELDS = ("model_info.gpu_budget", "publication.paper_title", "publication.paper_url", "code_url")


def template_error(key: str) -> str:
    """The error of a `<...>` placeholder left in field `key`, saying what may replace it."""
    if key in REQUIRED_FIELDS:
        return f"{TEMPLATE_ERROR} (replace the <...> placeholder: a required field)"
    kind = "a recommended" if key in RECOMMENDED_FIELDS else "an optional"
    return f"{TEMPLATE_ERROR} (replace the <...> placeholder, or set it to null: {kind} field)"
STRING_FIELDS = ("username", "submission_id", "code_url", "model_info.model_id",
                 "model_info.system_description", "model_info.train_set", "model_info.gpu_budget",
                 "publication.author_label", "publication.authors", "publication.paper_title",
                 "publication.paper_url", "publication.bib_reference", "publication.DOI",
                 "publication.institution", "publication.team")
MAX_YAML_BYTES = 64 * 1024
MAX_NJOBS = MAX_JOBS       # as --nj (termeval/core/options.py)


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader refusing aliases: meta.yaml and params.yaml need none, and an alias bomb
    would otherwise expand to billions of items when a value is printed or checked."""

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, f"alias *{event.anchor} not accepted "
                                              "(aliases are refused in this file)", event.start_mark)
        return super().compose_node(parent, index)


@dataclass
class Submission:
    path: str
    meta: dict
    params: dict                      # njobs, quiet (zrc's defaults filled in)
    class_files: dict[str, str]       # language -> class file, in zrc's language order
    skipped: list[str] = field(default_factory=list)    # empty class files (partial)
    warnings: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)    # no regular class file (partial)


class MetaErrors(InputError):
    """Several meta.yaml problems: `lines` are all of them, one line each."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__(lines[-1])
        self.preceding = tuple(lines[:-1])      # printed as error lines before the last one

    def format(self) -> str:
        return self.message


def _load_yaml(path: str) -> tuple[Any, dict[str, int]]:
    """The YAML document and the line of each dotted key (for the error lines)."""
    try:
        with open(path, "rb") as fb:
            raw = fb.read(MAX_YAML_BYTES + 1)
        if len(raw) > MAX_YAML_BYTES:
            raise InputError(f"larger than {MAX_YAML_BYTES // 1024} kB: not a zrc YAML file", path)
        text = raw.decode("utf-8")
        loader = _NoAliasLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except RecursionError:
        raise InputError("not valid YAML: nested too deeply", path) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise InputError(f"not valid YAML: {e.problem or e.context}", path,
                         mark.line + 1 if mark else None) from None
    except yaml.YAMLError as e:
        raise InputError(f"not valid YAML: {e}", path) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path) from None
    lines: dict[str, int] = {}

    def walk(n: Any, prefix: str) -> None:
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = prefix + str(k.value)
                lines[key] = k.start_mark.line + 1
                walk(v, key + ".")
    walk(node, "")
    return data, lines


def check_meta(path: str) -> tuple[dict, list[str]]:
    """meta.yaml checked with zrc's rules -> (meta, warning lines); MetaErrors lists every error."""
    if not os.path.isfile(path):
        raise InputError("missing: a zrc submission needs meta.yaml (score_zrc_submission --init <dir> "
                         "writes the template to fill in, no network needed)", path)
    data, at = _load_yaml(path)
    if not isinstance(data, dict):
        raise InputError("expected a mapping of fields (username, benchmark_name, model_info, ...)", path, 1)
    errors: list[tuple[bool, int, str]] = []      # (not required, line, error line)
    warnings: list[str] = []

    def line_of(key: str) -> int | None:
        return at.get(key) or at.get(key.rsplit(".", 1)[0]) if "." in key else at.get(key)

    def where(key: str) -> str:
        line = line_of(key)
        return f"{path}:{line}" if line else path

    # a `<...>` placeholder left from the template is the one error of its field (not also its type)
    templated = {prefix + k for prefix, obj in (("", data), ("model_info.", data.get("model_info")),
                                                ("publication.", data.get("publication")))
                 if isinstance(obj, dict) for k, v in obj.items() if isinstance(v, str) and _TEMPLATE.match(v)}

    def err(key: str, msg: str) -> None:
        if key in templated and not msg.startswith(TEMPLATE_ERROR):
            return
        errors.append((key not in REQUIRED_FIELDS, line_of(key) or 0, f"{where(key)}: {key}: {msg}"))

    def warn(key: str, msg: str) -> None:
        warnings.append(f"{where(key)}: {key}: {msg}")

    # the model's types (pydantic would refuse these before any validation rule)
    for key in STRING_FIELDS:
        sect, _, name = key.rpartition(".")
        obj = data.get(sect) if sect else data
        v = obj.get(name) if isinstance(obj, dict) else None
        if isinstance(v, (bool, list, dict)) or not isinstance(v, (str, int, float, type(None))):
            kind = ("true/false" if isinstance(v, bool) else "a list" if isinstance(v, list)
                    else "a mapping" if isinstance(v, dict) else type(v).__name__)
            err(key, f"expected a string, got {kind}")
    for sect in ("model_info", "publication"):
        if sect not in data or data[sect] is None:
            err(sect, "missing (a mapping of " + ", ".join(META_FIELDS[sect]) + ")")
        elif not isinstance(data[sect], dict):
            err(sect, "expected a mapping")
    if data.get("benchmark_name") not in BENCHMARK_NAMES:
        err("benchmark_name", f"expected {' or '.join(BENCHMARK_NAMES)}, got {data.get('benchmark_name')!r}")
    if not isinstance(data.get("open_source"), bool):
        err("open_source", f"expected true or false, got {data.get('open_source')!r}")
    mi = data.get("model_info") if isinstance(data.get("model_info"), dict) else {}
    pub = data.get("publication") if isinstance(data.get("publication"), dict) else {}
    year = pub.get("publication_year")
    if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
        if not (isinstance(year, str) and year.strip().isdigit()):
            err("publication.publication_year", f"expected a year (an integer), got {year!r}")
    # zrc's rules
    for prefix, obj in (("", data), ("model_info.", mi), ("publication.", pub)):
        for k, v in obj.items():
            if isinstance(v, str) and _TEMPLATE.match(v):
                err(prefix + k, template_error(prefix + k))
    if not _nonempty(data.get("username")):
        err("username", "required, was not found or empty")
    if not _nonempty(data.get("code_url")):
        warn("code_url", "if possible give a URL to the code of the system")
    for key in ("system_description", "train_set"):
        if "model_info" in data and not _nonempty(mi.get(key)):
            err(f"model_info.{key}", "required, was not found or empty")
    if "model_info" in data and mi.get("gpu_budget") is None:
        warn("model_info.gpu_budget", "recommended: a GPU budget (GPU training time estimation)")
    for key in ("authors", "institution"):
        if "publication" in data and not _nonempty(pub.get(key)):
            err(f"publication.{key}", "required, was not found or empty")
    if "publication" in data and year is None:
        err("publication.publication_year", "required, was not found or empty")
    for key in ("paper_title", "paper_url"):
        if "publication" in data and not _nonempty(pub.get(key)):
            warn(f"publication.{key}", "recommended: the publication's " + key.split("_")[1])
    if errors:      # one line per field: the required ones first, each group in file order
        raise MetaErrors([line for *_, line in sorted(errors, key=lambda e: e[:2])])
    return data, warnings


def _nonempty(v: Any) -> bool:
    return v is not None and len(str(v)) > 0


def read_params(path: str) -> dict:
    """params.yaml (njobs, quiet); zrc's defaults when the file is absent."""
    params = {"quiet": False, "njobs": 1}
    if not os.path.isfile(path):
        return params
    data, at = _load_yaml(path)
    if data is None:
        return params
    if not isinstance(data, dict):
        raise InputError("expected a mapping (njobs, quiet)", path, 1)
    if "njobs" in data:
        n = data["njobs"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_NJOBS:
            raise InputError(f"njobs: expected an integer from 1 to {MAX_NJOBS}, got {n!r}",
                             path, at.get("njobs"))
        params["njobs"] = n
    if "quiet" in data:
        if not isinstance(data["quiet"], bool):
            raise InputError(f"quiet: expected true or false, got {data['quiet']!r}", path, at.get("quiet"))
        params["quiet"] = data["quiet"]
    return params


def check_class_file(path: str) -> bool:
    """A quick syntax pass over a class file (zrc reads class files only, no pairs): False when
    empty; an error names the first bad line. File ids and times are checked against the gold
    later (termeval.classes.parse). A plain file is checked in bulk, any other line by line."""
    if plain_syntax(path):
        return True
    in_class = False
    nonblank = False
    for n, raw, parts in class_file_tokens(path):
        if not parts:
            continue
        nonblank = True
        if is_header(parts):
            in_class = True
            continue
        if not in_class:
            raise InputError("expected a ZeroSpeech class file: a `Class <id>` line first, got "
                             f"'{raw.strip()}'", path, n)
        if len(parts) != 3:
            raise InputError(f"expected `<file> <onset> <offset>`, got {len(parts)} fields", path, n)
        try:
            on, off = float(parts[1]), float(parts[2])
        except ValueError:
            raise InputError(f"onset/offset '{parts[1]} {parts[2]}' are not numbers", path, n) from None
        if not on < off:
            raise InputError(f"onset {parts[1]} is not before offset {parts[2]}", path, n)
    return nonblank


def read_submission(path: str, languages: list[str] | None = None, partial: bool = False) -> Submission:
    """The submission checked as zrc checks it (see the module doc). Languages scored: every
    one (zrc's rule), or `languages`; with partial, those present and non-empty (the others
    are in Submission.missing / .skipped, and a warning line each in .warnings)."""
    if not os.path.isdir(path):
        raise InputError("not a directory (a zrc submission directory is expected)", path)
    if not os.access(path, os.R_OK | os.X_OK):
        raise InputError("permission denied", path)
    scores = os.path.join(path, "scores")
    if os.path.lexists(scores) and not os.path.isdir(scores):
        raise InputError("exists and is not a directory (zrc writes its scores there)", scores)
    if languages:
        for lang in languages:
            if lang not in LANGUAGES:
                raise InputError(f"--languages: unknown language '{lang}' (expected {', '.join(LANGUAGES)})")
    meta, warnings = check_meta(os.path.join(path, "meta.yaml"))
    params = read_params(os.path.join(path, "params.yaml"))
    for name in sorted(os.listdir(path)):
        if name.endswith(".txt") and name[:-4] not in LANGUAGES:
            raise InputError(f"unknown language file: expected {', '.join(l + '.txt' for l in LANGUAGES)}",
                             os.path.join(path, name))
    wanted = [l for l in LANGUAGES if not languages or l in languages]
    class_files: dict[str, str] = {}
    missing: list[str] = []
    skipped: list[str] = []
    for lang in wanted:
        full = os.path.join(path, lang + ".txt")
        if not os.path.isfile(full):         # missing, a directory, a dangling symlink, a loop
            what = ("a directory" if os.path.isdir(full) else "a dangling symlink or a symlink loop"
                    if os.path.islink(full) else "missing")
            msg = (f"{what}: zrc 0.9.4 needs a class file for every language it scores "
                   "(its check: 'Given TDE Disc file does not exist')")
            if not partial:
                raise InputError(msg + "; --partial true scores the languages there", full)
            missing.append(lang)
            warnings.append(f"{full}: {msg}: not scored (--partial true)")
        elif not check_class_file(full):
            msg = "empty: zrc 0.9.4 refuses an empty class file (tdev2's Disc: 'list index out of range')"
            if not partial:
                raise InputError(msg + "; --partial true scores the languages there", full)
            skipped.append(lang)
            warnings.append(f"{full}: {msg}: not scored (--partial true)")
        else:
            class_files[lang] = full
    if not class_files:
        raise InputError("no class file to score (none of " + ", ".join(l + ".txt" for l in wanted)
                         + " has content)", path)
    return Submission(path, meta, params, class_files, skipped, warnings, missing)
