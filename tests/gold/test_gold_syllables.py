"""prepare_gold --syllables: the syllable tier from a ZeroSpeech-style file, a TextGrid dir and
SD-HuBERT's syllable JSON gives the same `syllables` file; bad input is one line naming file
and line, exit 1, nothing written."""
from __future__ import annotations

import json
import os

import pytest

from test_gold import FIX, PREPARE, call

SYL = [("s01-rec1", 0.5, 0.65, "kae1"), ("s01-rec1", 0.65, 0.8, "t0"), ("s01-rec1", 0.8, 0.9, "ah0"),
       ("s01-rec1", 1.25, 1.6, "daog1"), ("s02-rec2", 2.0, 2.2, "hh ah0"), ("s02-rec2", 2.2, 2.4, "low1")]
EXPECTED = ("s01-rec1 0.5 0.65 kae1\ns01-rec1 0.65 0.8 t0\ns01-rec1 0.8 0.9 ah0\ns01-rec1 1.25 1.6 daog1\n"
            "s02-rec2 2 2.2 hh_ah0\ns02-rec2 2.2 2.4 low1\n")


def write_zr(path, rows):
    with open(path, "w") as f:
        f.writelines(f"{a} {b} {c} {d.replace(' ', '_')}\n" for a, b, c, d in rows)
    return path


def write_json(path, rows, keyed_by_file=True):
    doc: dict = {}
    for fid, a, b, lab in rows:
        entry = doc.setdefault(f"utt{len(doc)}" if fid not in [v.get("id") for v in doc.values()] else
                               next(k for k, v in doc.items() if v["id"] == fid),
                               {"id": fid, "file_name": f"test-clean/x/{fid}.flac", "syllables": []})
        entry["syllables"].append({"start": a, "end": b, "label": lab})
    for v in doc.values():
        del v["id"]
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    return path


def write_textgrids(d, rows, tier="syllables"):
    os.makedirs(d, exist_ok=True)
    by: dict = {}
    for fid, a, b, lab in rows:
        by.setdefault(fid, []).append((a, b, lab))
    for fid, ivs in by.items():
        end = ivs[-1][1]
        cells = []
        t = 0.0
        for a, b, lab in ivs:          # empty intervals fill the gaps (silence: dropped)
            if a > t:
                cells.append((t, a, ""))
            cells.append((a, b, lab))
            t = b
        body = "".join(f"{a}\n{b}\n\"{lab}\"\n" for a, b, lab in cells)
        text = (f'File type = "ooTextFile"\nObject class = "TextGrid"\n\n0\n{end}\n<exists>\n1\n'
                f'"IntervalTier"\n"{tier}"\n0\n{end}\n{len(cells)}\n{body}')
        with open(os.path.join(d, f"{fid}.TextGrid"), "w") as f:
            f.write(text)
    return d


def prepare(tmp_path, capsys, syl, *opts):
    out = tmp_path / "data"
    code, err = call(PREPARE, ["--format", "zr", "--fill-gaps", "false", "--syllables", syl, *opts,
                               f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd", out], capsys)
    return code, err, out


@pytest.mark.parametrize("fmt", ["zr", "textgrid", "sdhubert-json"])
def test_three_formats_give_one_tier(tmp_path, capsys, fmt):
    src = {"zr": lambda: write_zr(tmp_path / "gold.syl", SYL),
           "textgrid": lambda: write_textgrids(tmp_path / "tg", SYL),
           "sdhubert-json": lambda: write_json(tmp_path / "syl.json", SYL)}[fmt]()
    code, err, out = prepare(tmp_path, capsys, src)                # auto picks the reader
    assert code == 0, err
    assert (out / "syllables").read_text() == EXPECTED
    assert "6 syllables" in err and "validate_alignment_dir" not in err
    code, err, out2 = prepare(tmp_path, capsys, src, "--syllables-format", fmt)
    assert code == 0 and (out2 / "syllables").read_text() == EXPECTED


def test_without_syllables_no_tier(tmp_path, capsys):
    out = tmp_path / "d"
    code, err = call(PREPARE, ["--format", "zr", f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd", out], capsys)
    assert code == 0 and not (out / "syllables").exists() and "warning" not in err
    (out / "syllables").write_text(EXPECTED)      # an earlier preparation's tier: kept, and said
    code, err = call(PREPARE, ["--format", "zr", f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd", out], capsys)
    assert code == 0 and "syllables is left from an earlier preparation" in err


BAD_ZR = [
    ([("s01-rec1", 0.5, 0.5, "a")], "gold.syl:1: zero-length syllable interval"),
    ([("s01-rec1", 0.6, 0.7, "a"), ("s01-rec1", 0.5, 0.65, "b")], "gold.syl:2: syllable interval 0.5..0.65"),
    ([("s01-rec1", 0.5, 0.7, "a"), ("s01-rec1", 0.6, 0.8, "b")], "gold.syl:2: syllable interval 0.6..0.8 of "
                                                                  "'s01-rec1' overlaps"),
    ([("nofile", 0.5, 0.7, "a")], "gold.syl:1: syllable in file 'nofile', which has no phones"),
    ([("s01-rec1", 0.5, 9.0, "a")], "gold.syl:1: syllable ends at 9 s, after the end of 's01-rec1'"),
    ([("s01-rec1", 0.5, 0.7, "SIL")], "no syllable intervals (besides silence)"),
]


@pytest.mark.parametrize("rows,message", BAD_ZR)
def test_bad_zr_syllables(tmp_path, capsys, rows, message):
    code, err, out = prepare(tmp_path, capsys, write_zr(tmp_path / "gold.syl", rows))
    assert code == 1 and message in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


BAD_JSON = [
    ('{"a": {"syllables": [{"start": 0.5, "end": 0.7, "label": "x"}]}}', None),    # fine: key is the id
    ('{"a": [1, 2]}', "utterance 'a': expected an object with a \"syllables\" list"),
    ('{"s01-rec1": {"syllables": [\n {"start": 0.5, "end": "x", "label": "k"}]}}',
     "syl.json:2: utterance 's01-rec1' syllable 0: 'end' is not a number ('x')"),
    ('{"s01-rec1": {"syllables": [\n {"start": 0.5, "label": "k"}]}}', "syl.json:2: utterance 's01-rec1' "
     "syllable 0: expected an object with \"start\", \"end\" and \"label\""),
    ('{"s01-rec1": {"syllables": [}', "syl.json:1: not valid JSON"),
    ('[1]', "syl.json:1: expected a JSON object"),
    # issue 40 item 12: nested 100,000 levels deep -> one line, no RecursionError
    ('{"s01-rec1":\n' + "[" * 100000 + "]" * 100000 + "}", "syl.json:2: not valid JSON here: nested more than 500 levels deep"),
    # issue 40 item 14: labels that are not strings
    ('{"s01-rec1": {"syllables": [\n {"start": 0.5, "end": 0.7, "label": null}]}}',
     "syl.json:2: utterance 's01-rec1' syllable 0: 'label' is null, expected a string"),
    ('{"s01-rec1": {"syllables": [\n {"start": 0.5, "end": 0.7, "label": {"a": 1}}]}}',
     "syl.json:2: utterance 's01-rec1' syllable 0: 'label' is an object, expected a string"),
    ('{"s01-rec1": {"syllables": [\n {"start": 0.5, "end": 0.7, "label": 3}]}}', None),     # a cluster id
]


@pytest.mark.parametrize("text,message", BAD_JSON)
def test_bad_json_syllables(tmp_path, capsys, text, message):
    p = tmp_path / "syl.json"
    p.write_text(text.replace('"a"', '"s01-rec1"', 1) if message is None else text)
    code, err, out = prepare(tmp_path, capsys, p)
    if message is None:
        assert code == 0, err
        return
    assert code == 1 and message in err and len(err.strip().splitlines()) == 1, err


def test_bad_textgrid_syllables(tmp_path, capsys):
    d = write_textgrids(tmp_path / "tg", SYL, tier="sylls")
    code, err, _ = prepare(tmp_path, capsys, d)
    assert code == 1 and "no tier 'syllables'" in err and "'sylls'" in err
    code, err, _ = prepare(tmp_path, capsys, d, "--syllables-tier", "sylls")
    assert code == 0, err
    code, err, _ = prepare(tmp_path, capsys, d, "--syllables-format", "zr")
    assert code == 1 and "a directory, but --syllables-format zr reads a file" in err
