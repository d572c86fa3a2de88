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
"""
from __future__ import annotations

import importlib.util
import json
import os
from dataclasses import dataclass

from termeval.core.errors import InputError
from termeval.gold import prepare_zr

REGISTRY_LANGUAGES = ("english", "french", "mandarin")
DATASET_NAME = "zrc2017-test-dataset"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
    try:
        with open(index, encoding="utf-8") as f:
            data = json.load(f)
    except ValueError as e:
        raise InputError(f"not valid JSON ({e})", index) from None
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
