"""Gold preparation on the real ZeroSpeech files (../shared/data, fixture `shared`)."""
from __future__ import annotations

import pytest

from termeval.core.datadir import load_gold
from test_gold import EXPORT, FIX, call, prepare, read_dir


def lines(path) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def test_zr17_mandarin_smoke(shared, tmp_path, capsys):
    d = tmp_path / "mandarin"
    _, err = prepare(["--format", "zr", f"{shared}/data/zr17/mandarin.phn", f"{shared}/data/zr17/mandarin.wrd", d],
                     capsys)
    assert "12 files, 12 speakers, 70290 phones (5049 SIL), 19796 words, 2.60 h" in err
    phones = lines(d / "phones")
    assert len(phones) == 70290
    assert sum(1 for ln in phones if ln.endswith(" SIL")) == 5049   # the input's own SILs: no gap left
    assert phones[0] == "A08 0 0.7825 SIL" and phones[1] == "A08 0.7825 0.9425 q"
    assert len(lines(d / "words")) == 19796
    assert lines(d / "utt2spk")[:2] == ["A08 A08", "A33 A33"] and len(lines(d / "spk2utt")) == 12
    assert lines(d / "reco2dur")[:3] == ["A08 1332.08", "A33 455.825", "A36 480.81"]
    g = load_gold(str(d))
    assert len(g.files) == 12 and round(float(g.duration.sum()), 3) == 9374.022
    # every parsed double of the input is kept exactly
    src = [ln.split(" ") for ln in lines(f"{shared}/data/zr17/mandarin.phn")]
    ours = [ln.split(" ") for ln in phones]
    assert [(a[0], float(a[1]), float(a[2]), a[3]) for a in src] == [(b[0], float(b[1]), float(b[2]), b[3]) for b in ours]


def test_tde17_mandarin_needs_sort_and_filling_gives_the_tdev2_file(shared, tmp_path, capsys):
    """The TDE17 Mandarin .phn (SIL-less, segments out of order) + --sort true + gap filling is
    byte for byte the data dir of the TDEv2 Mandarin .phn (the same phones + 5049 SIL)."""
    src17 = [f"{shared}/data/zr17_tde17/mandarin.phn", f"{shared}/data/zr17_tde17/mandarin.wrd"]
    code, err = prepare(["--format", "zr", *src17, tmp_path / "x"], capsys, ok=False)
    assert code == 1 and "zr17_tde17/mandarin.phn:155: phone interval 18.8525..18.9425 of 'A08' starts " \
                         "before the previous one" in err
    prepare(["--sort", "true", "--format", "zr", *src17, tmp_path / "a"], capsys)
    prepare(["--format", "zr", f"{shared}/data/zr17/mandarin.phn", f"{shared}/data/zr17/mandarin.wrd",
             tmp_path / "b"], capsys)
    assert read_dir(tmp_path / "a") == read_dir(tmp_path / "b")
    # without filling: the SIL-less phones the TDE17 tools saw (sorted)
    prepare(["--sort", "true", "--fill-gaps", "false", "--format", "zr", *src17, tmp_path / "c"], capsys)
    assert len(lines(tmp_path / "c" / "phones")) == 65241
    code, _ = call(EXPORT, ["--drop-sil", "true", tmp_path / "b", tmp_path / "b.phn", tmp_path / "b.wrd"], capsys)
    assert code == 0
    assert (tmp_path / "b.phn").read_bytes() == (tmp_path / "c" / "phones").read_bytes()


def test_zr15_sample_and_xitsonga_speakers(shared, tmp_path, capsys):
    _, err = prepare(["--sort", "true", "--spk-rule", "prefix:3", "--format", "zr", f"{shared}/data/zr15/sample.phn",
                      f"{shared}/data/zr15/sample.wrd", tmp_path / "s"], capsys)
    assert "11 files, 2 speakers, 37600 phones (2192 SIL), 12268 words" in err   # one SIL per segment
    assert lines(tmp_path / "s" / "spk2utt")[0].split()[0] == "s28"
    _, err = prepare(["--spk-rule", "field:_:3", "--format", "zr", f"{shared}/data/zr15/xitsonga.phn",
                      f"{shared}/data/zr15/xitsonga.wrd", tmp_path / "x"], capsys)
    assert "4058 files, 24 speakers, 87702 phones (4058 SIL), 19848 words" in err


def test_reference_reader_accepts_export(tmp_path, capsys):
    """TDEv2's gold reader (the ZR2017 reference) reads our export and finds our boundaries."""
    gr = pytest.importorskip("tde.readers.gold_reader")
    prepare(["--strip-stress", "true", "--format", "zr", f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd",
             tmp_path / "d"], capsys)
    code, _ = call(EXPORT, [tmp_path / "d", tmp_path / "e.phn", tmp_path / "e.wrd"], capsys)
    assert code == 0
    g = gr.Gold(wrd_path=str(tmp_path / "e.wrd"), phn_path=str(tmp_path / "e.phn"))
    assert sorted(g.phones) == ["s01-rec1", "s02-rec2"]
    assert len(g.phones["s01-rec1"]) == 9 and len(g.phones["s02-rec2"]) == 10
    first, second = g.boundaries  # word edges, one dict per side, SIL excluded
    assert sorted(set(first["s01-rec1"]) | set(second["s01-rec1"])) == [0.5, 0.8, 0.9, 1.25, 1.6]
    assert sorted(set(first["s02-rec2"]) | set(second["s02-rec2"])) == [2.0, 2.4, 2.7, 3.0, 3.2]
