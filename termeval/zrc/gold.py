"""Where the gold alignments of each TDE17 language are, and their data dir.

Looked up in this order:
  1. a zrc dataset directory (--zrc-dataset; default $APP_DIR/datasets/zrc2017-test-dataset,
     APP_DIR defaulting to ~/zr-data as in zrc): its index.json names each language's
     `alignment_words` and `alignment_phones` files (relative to the dataset directory) -- the
     files zrc itself scores against, all five languages;
  2. english, french, mandarin only: the `tde/share/` files of the registry package
     zerospeech-tde==2.0.3 (what zrc's tdev2 ships): `downloads/zr17/` (local/get_zr17.sh) in
     the current directory or in termeval's install, or the installed `tde` package itself.
The data dir is prepared as for zrc2020 everywhere else (steps/prepare_gold.sh --format zr with
its defaults, as local/run_zr17_mandarin.sh): the tdev2 phone files already label pauses SIL.

The prepared data dir is kept in a store of the user's cache (termeval.core.usercache:
<cache>/zrc-gold/<lang>-<key>/data; its parsed arrays are in zrc2020's own store), one entry per
content of the gold files, preparation settings and preparing code (`source_key`). An entry records the digest of its
data dir's files and is used only when they still have it (an edited entry is prepared again);
it is written into a temporary directory and renamed into place whole; the MAX_ENTRIES newest
entries of a language are kept (the store removes only its own entries, `<lang>-<32 hex>`). A
store that cannot be written is not used; an entry that fails its check is prepared again
(a `note:` line).
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from dataclasses import dataclass

from termeval.core import jsonread, publish, usercache
from termeval.core.digest import content_digest
from termeval.core.errors import InputError
from termeval.core.textio import atomic_write
from termeval.core.warn import note
from termeval.gold import prepare_zr

REGISTRY_LANGUAGES = ("english", "french", "mandarin")
DATASET_NAME = "zrc2017-test-dataset"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# what a store entry is keyed on besides the gold files' bytes; a new version: entries rebuilt
PREPARE_SETTINGS = {"prepare": "prepare_gold --format zr (defaults)", "store": 1}
CACHE_ENV = usercache.ENV
RECORD = "record.json"          # {"source": source_key, "data": digest of data/}
MAX_ENTRIES = 4                 # per language (a new gold or termeval version makes a new entry)


@dataclass
class GoldFiles:
    language: str
    phn: str
    wrd: str
    source: str          # where they were found (recorded in the scores)


def default_dataset_dir() -> str:
    app = os.environ.get("APP_DIR") or os.path.join(os.path.expanduser("~"), "zr-data")
    return os.path.join(app, "datasets", DATASET_NAME)


def _from_dataset(lang: str, dataset: str) -> GoldFiles | None:
    index = os.path.join(dataset, "index.json")
    if not os.path.isfile(index):
        return None
    data = jsonread.load(index)
    subsets = data.get("subsets") if isinstance(data, dict) else None
    if not isinstance(subsets, dict):
        raise InputError("no `subsets` mapping (not a zrc dataset index)", index)
    items = (subsets.get(lang) or {}).get("items") if isinstance(subsets.get(lang), dict) else None
    if not items:
        return None
    paths = []
    for key in ("alignment_phones", "alignment_words"):
        item = items.get(key)
        if not isinstance(item, dict) or not isinstance(item.get("file"), str):
            raise InputError(f"subsets.{lang}.items.{key}.file missing", index)
        p = item["file"] if os.path.isabs(item["file"]) else os.path.join(dataset, item["file"])
        if not os.path.isfile(p):
            raise InputError(f"the index names {key} {p}, which does not exist (a partial download?)", index)
        paths.append(p)
    return GoldFiles(lang, os.path.abspath(paths[0]), os.path.abspath(paths[1]), f"zrc dataset {os.path.abspath(dataset)}")


def registry_dirs() -> list[str]:
    dirs = [os.path.abspath(os.path.join("downloads", "zr17")), os.path.join(ROOT, "downloads", "zr17")]
    spec = importlib.util.find_spec("tde")
    if spec is not None and spec.origin:
        dirs.append(os.path.join(os.path.dirname(spec.origin), "share"))
    return dirs


def locate(lang: str, dataset: str | None = None) -> GoldFiles:
    """The gold files of `lang`; a one-line error naming what to download when there are none."""
    dataset = dataset or default_dataset_dir()
    found = _from_dataset(lang, dataset)
    if found is not None:
        return found
    if lang in REGISTRY_LANGUAGES:
        for d in registry_dirs():
            phn, wrd = os.path.join(d, f"{lang}.phn"), os.path.join(d, f"{lang}.wrd")
            if os.path.isfile(phn) and os.path.isfile(wrd):
                return GoldFiles(lang, phn, wrd, f"zerospeech-tde 2.0.3 files in {d}")
        raise InputError(f"no gold alignments for {lang}: run local/get_zr17.sh (the registry package "
                         f"zerospeech-tde==2.0.3 into downloads/zr17/), or download the zrc dataset "
                         f"(zrc datasets:pull {DATASET_NAME}) and give --zrc-dataset (looked in {dataset})")
    raise InputError(f"no gold alignments for {lang}: download the zrc dataset (zrc datasets:pull "
                     f"{DATASET_NAME}, into $APP_DIR/datasets/) and give --zrc-dataset (looked in {dataset})")


def prepare(gold: GoldFiles, data_dir: str) -> None:
    """The zrc2020 gold data dir of the language (prepare_gold --format zr, defaults)."""
    prepare_zr(gold.phn, gold.wrd, data_dir)


def source_key(gold: GoldFiles) -> str:
    """The digest of the gold files' bytes, of the preparation settings and of the code that
    prepares them (termeval/gold/, termeval/core/: an entry made by other code is not used)."""
    return content_digest([gold.phn, gold.wrd], {**PREPARE_SETTINGS, "code": usercache.code_key("gold", "core")},
                          missing_ok=False)


def _entry(gold: GoldFiles, key: str) -> str | None:
    root = usercache.root("zrc-gold")
    return None if root is None else os.path.join(root, f"{gold.language}-{key[:32]}")


def _valid(entry: str, key: str) -> bool:
    """The entry was made from this source and its data dir is still what it wrote."""
    try:
        with open(os.path.join(entry, RECORD), encoding="utf-8") as f:
            record = json.load(f)
        return (isinstance(record, dict) and record.get("source") == key
                and record.get("data") == content_digest([os.path.join(entry, "data")]))
    except (OSError, ValueError, RecursionError):
        return False


def _copy_tree(src: str, dest: str) -> None:
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(src)):
        shutil.copyfile(os.path.join(src, name), os.path.join(dest, name))


def prepare_exp(gold: GoldFiles, exp_dir: str) -> bool:
    """<exp_dir>/data prepared for `gold`: copied from the store when it holds a valid entry for
    these gold files, else prepared (and put in the store). Returns whether it was copied."""
    key = source_key(gold)
    entry = _entry(gold, key)
    data = os.path.join(exp_dir, "data")
    if entry is not None and os.path.isdir(entry) and not _valid(entry, key):
        note(None, f"{entry}: saved gold data dir fails its check (not what was saved): prepared again")
    elif entry is not None and os.path.isdir(entry):
        try:
            _copy_tree(os.path.join(entry, "data"), data)
            return True
        except OSError:
            shutil.rmtree(data, ignore_errors=True)
    prepare(gold, data)
    if entry is not None:
        _keep(gold, entry, key, data)
    return False


def _keep(gold: GoldFiles, entry: str, key: str, data: str) -> None:
    """Put the data dir into the store entry (temp + rename; an entry put there meanwhile by
    another run is kept); the MAX_ENTRIES newest of the language stay. Nothing when the store
    cannot be written: it is only a cache."""
    tmp = None
    try:
        tmp = publish.new_dir(entry)
        _copy_tree(data, os.path.join(tmp, "data"))
        with atomic_write(os.path.join(tmp, RECORD)) as f:
            json.dump({"source": key, "data": content_digest([os.path.join(tmp, "data")])}, f)
        publish.replace(tmp, entry, keep_existing=True)
    except OSError:
        if tmp is not None:
            publish.remove(tmp)
        return
    usercache.prune(os.path.dirname(entry), re.compile(re.escape(gold.language) + r"-[0-9a-f]{32}"), MAX_ENTRIES)
