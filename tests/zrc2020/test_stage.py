"""zrc2020/stage.py through the job protocol as the Python API calls it (jobs.run with the args of
bin/score_tde.get_parser()): gold parsed once per process and content, caches keyed on content."""
from __future__ import annotations

import json
import os

import pytest

from termeval.run import driver as jobs
from termeval.bin import score_tde
from termeval.classes.prepare import prepare_into
from termeval.run.cli import options_of
from termeval.tde.shared import class_preparation
from termeval.tde.zrc2020 import goldcache, stage as zstage
from termeval.tde.zrc2020.testing import write_data_dir
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD


@pytest.fixture()
def micro(tmp_path):
    for name, text in (("x.phn", MICRO_PHN), ("x.wrd", MICRO_WRD), ("x.class", MICRO_CLASSES)):
        (tmp_path / name).write_text(text)
    write_data_dir(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    (tmp_path / "y.class").write_text("Class 1\nA 0.1 0.3\nB 0.1 0.3\n\n")
    return tmp_path


@pytest.fixture()
def parses(monkeypatch):
    """The data dirs parsed from text (not from a memo or a cache), in order."""
    goldcache._memo.clear()
    zstage._corpus_memo.clear()
    calls: list[str] = []
    real = goldcache.load_gold
    monkeypatch.setattr(goldcache, "load_gold", lambda d: calls.append(d) or real(d))
    return calls


def score(data, cls, exp=None):
    p = score_tde.get_parser()
    opts = options_of(p, p.parse_args([str(data), str(cls), str(exp or "unused")]))
    if exp is None:
        opts = opts.replace(exp_dir=None)
    return jobs.run(score_tde.stage_of(opts), opts, opts.exp_dir, echo=False)


def test_many_systems_one_gold_parsed_once(micro, parses, monkeypatch):
    monkeypatch.chdir(micro)
    before = sorted(os.listdir(micro))
    a = score(micro / "data", micro / "x.class")
    b = score(micro / "data", micro / "y.class")
    a2 = score(micro / "data", micro / "x.class")
    assert parses == [str(micro / "data")]
    assert a["ned"] == 0.175 and a["counts"]["fragments"] == 12 and b["counts"]["fragments"] == 2
    assert {k: v for k, v in a2.items() if k not in ("stages", "command")} == \
        {k: v for k, v in a.items() if k not in ("stages", "command")}
    assert sorted(os.listdir(micro)) == before          # no exp dir: nothing written
    # same size, same mtime, other bytes: parsed again, other scores
    phones = micro / "data" / "phones"
    st, text = phones.stat(), phones.read_text()
    changed = text.replace("A 0.1 0.2 b", "A 0.1 0.2 c", 1)
    assert changed != text and len(changed) == len(text)
    phones.write_text(changed)
    os.utime(phones, ns=(st.st_atime_ns, st.st_mtime_ns))
    c = score(micro / "data", micro / "x.class")
    assert len(parses) == 2 and c["ned"] != a["ned"]


def test_exp_dir_caches_are_keyed_on_content(micro, parses):
    exp = micro / "exp"
    first = score(micro / "data", micro / "x.class", exp)
    assert (exp / "tde" / "gold.npz").is_file() and (exp / "tde" / "classes" / "key").is_file()
    goldcache._memo.clear()
    zstage._corpus_memo.clear()
    assert score(micro / "data", micro / "x.class", exp)["ned"] == first["ned"]
    assert len(parses) == 1                              # the second run read tde/gold.npz
    goldcache._memo.clear()
    zstage._corpus_memo.clear()
    phones = micro / "data" / "phones"
    st, text = phones.stat(), phones.read_text()
    phones.write_text(text.replace("A 0.1 0.2 b", "A 0.1 0.2 c", 1))
    os.utime(phones, ns=(st.st_atime_ns, st.st_mtime_ns))
    changed = score(micro / "data", micro / "x.class", exp)
    assert len(parses) == 2 and changed["ned"] != first["ned"]
    assert json.loads((exp / "scores" / "scores.json").read_text())["ned"] == changed["ned"]


def run_parsed(a, job=None, merge=None):
    """score_tde's parsed arguments (or their Options, with job= or merge=) run as the step runs
    them: the driver."""
    o = a if hasattr(a, "validate") else options_of(score_tde.get_parser(), a)
    job = getattr(a, "job", None) if job is None else job
    merge = getattr(a, "merge", None) if merge is None else merge
    return jobs.run(score_tde.stage_of(o), o, o.exp_dir, nj=o.nj, job=job, merge=merge,
                    run_id=getattr(a, "run_id", None), echo=False)


def test_jobs_refuse_classes_of_another_preparation(micro):
    exp = micro / "exp"
    p = score_tde.get_parser()
    args = p.parse_args([str(micro / "data"), str(micro / "x.class"), str(exp), "--prepare-only"])
    opts = options_of(p, args)
    score_tde.stage_of(opts).prepare(opts)
    for j in (1, 2):
        a = p.parse_args([str(micro / "data"), str(micro / "x.class"), str(exp), "--nj", "2", "--job", str(j)])
        run_parsed(a)
    m = p.parse_args([str(micro / "data"), str(micro / "x.class"), str(exp), "--merge", "2"])
    assert run_parsed(m)["ned"] == 0.175
    a = p.parse_args([str(micro / "data"), str(micro / "y.class"), str(exp), "--nj", "2", "--job", "1"])
    from termeval.core.errors import InputError
    with pytest.raises(InputError, match="not prepared from this class file"):
        run_parsed(a)


def _files(exp):
    """Every result file's bytes (scores.json without its command and stage records)."""
    out = {}
    for sub in ("scores", "details"):
        for name in sorted(os.listdir(exp / sub)):
            if name == ".summary":      # the stdout summary a launched merge leaves for its step
                continue
            text = (exp / sub / name).read_bytes()
            if name == "scores.json":
                s = json.loads(text)
                text = json.dumps({k: v for k, v in s.items() if k not in ("stages", "command")}, sort_keys=True)
            out[f"{sub}/{name}"] = text
    return out


def test_jobs_read_only_their_classes_and_empty_jobs_add_nothing(micro, monkeypatch):
    """--nj 8 on 6 classes: each job reads the fragments of its own class range only (empty
    ranges succeed with an empty shard), the merge reads no class array, and every result
    file is byte for byte that of one process."""
    p = score_tde.get_parser()
    one = micro / "one"
    assert score(micro / "data", micro / "x.class", one)["ned"] == 0.175
    exp = micro / "exp"
    args = p.parse_args([str(micro / "data"), str(micro / "x.class"), str(exp), "--prepare-only"])
    opts = options_of(p, args)
    score_tde.stage_of(opts).prepare(opts)
    read: list[tuple[int, int]] = []
    real = zstage.classcache.load_range
    monkeypatch.setattr(zstage.classcache, "load_range", lambda d, a, b: read.append((a, b)) or real(d, a, b))
    monkeypatch.setattr(zstage, "load_classes", lambda *a: pytest.fail("a job or the merge parsed the classes"))
    nj = 8
    ranges = jobs.balanced_ranges(zstage.class_costs(zstage.classcache.starts(str(exp / "tde" / "classes"))), nj)
    assert sum(lo == hi for lo, hi in ranges) >= 2            # more jobs than classes
    for j in range(1, nj + 1):
        a = p.parse_args([str(micro / "data"), str(micro / "x.class"), str(exp), "--nj", str(nj), "--job", str(j)])
        run_parsed(a)
        assert read[-1] == ranges[j - 1]
        lo, hi = ranges[j - 1]
        sh = jobs.load_shard(jobs.shard_path(str(exp), "zrc2020", j), {"lo": lo, "hi": hi})
        if lo == hi:
            assert sh.meta["counts"]["fragments"] == 0 and len(sh.arrays["frag_onset"]) == 0
    m = p.parse_args([str(micro / "data"), str(micro / "x.class"), str(exp), "--merge", str(nj)])
    n_read = len(read)
    assert run_parsed(m)["ned"] == 0.175
    assert len(read) == n_read                                  # the merge read no class
    assert _files(exp) == _files(one)


def test_class_cache_is_keyed_and_atomic(micro, monkeypatch):
    from termeval.tde.zrc2020 import classcache
    exp = micro / "exp"
    score(micro / "data", micro / "x.class", exp)
    cache = str(exp / "tde" / "classes")
    written = (exp / "tde" / "classes" / "key").read_text().strip()
    assert written.startswith(classcache.FORMAT + " ")        # a cache of another format is never read
    key = written[len(classcache.FORMAT) + 1:]
    assert classcache.valid(cache, key) and not classcache.valid(cache, key + "x")
    assert not classcache.valid(cache, written)             # the content key alone, without the format
    whole = classcache.load_all(cache)
    part = classcache.load_range(cache, 1, 3)
    assert part.keys == whole.keys[1:3] and part.starts.tolist() == (whole.starts[1:4] - whole.starts[1]).tolist()
    assert part.onset.tolist() == whole.onset[whole.starts[1]:whole.starts[3]].tolist() and part.cls.min() == 0
    empty = classcache.load_range(cache, 2, 2)
    assert len(empty) == 0 and empty.keys == [] and empty.starts.tolist() == [0]
    # a writer killed mid-way: the old directory stays whole, no half-written one is used
    calls = []
    real = classcache.np.save

    def dying(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(classcache.np, "save", dying)
    with pytest.raises(KeyboardInterrupt):
        classcache.save(whole, cache, "other key")
    monkeypatch.setattr(classcache.np, "save", real)
    assert classcache.valid(cache, key) and [n for n in os.listdir(exp / "tde") if n != "gold.npz"] == ["classes"]
    # a stale cache (another key) is not used: the jobs refuse nothing, they re-read the class dir
    (exp / "tde" / "classes" / "key").write_text("stale\n")
    goldcache._memo.clear()
    zstage._corpus_memo.clear()
    assert score(micro / "data", micro / "x.class", exp)["ned"] == 0.175
    assert classcache.valid(cache, key)


def test_classes_from_the_preparation_equal_the_class_dir_read_back(micro):
    """One process scores the classes it has just prepared without reading the dir back:
    the same arrays as load_classes, and the fragment ids derived as the dir writes them."""
    from termeval.core.datadir import load_classes
    from termeval.tde.zrc2020 import classcache
    p = score_tde.get_parser()
    args = options_of(p, p.parse_args([str(micro / "data"), str(micro / "x.class"), str(micro / "exp")]))
    kept: dict = {}
    prepare_into(class_preparation(args), str(micro / "exp" / "classes"), log=False, keep=kept)
    gold = goldcache.load(str(micro / "data"), None)[0]
    got = classcache.from_preparation(kept["prep"], gold)
    want = load_classes(str(micro / "exp" / "classes"), gold)
    for k in ("cls", "file", "onset", "offset", "starts"):
        assert getattr(got, k).tolist() == getattr(want, k).tolist(), k
    assert got.keys == want.keys and got.names == want.names and got.frag_ids == []
    derived = [f"{got.keys[c]}-{i - got.starts[c]:07d}" for i, c in enumerate(got.cls.tolist())]
    assert derived == want.frag_ids
