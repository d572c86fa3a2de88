"""The twelve DiscoPhon languages (discophon 0.2.0 `languages.py`): ISO 639-3 code, name, the
benchmark split they belong to, and the number of phonemes of the inventory (silence not
counted; the co-occurrence matrix has n_phonemes + 1 rows)."""
from __future__ import annotations

from typing import NamedTuple


class Language(NamedTuple):
    code: str
    name: str
    split: str          # "dev" or "test": languages for development or for the final test
    n_phonemes: int


LANGUAGES: dict[str, Language] = {x.code: x for x in (
    Language("deu", "German", "dev", 41), Language("swa", "Swahili", "dev", 29),
    Language("tam", "Tamil", "dev", 29), Language("tha", "Thai", "dev", 40),
    Language("tur", "Turkish", "dev", 27), Language("ukr", "Ukrainian", "dev", 35),
    Language("cmn", "Mandarin Chinese", "test", 42), Language("eng", "English", "test", 39),
    Language("eus", "Basque", "test", 29), Language("fra", "French", "test", 34),
    Language("jpn", "Japanese", "test", 42), Language("wol", "Wolof", "test", 39),
)}

EVALUATED_SPLITS = ("dev", "test")                       # the splits the benchmark scores
KNOWN_SPLITS = EVALUATED_SPLITS + ("train-10min", "train-1h", "train-10h")
DEFAULT_N_UNITS = 256                                    # many-to-one: the benchmark's units
STEP_PHONES_MS = 10                                      # the gold phones' grid
