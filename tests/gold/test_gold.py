"""Gold preparation: readers, the three-format equivalence, options, validator, exporter.

The fixture alignment (tests/gold/fixtures/README) is written as ZeroSpeech files, as a Kaldi
phone CTM with integer ids + phones.txt + position suffixes + segments (and a word CTM), and as
MFA TextGrids; all three must give the data dir in tests/gold/fixtures/expected/ byte for byte.
Bad input is in test_gold_bad_input.py, the real ZeroSpeech files in test_gold_real.py.
"""
from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pytest

from termeval import gold
from termeval.run.cli import run
from termeval.core.datadir import load_gold

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(HERE, "fixtures")
DATA_FILES = ("phones", "words", "utt2spk", "spk2utt", "reco2dur")


from termeval.bin import export_zr as EXPORT
from termeval.bin import prepare_gold as PREPARE
from termeval.bin import validate_alignment_dir as VALIDATE


def call(mod, argv, capsys) -> tuple[int, str]:
    """Run a script's main in-process like its command line: (exit code, stderr)."""
    with pytest.raises(SystemExit) as e:
        run(mod.main, [str(a) for a in argv])
    return e.value.code or 0, capsys.readouterr().err


def prepare(argv, capsys, ok=True) -> tuple[int, str]:
    code, err = call(PREPARE, argv, capsys)
    if ok:
        assert code == 0, err
    return code, err


def read_dir(d) -> dict[str, bytes]:
    out = {}
    for name in DATA_FILES:
        with open(os.path.join(d, name), "rb") as f:
            out[name] = f.read()
    return out


def zr_args(d, *opts):
    return [*opts, "--format", "zr", f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd", d]


def ctm_args(d, *opts, words=None):
    return [*opts, "--format", "ctm", "--phones-txt", f"{FIX}/ctm/phones.txt", "--segments",
            f"{FIX}/ctm/segments", f"{FIX}/ctm/phones.ctm", words or f"{FIX}/ctm/words.ctm", d]


def tg_args(d, *opts, src=None):
    return [*opts, "--format", "textgrid", src or f"{FIX}/textgrid", d]


# ---------------------------------------------------------------------------------------------
# Three formats, one data dir


def test_three_formats_are_byte_identical(tmp_path, capsys):
    expected = read_dir(f"{FIX}/expected")
    dirs = {}
    for name, args in (("zr", zr_args), ("ctm", ctm_args), ("tg", tg_args)):
        d = tmp_path / name
        prepare(args(d, "--strip-stress", "true"), capsys)
        dirs[name] = read_dir(d)
    assert dirs["zr"] == expected
    assert dirs["ctm"] == expected
    assert dirs["tg"] == expected


def test_three_formats_through_the_shell_step(tmp_path, root):
    """The same through steps/prepare_gold.sh (options via parse_options, validation at the end)."""
    outs = []
    for name, args in (("zr", zr_args), ("ctm", ctm_args), ("tg", tg_args)):
        d = tmp_path / name
        r = subprocess.run(["steps/prepare_gold.sh", *map(str, args(d, "--strip-stress", "true"))],
                           cwd=root, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert "validate_alignment_dir" in r.stderr and "OK (2 files, 2 speakers, 19 phones, 6 words)" in r.stderr
        outs.append(read_dir(d))
    assert outs[0] == outs[1] == outs[2] == read_dir(f"{FIX}/expected")


def test_prepared_dir_loads(tmp_path, capsys):
    prepare(zr_args(tmp_path / "d", "--strip-stress", "true"), capsys)
    g = load_gold(str(tmp_path / "d"))
    assert g.files == ["s01-rec1", "s02-rec2"]
    assert g.speaker == ["s01", "s02"]
    assert g.duration.tolist() == [1.6, 3.35]
    assert len(g.phones) == 19 and len(g.words) == 6
    sil = g.phones.label_index("SIL")
    assert int(np.sum(g.phones.label == sil)) == 5


def test_without_strip_stress_keeps_digits(tmp_path, capsys):
    prepare(zr_args(tmp_path / "d"), capsys)
    phones = (tmp_path / "d" / "phones").read_text()
    assert "s01-rec1 0.6 0.7 AE1\n" in phones and "s02-rec2 3.1 3.2 AH0\n" in phones
    prepare(ctm_args(tmp_path / "c"), capsys)
    assert (tmp_path / "c" / "phones").read_text() == phones


def test_ctm_derived_words(tmp_path, capsys):
    prepare(ctm_args(tmp_path / "d", "--strip-stress", "true", words="-"), capsys)
    assert (tmp_path / "d" / "words").read_text() == (
        "s01-rec1 0.5 0.8 k+AE+t\n"
        "s01-rec1 0.8 0.9 AH\n"
        "s01-rec1 1.25 1.6 d+AO+g\n"
        "s02-rec2 2 2.4 HH+AH+L+OW\n"
        "s02-rec2 2.4 2.7 SPN\n"
        "s02-rec2 3 3.2 DH+AH\n")
    # phones do not depend on where the words came from
    assert (tmp_path / "d" / "phones").read_text() == open(f"{FIX}/expected/phones").read()


def test_ctm_without_segments_is_keyed_by_utterance(tmp_path, capsys):
    d = tmp_path / "d"
    prepare(["--format", "ctm", "--phones-txt", f"{FIX}/ctm/phones.txt", f"{FIX}/ctm/phones.ctm", "-", d], capsys)
    assert (d / "reco2dur").read_text() == "s01-rec1-0001 1.1\ns02-rec2-0001 0.7\ns02-rec2-0002 0.35\n"
    assert (d / "utt2spk").read_text() == "s01-rec1-0001 s01\ns02-rec2-0001 s02\ns02-rec2-0002 s02\n"
    assert (d / "phones").read_text().splitlines()[:2] == ["s01-rec1-0001 0 0.1 k", "s01-rec1-0001 0.1 0.2 AE1"]


def test_ctm_symbolic_phones_and_confidence(tmp_path, capsys):
    """int2sym'd CTM (symbols, no phones.txt) with a 6th confidence column."""
    table = gold.read_symbol_table(f"{FIX}/ctm/phones.txt")
    src = tmp_path / "sym.ctm"
    with open(src, "w") as f:
        for line in open(f"{FIX}/ctm/phones.ctm"):
            p = line.split()
            f.write(" ".join(p[:4] + [table[p[4]], "0.97"]) + "\n")
    prepare(["--strip-stress", "true", "--format", "ctm", "--segments", f"{FIX}/ctm/segments", src,
             f"{FIX}/ctm/words.ctm", tmp_path / "d"], capsys)
    assert read_dir(tmp_path / "d") == read_dir(f"{FIX}/expected")


def test_ctm_integer_words_through_words_txt(tmp_path, capsys):
    words = ["cat", "a", "dog", "hello", "<unk>", "the"]
    (tmp_path / "words.txt").write_text("<eps> 0\n" + "".join(f"{w} {i}\n" for i, w in enumerate(words, 1)))
    with open(tmp_path / "w.ctm", "w") as f:
        for line in open(f"{FIX}/ctm/words.ctm"):
            p = line.split()
            f.write(" ".join(p[:4] + [str(words.index(p[4]) + 1)]) + "\n")
    prepare(ctm_args(tmp_path / "d", "--strip-stress", "true", "--words-txt", tmp_path / "words.txt",
                     words=tmp_path / "w.ctm"), capsys)
    assert read_dir(tmp_path / "d") == read_dir(f"{FIX}/expected")


def test_textgrid_utf16_with_bom_and_utf8_bom(tmp_path, capsys):
    src = tmp_path / "tg"
    shutil.copytree(f"{FIX}/textgrid", src)
    p1 = src / "s01" / "s01-rec1.TextGrid"
    p1.write_bytes(p1.read_text().encode("utf-16"))  # Python writes a BOM
    p2 = src / "s02" / "s02-rec2.TextGrid"
    p2.write_bytes(b"\xef\xbb\xbf" + p2.read_bytes())
    prepare(tg_args(tmp_path / "d", "--strip-stress", "true", src=src), capsys)
    assert read_dir(tmp_path / "d") == read_dir(f"{FIX}/expected")


def test_textgrid_speaker_from_tier_and_ipa_labels(tmp_path, capsys):
    src = tmp_path / "tg"
    src.mkdir()
    text = open(f"{FIX}/textgrid/s02/s02-rec2.TextGrid", encoding="utf-8").read()
    text = text.replace('"s02 - ', '"Speaker Two - ').replace('"HH"', '"ɦ"')
    (src / "rec9.TextGrid").write_text(text, encoding="utf-8")
    prepare(tg_args(tmp_path / "d", src=src), capsys)
    assert (tmp_path / "d" / "utt2spk").read_text() == "rec9 Speaker_Two\n"
    assert "rec9 2 2.1 ɦ\n" in (tmp_path / "d" / "phones").read_text(encoding="utf-8")


def test_textgrid_custom_tier_names_and_lowercase_spn(tmp_path, capsys):
    src = tmp_path / "tg"
    src.mkdir()
    text = open(f"{FIX}/textgrid/s01/s01-rec1.TextGrid").read()
    text = text.replace('name = "words"', 'name = "orthography"').replace('name = "phones"', 'name = "segments"')
    text = text.replace('"AO1"', '"spn"')
    (src / "x.textgrid").write_text(text)
    prepare(tg_args(tmp_path / "d", "--words-tier", "orthography", "--phones-tier", "segments", src=src), capsys)
    assert "x 1.4 1.5 spn\n" in (tmp_path / "d" / "phones").read_text()


def test_textgrid_point_tiers_and_utterances_tier_are_ignored(tmp_path, capsys):
    src = tmp_path / "tg"
    src.mkdir()
    text = open(f"{FIX}/textgrid/s01/s01-rec1.TextGrid").read()
    text = text.replace("size = 2\n", "size = 3\n", 1) + (
        '    item [3]:\n        class = "TextTier"\n        name = "events"\n        xmin = 0\n'
        '        xmax = 1.6\n        points: size = 1\n        points [1]:\n'
        '            number = 0.7\n            mark = "click"\n')
    (src / "s01-rec1.TextGrid").write_text(text)
    prepare(tg_args(tmp_path / "d", "--strip-stress", "true", src=src), capsys)
    assert (tmp_path / "d" / "phones").read_text().startswith("s01-rec1 0 0.5 SIL\ns01-rec1 0.5 0.6 k\n")


# ---------------------------------------------------------------------------------------------
# Options


def test_fill_gaps_false_keeps_gaps_and_explicit_silence(tmp_path, capsys):
    prepare(zr_args(tmp_path / "d", "--fill-gaps", "false"), capsys)
    phones = (tmp_path / "d" / "phones").read_text().splitlines()
    assert phones[0] == "s01-rec1 0.5 0.6 k"          # no leading SIL
    assert phones[4] == "s01-rec1 1.25 1.4 d"         # the pause stays a gap
    assert "s02-rec2 2.7 3 SIL" in phones              # explicit input silence is kept
    assert len(phones) == 16
    assert (tmp_path / "d" / "reco2dur").read_text() == "s01-rec1 1.6\ns02-rec2 3.35\n"


def test_drop_silence(tmp_path, capsys):
    prepare(zr_args(tmp_path / "d", "--fill-gaps", "false", "--drop-silence", "true"), capsys)
    phones = (tmp_path / "d" / "phones").read_text()
    assert "SIL" not in phones and len(phones.splitlines()) == 14
    assert (tmp_path / "d" / "reco2dur").read_text() == "s01-rec1 1.6\ns02-rec2 3.2\n"
    # dropping then filling: every pause is one SIL, the trailing one is gone
    prepare(zr_args(tmp_path / "e", "--drop-silence", "true"), capsys)
    lines = (tmp_path / "e" / "phones").read_text().splitlines()
    assert [ln for ln in lines if ln.endswith(" SIL")] == [
        "s01-rec1 0 0.5 SIL", "s01-rec1 0.9 1.25 SIL", "s02-rec2 0 2 SIL", "s02-rec2 2.7 3 SIL"]


def test_custom_sil_label_and_silence_set(tmp_path, capsys):
    prepare(zr_args(tmp_path / "d", "--sil-label", "<sil>", "--silence-labels", "SIL SPN"), capsys)
    phones = (tmp_path / "d" / "phones").read_text()
    assert "s01-rec1 0 0.5 <sil>\n" in phones and "s02-rec2 2.4 2.7 <sil>\n" in phones
    assert " SIL\n" not in phones and " SPN\n" not in phones


def test_sort_option_and_interleaved_files(tmp_path, capsys):
    lines = open(f"{FIX}/zr/example.phn").read().splitlines()
    shuffled = [lines[i] for i in (9, 3, 0, 15, 1, 2, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14)]
    (tmp_path / "x.phn").write_text("\n".join(shuffled) + "\n")
    code, err = prepare(["--format", "zr", tmp_path / "x.phn", f"{FIX}/zr/example.wrd", tmp_path / "d"],
                        capsys, ok=False)
    assert code == 1 and "use --sort true" in err and not (tmp_path / "d").exists()
    prepare(["--sort", "true", "--format", "zr", tmp_path / "x.phn", f"{FIX}/zr/example.wrd", tmp_path / "e"],
            capsys)
    prepare(zr_args(tmp_path / "f"), capsys)
    assert read_dir(tmp_path / "e") == read_dir(tmp_path / "f")
    # files interleaved but each in time order: accepted without --sort
    inter = [lines[i] for i in (0, 7, 1, 8, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15)]
    (tmp_path / "y.phn").write_text("\n".join(inter) + "\n")
    prepare(["--format", "zr", tmp_path / "y.phn", f"{FIX}/zr/example.wrd", tmp_path / "g"], capsys)
    assert read_dir(tmp_path / "g") == read_dir(tmp_path / "f")


def test_word_edge_tolerance_keep_or_snap(tmp_path, capsys):
    wrd = open(f"{FIX}/zr/example.wrd").read().replace("s01-rec1 0.8 0.9 a", "s01-rec1 0.8 0.9004 a")
    wrd = wrd.replace("s01-rec1 1.25 1.6 dog", "s01-rec1 1.2504 1.6 dog")
    (tmp_path / "x.wrd").write_text(wrd)
    prepare(["--format", "zr", f"{FIX}/zr/example.phn", tmp_path / "x.wrd", tmp_path / "d"], capsys)
    assert "s01-rec1 0.8 0.9004 a\ns01-rec1 1.2504 1.6 dog\n" in (tmp_path / "d" / "words").read_text()
    prepare(["--snap-words", "true", "--format", "zr", f"{FIX}/zr/example.phn", tmp_path / "x.wrd",
             tmp_path / "e"], capsys)
    assert "s01-rec1 0.8 0.9 a\ns01-rec1 1.25 1.6 dog\n" in (tmp_path / "e" / "words").read_text()
    code, err = prepare(["--boundary-tolerance", "0.0001", "--format", "zr", f"{FIX}/zr/example.phn",
                         tmp_path / "x.wrd", tmp_path / "f"], capsys, ok=False)
    assert code == 1 and "x.wrd:2: word 'a' offset 0.9004" in err and "nearest phone edge is 0.9" in err


def test_time_decimals(tmp_path, capsys):
    src = tmp_path / "tg"
    src.mkdir()
    text = open(f"{FIX}/textgrid/s01/s01-rec1.TextGrid").read().replace("= 0.6\n", "= 0.6000004\n")
    (src / "s01-rec1.TextGrid").write_text(text)
    prepare(tg_args(tmp_path / "d", src=src), capsys)
    assert "s01-rec1 0.5 0.6 k\n" in (tmp_path / "d" / "phones").read_text()
    prepare(tg_args(tmp_path / "e", "--time-decimals", "7", src=src), capsys)
    assert "s01-rec1 0.5 0.6000004 k\n" in (tmp_path / "e" / "phones").read_text()


def test_zr_times_are_kept_exactly(tmp_path, capsys):
    """zr: parsed doubles are written back as their shortest text, never rounded."""
    (tmp_path / "a.phn").write_text("f 0.1234567891234 0.3 a\nf 0.3 1.0000000000000002 b\nf 1.0000000000000002 2.50 c\n")
    (tmp_path / "a.wrd").write_text("f 0.1234567891234 2.5 w\n")
    prepare(["--format", "zr", tmp_path / "a.phn", tmp_path / "a.wrd", tmp_path / "d"], capsys)
    assert (tmp_path / "d" / "phones").read_text() == (
        "f 0 0.1234567891234 SIL\nf 0.1234567891234 0.3 a\nf 0.3 1.0000000000000002 b\n"
        "f 1.0000000000000002 2.5 c\n")
    assert (tmp_path / "d" / "reco2dur").read_text() == "f 2.5\n"


def test_tabs_crlf_and_blank_lines_are_tolerated_in_zr(tmp_path, capsys):
    text = open(f"{FIX}/zr/example.phn").read().replace(" ", "\t", 3).replace("\n", "\r\n")
    (tmp_path / "x.phn").write_text("\n" + text + "\n\n")
    prepare(["--format", "zr", tmp_path / "x.phn", f"{FIX}/zr/example.wrd", tmp_path / "d"], capsys)
    prepare(zr_args(tmp_path / "e"), capsys)
    assert read_dir(tmp_path / "d") == read_dir(tmp_path / "e")


@pytest.mark.parametrize("rule,expected", [
    ("auto", ["s01", "s02"]), ("whole", ["s01-rec1", "s02-rec2"]), ("prefix:2", ["s0", "s0"]),
    ("field:-:2", ["rec1", "rec2"]), ("field:_:3", ["s01-rec1", "s02-rec2"])])
def test_speaker_rules(tmp_path, capsys, rule, expected):
    prepare(zr_args(tmp_path / "d", "--spk-rule", rule), capsys)
    lines = (tmp_path / "d" / "utt2spk").read_text().splitlines()
    assert [ln.split()[1] for ln in lines] == expected


def test_speaker_rule_functions():
    assert gold.speaker_rule("auto")("nchlt_tso_001m_0007") == "nchlt_tso_001m_0007"
    assert gold.speaker_rule("auto")("1272-128104-0000") == "1272"
    assert gold.speaker_rule("field:_:3")("nchlt_tso_001m_0007") == "001m"
    assert gold.speaker_rule("prefix:3")("s2801a") == "s28"
    for bad in ("prefix:0", "prefix:x", "field:_", "field::2", "field:_:0", "nope"):
        with pytest.raises(gold.InputError):
            gold.speaker_rule(bad)


def test_utt2spk_file_overrides_rule_and_spk2utt(tmp_path, capsys):
    (tmp_path / "u2s").write_text("s02-rec2 bob\ns01-rec1 bob\nunused-file alice\n")
    prepare(zr_args(tmp_path / "d", "--utt2spk", tmp_path / "u2s"), capsys)
    assert (tmp_path / "d" / "utt2spk").read_text() == "s01-rec1 bob\ns02-rec2 bob\n"
    assert (tmp_path / "d" / "spk2utt").read_text() == "bob s01-rec1 s02-rec2\n"


def test_rewrite_existing_dir_keeps_other_files(tmp_path, capsys):
    d = tmp_path / "d"
    prepare(zr_args(d), capsys)
    (d / "wav.scp").write_text("s01-rec1 a.wav\n")
    prepare(zr_args(d, "--strip-stress", "true"), capsys)
    assert read_dir(d) == read_dir(f"{FIX}/expected")
    assert (d / "wav.scp").read_text() == "s01-rec1 a.wav\n"
    assert sorted(os.listdir(tmp_path)) == ["d"]  # no temp dir left behind


# ---------------------------------------------------------------------------------------------
# Library pieces


def test_nearest_edges_exact():
    ef = np.array([0, 0, 0, 2, 2])
    et = np.array([0.0, 0.5, 1.0, 3.0, 4.0])
    qf = np.array([2, 0, 0, 1, 0])
    qt = np.array([3.4, 0.74, 0.76, 1.0, 9.0])
    near = gold.nearest_edges(ef, et, qf, qt, 3)
    assert near[0] == 3.0 and near[1] == 0.5 and near[2] == 1.0 and np.isnan(near[3]) and near[4] == 1.0


def test_fill_gaps_function():
    iv = gold.make_intervals(["a", "a", "b"], [0.5, 1.0, 0.0], [0.7, 1.2, 1.0], ["x", "y", "z"],
                             [1, 2, 3], [0, 0, 0], ["p"])
    out = gold.fill_gaps(iv, "SIL")
    rows = [(out.files[f], a, b, out.labels[c]) for f, a, b, c in zip(out.file, out.onset, out.offset, out.label)]
    assert rows == [("a", 0.0, 0.5, "SIL"), ("a", 0.5, 0.7, "x"), ("a", 0.7, 1.0, "SIL"), ("a", 1.0, 1.2, "y"),
                    ("b", 0.0, 1.0, "z")]


def test_round_times_matches_decimal_rounding():
    rng = np.random.default_rng(0)
    t = rng.uniform(0, 10000, 20000)
    assert np.array_equal(gold.round_times(t, 6), np.array([float(f"{x:.6f}") for x in t]))
    assert gold.round_times(np.array([0.53 + 0.08, 2.0 + 0.1]), 6).tolist() == [0.61, 2.1]


def test_format_times_is_fmt_time():
    from termeval.core.textio import fmt_time
    values = np.array([0.0, 25.0, 1e-05, 0.1 + 0.2, 123456.789, 3e-7, 1e16, 7.5])
    assert gold.format_times(values).tolist() == [fmt_time(v) for v in values]
    assert gold.format_times(values).tolist()[:3] == ["0", "25", "0.00001"]


# ---------------------------------------------------------------------------------------------
# Validator and exporter


def test_validate_data_dir_accepts_prepared_and_rejects_broken(tmp_path, capsys):
    d = tmp_path / "d"
    prepare(zr_args(d), capsys)
    code, err = call(VALIDATE, [d], capsys)
    assert code == 0 and "OK (2 files, 2 speakers, 19 phones, 6 words)" in err

    def broken(name, text):
        b = tmp_path / f"b{len(os.listdir(tmp_path))}"
        shutil.copytree(d, b)
        (b / name).write_text(text)
        code, err = call(VALIDATE, [b], capsys)
        assert code == 1 and err.count("\n") == 1
        return err

    assert "utt2spk:2: key 's01-rec1' is not after 's02-rec2'" in broken("utt2spk", "s02-rec2 s02\ns01-rec1 s01\n")
    assert "utt2spk:2: no newline at the end" in broken("utt2spk", "s01-rec1 s01\ns02-rec2 s02")
    assert "spk2utt:1: speaker 's01' does not list the same files" in broken("spk2utt", "s01 s01-rec1 s02-rec2\ns02 s02-rec2\n")
    assert "reco2dur:2: duration of 's02-rec2' is 3.4" in broken("reco2dur", "s01-rec1 1.6\ns02-rec2 3.4\n")
    phones = (d / "phones").read_text().splitlines()
    assert "phones:3: not sorted" in broken("phones", "\n".join(phones[:1] + phones[2:3] + phones[1:2] + phones[3:]) + "\n")
    assert "phones:2: blank line" in broken("phones", phones[0] + "\n\n" + "\n".join(phones[1:]) + "\n")
    assert "phones:1: tab" in broken("phones", phones[0].replace(" ", "\t") + "\n" + "\n".join(phones[1:]) + "\n")
    assert "words:1: silence label 'SIL' in words" in broken("words", "s01-rec1 0 0.5 SIL\n")
    assert "words:1: word 'cat' onset 0.55" in broken("words", "s01-rec1 0.55 0.8 cat\n")
    assert "words:1: file 'zz' is not in reco2dur" in broken("words", "zz 0.5 0.8 cat\n")
    os.unlink(d / "spk2utt")
    code, err = call(VALIDATE, [d], capsys)
    assert code == 1 and "missing file spk2utt" in err


def test_export_round_trip(tmp_path, capsys):
    d = tmp_path / "d"
    prepare(zr_args(d), capsys)
    code, err = call(EXPORT, [d, tmp_path / "o.phn", tmp_path / "o.wrd"], capsys)
    assert code == 0 and "(19 phones)" in err and "(6 words)" in err
    assert (tmp_path / "o.phn").read_bytes() == (d / "phones").read_bytes()
    assert (tmp_path / "o.wrd").read_bytes() == (d / "words").read_bytes()
    prepare(["--format", "zr", tmp_path / "o.phn", tmp_path / "o.wrd", tmp_path / "e"], capsys)
    assert read_dir(tmp_path / "e") == read_dir(d)
    # without the silences: back to the SIL-less input (times in shortest form)
    code, err = call(EXPORT, ["--drop-sil", "true", d, tmp_path / "n.phn", tmp_path / "n.wrd"], capsys)
    assert code == 0
    expected = [ln for ln in open(f"{FIX}/zr/example.phn").read().splitlines() if not ln.endswith("SIL")]
    got = (tmp_path / "n.phn").read_text().splitlines()
    assert [ln.split()[::3] for ln in got] == [ln.split()[::3] for ln in expected]
    assert [tuple(map(float, ln.split()[1:3])) for ln in got] == [tuple(map(float, ln.split()[1:3])) for ln in expected]
    prepare(["--format", "zr", tmp_path / "n.phn", tmp_path / "n.wrd", tmp_path / "f"], capsys)
    assert (tmp_path / "f" / "phones").read_text().count(" SIL\n") == 4  # the trailing SIL is gone


def test_export_refuses_missing_dir(tmp_path, capsys):
    code, err = call(EXPORT, [tmp_path / "nope", tmp_path / "o.phn", tmp_path / "o.wrd"], capsys)
    assert code == 1 and "missing phones" in err and not (tmp_path / "o.phn").exists()


# ---------------------------------------------------------------------------------------------
# Command-line behaviour of the shell scripts


@pytest.mark.parametrize("script,words", [
    ("steps/prepare_gold.sh", ["--format", "Usage:", "--fill-gaps", "--spk-rule"]),
    ("utils/validate_alignment_dir.sh", ["Usage:", "--boundary-tolerance"]),
    ("utils/export_zr.sh", ["Usage:", "--drop-sil"]),
    ("local/bench_prepare_gold.sh", ["Usage:", "peak memory"]),
])
def test_help_and_usage(root, script, words):
    r = subprocess.run([script, "--help"], cwd=root, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    for w in words:
        assert w in r.stderr
    r = subprocess.run([script, "a", "b", "c", "d", "e"], cwd=root, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Usage:" in r.stderr


def test_prepare_gold_sh_bad_format_and_missing_input(root, tmp_path):
    r = subprocess.run(["steps/prepare_gold.sh", "--format", "json", "a", "b", "c"], cwd=root,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "--format: expected zr, ctm, textgrid or discophon" in r.stderr
    r = subprocess.run(["steps/prepare_gold.sh", "--format", "zr", str(tmp_path / "no.phn"),
                        f"{FIX}/zr/example.wrd", str(tmp_path / "d")], cwd=root, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1 and "no such file or directory" in r.stderr and not (tmp_path / "d").exists()


def test_python_script_help(capsys):
    with pytest.raises(SystemExit) as e:
        PREPARE.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out            # the step's declaration: its description and options
    assert out.startswith("usage: ") and "--format {zr,ctm,textgrid,discophon}" in out
    assert "Prepare gold phone/word alignments as a data dir" in out and "python -m" not in out


def test_word_ctm_keyed_by_recording_with_segments(tmp_path, capsys):
    """A NIST word CTM (recording ids, recording times, channel A) next to an utterance-keyed
    phone CTM + segments: the keys that are recordings are taken as recording-relative."""
    (tmp_path / "w.ctm").write_text(
        "s01-rec1 A 0.50 0.30 cat\ns01-rec1 A 0.80 0.10 a\ns01-rec1 A 1.25 0.35 dog\n"
        "s02-rec2 A 2.00 0.40 hello\ns02-rec2 A 2.40 0.30 <unk>\ns02-rec2 A 3.00 0.20 the\n")
    prepare(ctm_args(tmp_path / "d", "--strip-stress", "true", words=tmp_path / "w.ctm"), capsys)
    assert read_dir(tmp_path / "d") == read_dir(f"{FIX}/expected")


def test_bundled_example_three_formats(tmp_path, capsys, root):
    """local/make_example.py (the bundled example) in its three forms gives one data dir."""
    script = os.path.join(root, "local", "make_example.py")
    if not os.path.isfile(script):
        pytest.skip("local/make_example.py not present")
    ex = tmp_path / "ex"
    r = subprocess.run(["python3", script, str(ex)], cwd=root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    prepare(["--format", "zr", ex / "zr" / "example.phn", ex / "zr" / "example.wrd", tmp_path / "zr"], capsys)
    prepare(["--format", "ctm", "--phones-txt", ex / "ctm" / "phones.txt", "--segments", ex / "ctm" / "segments",
             ex / "ctm" / "phones.ctm", ex / "ctm" / "words.ctm", tmp_path / "ctm"], capsys)
    prepare(["--format", "ctm", "--phones-txt", ex / "ctm" / "phones.txt", "--segments", ex / "ctm" / "segments",
             ex / "ctm" / "phones.ctm", ex / "ctm" / "words.reco.ctm", tmp_path / "ctm_reco"], capsys)
    prepare(["--format", "textgrid", ex / "textgrid", tmp_path / "tg"], capsys)
    prepare(["--format", "ctm", "--phones-txt", ex / "ctm" / "phones.txt", "--segments", ex / "ctm" / "segments",
             ex / "ctm" / "phones.ctm", "-", tmp_path / "derived"], capsys)
    zr = read_dir(tmp_path / "zr")
    assert read_dir(tmp_path / "ctm") == zr
    assert read_dir(tmp_path / "ctm_reco") == zr
    assert read_dir(tmp_path / "tg") == zr
    assert read_dir(tmp_path / "derived")["phones"] == zr["phones"]
    # word boundaries derived from the position suffixes are the word CTM's boundaries
    derived = [ln.split()[:3] for ln in (tmp_path / "derived" / "words").read_text().splitlines()]
    assert derived == [ln.split()[:3] for ln in (tmp_path / "zr" / "words").read_text().splitlines()]
    if (ex / "utt2spk").is_file():
        assert (tmp_path / "zr" / "utt2spk").read_bytes() == (ex / "utt2spk").read_bytes()
    code, err = call(VALIDATE, [tmp_path / "zr"], capsys)
    assert code == 0, err


def test_word_ctm_with_number_words_and_no_words_txt(tmp_path, capsys):
    text = open(f"{FIX}/ctm/words.ctm").read().replace(" the\n", " 1990\n")
    (tmp_path / "w.ctm").write_text(text)
    prepare(ctm_args(tmp_path / "d", words=tmp_path / "w.ctm"), capsys)
    assert (tmp_path / "d" / "words").read_text().endswith("s02-rec2 3 3.2 1990\n")


def test_wrong_number_of_inputs_and_bad_sil_label_are_usage_errors(tmp_path, capsys):
    code, err = call(PREPARE, ["--format", "zr", "a.phn", str(tmp_path / "d")], capsys)
    assert code == 2 and "--format zr takes 3 arguments, got 2" in err
    code, err = call(PREPARE, ["--format", "textgrid", "--sil-label", "S L", "tg", str(tmp_path / "d")], capsys)
    assert code == 2 and "--sil-label must be one non-empty token" in err
    assert not (tmp_path / "d").exists()
