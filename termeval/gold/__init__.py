"""Gold alignments -> a Kaldi-style data dir (`phones`, `words`, `utt2spk`, `spk2utt`, `reco2dur`).

Readers (each returns phone and word `Intervals` keyed by file id, with the source file and
line of every interval so that any later check can name them):
  read_zr        ZeroSpeech `.phn`/`.wrd`: `<file> <onset> <offset> <label>` (seconds). Times are
                 kept as the parsed doubles (no rounding), so the reference tools see the same
                 floats. Tokenised on 4 MB chunks with numpy (read_table; textfast parses the
                 bytes, str.split the odd chunks): ~0.45 s CPU per million lines.
  read_ctm       Kaldi CTM `<reco-or-utt> <chan> <start> <dur> <label> [<conf>]`, e.g. from
                 `ali-to-phones --ctm-output` (integer ids, mapped through phones.txt) or
                 `steps/get_train_ctm.sh` (words). With a `segments` file, the keys are
                 utterances and times are moved to recording time (`start + segment start`);
                 a key that is a recording of the segments file is already recording-relative
                 (a NIST CTM after convert_ctm.pl). Integer word labels are ids only when a
                 words.txt is given (otherwise '1990' is a word).
                 Times are rounded to `time_decimals` (default 6) after `start + dur` (+ offset).
  read_textgrid_dir  Praat/MFA TextGrids (`**/*.TextGrid`, file id = basename), parsed with the
                 Praat reader functions of the `textgrid` package; our own loop around them keeps
                 the line number of every interval and reports (instead of silently dropping)
                 zero-length or reversed intervals. Tiers `words`/`phones`, or MFA multi-speaker
                 `<speaker> - words` / `<speaker> - phones` (then the speaker is known).

Label rules (all formats):
  * phones: position suffixes `_[BEIS]$` are stripped (CTM only); stress digits `[0-9]$` are
    stripped when `strip_stress`; labels in `silence_labels` (default `SIL sil sp NSN`) and
    empty TextGrid marks are silence and are written as `sil_label` (default `SIL`). Other
    non-speech labels (`SPN`, MFA `spn`) are kept as they are: they are phones of unknown
    words, which the scorers treat specially (coverage ignores SIL and SPN).
  * words: silence labels and empty marks are not words and are dropped.
  * TextGrid marks are stripped and inner whitespace becomes `_` (labels are one token).
  * derived words (CTM given without a word CTM): a word runs from a `_B`/`_S` phone to the
    next `_E`/`_S` phone; its label is the phone string joined by `+` (e.g. `k+ae+t`).

Checks (strict: the first problem is an InputError naming file and line; nothing is written):
  negative, NaN, zero-length or reversed intervals; intervals out of time order within a file
  (unless `sort`); overlapping intervals; words in a file without phones; word edges farther
  than `boundary_tolerance` from every phone edge. A word edge within the tolerance but not
  equal to a phone edge is kept as given (TDEv2 compares boundaries with exact float equality,
  so `snap_words` moves it onto the phone edge when asked).

Silence filling (`fill_gaps`, default true): every gap between consecutive phones of a file,
and the stretch from 0 to the first phone when it starts after 0, becomes a `sil_label`
interval; nothing is added after the last phone (its end is the file's reco2dur). TDEv2 (the
ZR2017 reference) needs silences to be labelled; `fill_gaps=False` keeps gaps as gaps, which is
what the 2015/2017 tools saw on SIL-less files. `drop_silence` first removes every silence phone
of the input (so, with `fill_gaps`, each pause becomes exactly one SIL interval).

Output (write_data_dir): all files are written into a temp dir beside the data dir, which is
then renamed into place (or, if the data dir exists, each file replaces its old version; other
files there are left alone). An output path that is one of the inputs is refused.

Speakers: `utt2spk` file > TextGrid tier speaker > rule. Rules: `auto` (default: the part of
the file id before its first `-`, else the whole id: the Kaldi convention that the speaker is a
`-`-separated prefix; `_` is not used because corpus ids such as `nchlt_tso_001m_0007` would all
collapse to one speaker), `whole`, `prefix:N`, `field:SEP:K` (K-th field, 1-based).

Modules: intervals (Options, the Intervals table), zr, ctm, textgrid (readers), normalize
(labels, checks, gap filling), speakers, write (prepare + data dir), validate, export, options
(the steps' typed options: GoldOptions, ValidateOptions, ExportZrOptions), texts (prepare_texts:
a GoldOptions -> the data dir's texts); the
Kaldi files (segments, utt2spk, symbol tables, reco2dur) are read by termeval.core.kaldi_files.
Every public name is re-exported here: `from termeval.gold import X` works for all of them,
loading its module on first use.
"""
from __future__ import annotations

import importlib
from typing import Any

# every public name -> the module defining it, imported on first use (PEP 562): importing
# termeval.gold.options (the registry of steps, `termeval --help`) loads no numpy
_HOME = {
    'CHUNK_BYTES': 'termeval.core.textio',
    'CTM_FIELDS': 'termeval.gold.ctm',
    'DATA_FILES': 'termeval.gold.intervals',
    'DEFAULT_SILENCE_LABELS': 'termeval.gold.intervals',
    'ExportZrOptions': 'termeval.gold.options',
    'GoldOptions': 'termeval.gold.options',
    'InputError': 'termeval.core.errors',
    'Intervals': 'termeval.gold.intervals',
    'Options': 'termeval.gold.intervals',
    'PreparedGold': 'termeval.gold.write',
    'Segment': 'termeval.core.kaldi_files',
    'Table': 'termeval.core.textio',
    'TgTier': 'termeval.gold.textgrid',
    'ValidateOptions': 'termeval.gold.options',
    'ZR_FIELDS': 'termeval.gold.zr',
    'assign_speakers': 'termeval.gold.speakers',
    'check_data_dir_outputs': 'termeval.gold.write',
    'check_prepared_bytes': 'termeval.gold.validate',
    'check_values': 'termeval.gold.normalize',
    'check_word_edges': 'termeval.gold.normalize',
    'data_dir_texts': 'termeval.gold.write',
    'derive_words': 'termeval.gold.ctm',
    'dict_codes': 'termeval.gold.intervals',
    'drop_silent_words': 'termeval.gold.normalize',
    'export_zr': 'termeval.gold.export',
    'factorize': 'termeval.gold.intervals',
    'file_starts': 'termeval.core.datadir',
    'fill_gaps': 'termeval.gold.normalize',
    'find_textgrids': 'termeval.gold.textgrid',
    'format_tier': 'termeval.gold.write',
    'format_times': 'termeval.gold.write',
    'make_intervals': 'termeval.gold.intervals',
    'nearest_edges': 'termeval.gold.normalize',
    'normalize_phone_labels': 'termeval.gold.normalize',
    'order_intervals': 'termeval.gold.normalize',
    'parse_textgrid': 'termeval.gold.textgrid',
    'phone_edges': 'termeval.gold.normalize',
    'prepare': 'termeval.gold.write',
    'prepare_texts': 'termeval.gold.texts',
    'prepare_zr': 'termeval.gold.write',
    'read_bytes': 'termeval.core.textio',
    'read_ctm': 'termeval.gold.ctm',
    'read_segments': 'termeval.core.kaldi_files',
    'read_symbol_table': 'termeval.core.kaldi_files',
    'read_table': 'termeval.core.textio',
    'read_textgrid_dir': 'termeval.gold.textgrid',
    'read_utt2spk': 'termeval.core.kaldi_files',
    'read_zr': 'termeval.gold.zr',
    'relabel': 'termeval.gold.intervals',
    'round_times': 'termeval.gold.intervals',
    'same_file': 'termeval.gold.write',
    'sort_files_table': 'termeval.gold.normalize',
    'sorted_codes': 'termeval.gold.intervals',
    'speaker_rule': 'termeval.gold.speakers',
    'summary': 'termeval.gold.write',
    'unify_files': 'termeval.gold.normalize',
    'validate_data_dir': 'termeval.gold.validate',
    'write_data_dir': 'termeval.gold.write',
}

__all__ = [
    "CHUNK_BYTES", "CTM_FIELDS", "DATA_FILES", "DEFAULT_SILENCE_LABELS", "ExportZrOptions", "GoldOptions",
    "InputError", "Intervals", "Options", "PreparedGold", "Segment", "Table", "TgTier", "ZR_FIELDS", "assign_speakers",
    "check_data_dir_outputs", "check_prepared_bytes", "check_values", "check_word_edges", "data_dir_texts", "derive_words",
    "dict_codes", "drop_silent_words", "export_zr", "factorize", "file_starts", "fill_gaps",
    "find_textgrids", "format_tier", "format_times", "make_intervals", "nearest_edges",
    "normalize_phone_labels", "order_intervals", "parse_textgrid", "phone_edges", "prepare",
    "prepare_texts", "prepare_zr", "read_bytes", "read_ctm", "read_segments", "read_symbol_table", "read_table",
    "read_textgrid_dir", "read_utt2spk", "read_zr", "relabel", "round_times", "same_file",
    "sort_files_table", "sorted_codes", "speaker_rule", "summary", "unify_files",
    "ValidateOptions", "validate_data_dir", "write_data_dir",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'termeval.gold' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)  # why: the re-exports load their modules on use
    globals()[name] = value
    return value
