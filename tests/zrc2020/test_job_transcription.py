"""A zrc2020 job of a step that ran --prepare-only reads no phone time: the prepare saves every
fragment's transcription (k0, k1, ncov) and the phone labels with the class arrays, keyed on
content; the outputs of any --nj are byte for byte those of one process."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.bin import score_tde
from termeval.core.stage import running_as
from termeval.run.cli import options_of
from termeval.tde.zrc2020 import classcache, goldcache, stage as zstage, stats
from termeval.tde.zrc2020.testing import write_data_dir
from termeval.tde.zrc2020.transcribe import load_phones, transcribe
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD
from test_stage import _files, run_parsed, score


@pytest.fixture()
def micro(tmp_path):
    for name, text in (("x.phn", MICRO_PHN), ("x.wrd", MICRO_WRD), ("x.class", MICRO_CLASSES)):
        (tmp_path / name).write_text(text)
    write_data_dir(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    # a duplicated phone line: load_phones collapses it, so the phone indices k0/k1 of the
    # transcription differ from the gold tier's (a job must use load_phones' labels)
    phones = tmp_path / "data" / "phones"
    phones.write_text(phones.read_text().replace("A 0.1 0.2 b\n", "A 0.1 0.2 b\nA 0.1 0.2 b\n", 1))
    goldcache._memo.clear()
    zstage._corpus_memo.clear()
    return tmp_path


def _args(micro, exp, *more):
    """score_tde's Options of these arguments."""
    p = score_tde.get_parser()
    return options_of(p, p.parse_args([str(micro / "data"), str(micro / "x.class"), str(exp), *more]))


def _no_gold(monkeypatch):
    """Whatever reads or transcribes the gold phones fails the test."""
    def fail(*a, **k):
        pytest.fail("a job read the gold phones")
    for mod, name in ((goldcache, "load"), (goldcache, "load_gold"), (zstage, "corpus_of"),
                      (stats, "load_phones"), (stats, "transcribe"), (zstage, "transcribe"),
                      (zstage, "load_classes")):
        monkeypatch.setattr(mod, name, fail)


def _run_jobs(micro, exp, nj, monkeypatch):
    with monkeypatch.context() as m:
        _no_gold(m)
        for j in range(1, nj + 1):
            a = _args(micro, exp, "--nj", str(nj))
            with running_as("job"):
                ctx = zstage.Zrc2020Stage().load(a)
            # what the job holds of the gold: file names and phone labels, no time, no word
            ph, gold = ctx.corpus.phones, ctx.corpus.gold
            assert ctx.transcribed and ctx.classes is None
            assert len(ph.onset) == len(ph.offset) == len(ph.file) == 0 and len(ph.label) == 14
            assert len(gold.phones.onset) == 0 and len(gold.words.onset) == 0 and gold.files == ["A", "B", "C"]
            run_parsed(a, job=j)
    m = _args(micro, exp, "--nj", str(nj))
    return run_parsed(m, merge=nj)


def test_jobs_read_no_phone_time_and_equal_one_process(micro, monkeypatch):
    one = micro / "one"
    want = score(micro / "data", micro / "x.class", one)
    gold = goldcache.load(str(micro / "data"), None)[0]
    assert len(gold.phones.onset) == 15 and len(load_phones(gold)) == 14      # the duplicate
    for nj in (1, 2, 3, 8):
        exp = micro / f"exp{nj}"
        a = _args(micro, exp, "--prepare-only")
        score_tde.stage_of(a).prepare(a)
        got = _run_jobs(micro, exp, nj, monkeypatch)
        assert got["ned"] == want["ned"] and got["counts"] == want["counts"]
        assert _files(exp) == _files(one), nj


def test_prepared_transcription_is_what_compute_shard_makes(micro):
    exp = micro / "exp"
    a = _args(micro, exp, "--prepare-only")
    score_tde.stage_of(a).prepare(a)
    cache = str(exp / "tde" / "classes")
    classes = classcache.load_all(cache)
    corpus = stats.Corpus.from_gold(goldcache.load(str(micro / "data"), None)[0])
    n = len(classes.starts) - 1
    k0, k1, ncov = transcribe(corpus.phones, classes.file.astype(np.int64), classes.onset, classes.offset)
    for lo, hi in ((0, n), (1, 3), (2, 2), (3, n)):
        f0, f1 = classes.starts[lo], classes.starts[hi]
        got = classcache.transcribed(cache, lo, hi)
        assert [g.tolist() for g in got] == [k0[f0:f1].tolist(), k1[f0:f1].tolist(), ncov[f0:f1].tolist()]
        assert all(g.dtype == np.int64 for g in got)
    assert ((k1 <= k0) & (ncov > 0)).any()    # a fragment below the rule (discarded)
    label, labels, files = classcache.labels(cache)
    assert label.tolist() == corpus.phones.label.tolist() and labels == corpus.phones.labels and files == ["A", "B", "C"]


def test_a_cache_without_or_with_another_transcription_is_never_used(micro, monkeypatch):
    exp = micro / "exp"
    score(micro / "data", micro / "x.class", exp)          # one process: class arrays, no transcription
    cache = str(exp / "tde" / "classes")
    written = (exp / "tde" / "classes" / "key").read_text().strip()
    assert written.startswith(classcache.FORMAT + " ")        # a cache of another format is never read
    key = written[len(classcache.FORMAT) + 1:]
    assert classcache.valid(cache, key) and not classcache.valid(cache, key, transcribed=True)
    a = _args(micro, exp, "--nj", "2")
    assert zstage.Zrc2020Stage()._load_job(a) is None        # a job then reads the gold (today's path)
    with running_as("job"):
        assert zstage.Zrc2020Stage().load(a).transcribed is False
    p = _args(micro, exp, "--prepare-only")
    score_tde.stage_of(p).prepare(p)                        # adds it to the same key
    assert classcache.valid(cache, key, transcribed=True)
    assert zstage.Zrc2020Stage()._load_job(a).transcribed
    # another gold (edited data dir): the saved transcription is not used
    phones = micro / "data" / "phones"
    text = phones.read_text()
    assert "A 0.2 0.3 c\n" in text
    phones.write_text(text.replace("A 0.2 0.3 c\n", "A 0.2 0.29 c\n", 1))
    assert zstage.Zrc2020Stage()._load_job(a) is None
    # a prepare killed while writing leaves the old directory whole
    real = classcache.np.save
    calls = []

    def dying(*x, **k):
        calls.append(1)
        if len(calls) == 9:           # among the transcription files
            raise KeyboardInterrupt
        return real(*x, **k)
    monkeypatch.setattr(classcache.np, "save", dying)
    goldcache._memo.clear()
    zstage._corpus_memo.clear()
    with pytest.raises(KeyboardInterrupt):
        score_tde.stage_of(p).prepare(p)
    monkeypatch.setattr(classcache.np, "save", real)
    assert classcache.valid(cache, key, transcribed=True) and zstage.Zrc2020Stage()._load_job(a) is None
    score_tde.stage_of(p).prepare(p)
    assert zstage.Zrc2020Stage()._load_job(a).transcribed


@pytest.mark.parametrize("sil", [0, 3, -1])
def test_stripped_ids_from_the_ranges_alone_equal_the_per_phone_table(sil):
    """Keys(local=True) (a job) gives the ids and strings of the per-phone table (one process),
    with SIL stripped, labels past the surrogate range, empty and repeated ranges."""
    from termeval.tde.zrc2020.transcribe import Keys, Phones
    rng = np.random.default_rng(sil + 5)
    n = 400
    label = rng.integers(0, 6, n).astype(np.int32)
    label[::37] = 0xD800 - 0x100 + rng.integers(0, 3, len(label[::37]))     # code points >= 0xD800
    labels = [f"p{i}" for i in range(int(label.max()) + 1)]
    z = np.zeros(0)
    ph = Phones(file=z.astype(np.int32), onset=z, offset=z, label=label, labels=labels,
                starts=np.zeros(0, np.int64), sil=sil)
    k0 = rng.integers(0, n, 300)
    k1 = np.minimum(k0 + rng.integers(0, 6, 300), n)
    k0 = np.r_[k0, k0[:20], 7, n]           # repeats, an empty range, the end
    k1 = np.r_[k1, k1[:20], 7, n]
    want = Keys(ph).stripped_ids(k0, k1)
    got = Keys(ph, local=True).stripped_ids(k0, k1)
    assert got[0].tolist() == want[0].tolist() and got[1] == want[1]
    assert len(set(want[1])) == len(want[1]) > 50 and "" in want[1]
    if sil >= 0:
        assert all(chr(0x100 + sil) not in s for s in want[1])
    empty = Keys(ph, local=True).stripped_ids(np.zeros(0, np.int64), np.zeros(0, np.int64))
    assert empty[0].tolist() == [] and empty[1] == []
