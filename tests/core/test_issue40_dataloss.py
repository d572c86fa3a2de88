"""Issue 40 §1-6, 15, 16: the guard, the publish, the user cache, the memos and the template,
one test (or more) per line of the issue; tests/recipe/test_issue40_outputs.py runs every
output option of every step, tests/jobs/test_issue40_processes.py the processes and locks."""
from __future__ import annotations

import errno
import os
import subprocess
import sys

import numpy as np
import pytest

import termeval
from termeval.core import publish, usercache
from termeval.core.datadir import gold_stamp
from termeval.core.errors import InputError
from termeval.core.guard import Searched, check_outputs, check_placing, check_replaced_dir
from termeval.gold import prepare_zr
from termeval.tde.zrc2020 import goldcache

PHN = "f1 0.00 0.10 SIL\nf1 0.10 0.30 a\nf1 0.30 0.50 b\nf2 0.00 0.40 d\nf2 0.40 0.90 e\n"
WRD = "f1 0.10 0.50 ab\nf2 0.00 0.40 d\nf2 0.40 0.90 e\n"
CLS = "Class 1\nf1 0.10 0.50\nf2 0.00 0.40\n\nClass 2\nf2 0.40 0.90\nf1 0.30 0.50\n"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture()
def gold(tmp_path):
    (tmp_path / "x.phn").write_text(PHN)
    (tmp_path / "x.wrd").write_text(WRD)
    (tmp_path / "x.class").write_text(CLS)
    prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data" / "gold"))
    return tmp_path


# ----------------------------------------------------------------------------- 1. publish

def test_1_publish_never_replaces_a_directory_by_a_file(tmp_path):
    (tmp_path / "D").mkdir()
    (tmp_path / "D" / "f").write_text("mine\n")
    (tmp_path / "new").write_text("table\n")
    with pytest.raises(IsADirectoryError):
        publish.replace(str(tmp_path / "new"), str(tmp_path / "D"))
    (tmp_path / "F").write_text("mine\n")
    (tmp_path / "newdir").mkdir()
    with pytest.raises(NotADirectoryError):
        publish.replace(str(tmp_path / "newdir"), str(tmp_path / "F"))
    assert (tmp_path / "D" / "f").read_text() == "mine\n" and (tmp_path / "F").read_text() == "mine\n"
    with pytest.raises(IsADirectoryError) as e:            # named as the output, not its temporary
        with publish.atomic_file(str(tmp_path / "D")) as f:
            f.write("x")
    assert e.value.filename == str(tmp_path / "D")
    assert not [n for n in os.listdir(tmp_path) if publish.is_temporary(n)]


def test_1_summarize_scores_out_onto_a_directory_is_refused(gold):
    termeval.score_tde(str(gold / "data" / "gold"), str(gold / "x.class"), exp_dir=str(gold / "exp" / "s"))
    (gold / "D").mkdir()
    (gold / "D" / "notes").write_text("mine\n")
    r = subprocess.run([f"{ROOT}/utils/summarize_scores.sh", "--out", "D", "exp"], cwd=gold, capture_output=True,
                       text=True)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        "summarize_scores.py: error: D: exists and is a directory (summarize_scores writes a file there, which "
        "would replace the directory and all it holds; move it away or choose another output)"]
    assert (gold / "D" / "notes").read_text() == "mine\n"


def test_1_check_placing_and_replaced_dirs(tmp_path):
    (tmp_path / "new").mkdir()
    (tmp_path / "dest").write_text("x")
    with pytest.raises(InputError, match="exists and is not a directory"):
        check_placing("s", [(str(tmp_path / "new"), str(tmp_path / "dest"))])
    (tmp_path / "kws").mkdir()
    (tmp_path / "kws" / "ecf.xml").write_text("")
    check_replaced_dir("prepare_kws", str(tmp_path / "kws"), ("ecf.xml", "rttm"))
    (tmp_path / "kws" / "lattices").mkdir()
    with pytest.raises(InputError, match=r"holds what prepare_kws does not write \(lattices\)"):
        check_replaced_dir("prepare_kws", str(tmp_path / "kws"), ("ecf.xml", "rttm"))


def test_1_prepare_kws_writes_only_the_names_it_declares(gold):
    from termeval.kws.prepare import KWS_FILES
    (gold / "kw.txt").write_text("k1 ab\nk2 d\n")
    termeval.prepare_kws(str(gold / "data" / "gold"), str(gold / "kws"), keywords=str(gold / "kw.txt"))
    assert set(os.listdir(gold / "kws")) <= set(KWS_FILES)
    termeval.prepare_kws(str(gold / "data" / "gold"), str(gold / "kws"), keywords=str(gold / "kw.txt"))  # its own


# ----------------------------------------------------------------------------- 2. inputs

def test_2_summarize_scores_never_overwrites_the_scores_it_reads(gold):
    termeval.score_tde(str(gold / "data" / "gold"), str(gold / "x.class"), exp_dir=str(gold / "exp" / "s"))
    sj = gold / "exp" / "s" / "scores" / "scores.json"
    before = sj.read_bytes()
    with pytest.raises(InputError, match="is one of the files it reads below"):
        termeval.summarize_scores(str(gold / "exp"), out=str(sj))
    r = subprocess.run([f"{ROOT}/utils/summarize_scores.sh", "--out", "exp/s/scores/scores.json", "exp"], cwd=gold,
                       capture_output=True, text=True)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1
    assert sj.read_bytes() == before
    termeval.summarize_scores(str(gold / "exp"), out=str(gold / "exp" / "RESULTS.md"))   # beside: fine,
    termeval.summarize_scores(str(gold / "exp"), out=str(gold / "exp" / "RESULTS.md"))   # and again


def test_2_a_file_written_directly_in_an_input_directory_is_refused(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "words").write_text("w\n")
    with pytest.raises(InputError, match="is a file in its input directory .*/data, whose files it reads"):
        check_outputs("export_zr", [str(tmp_path / "data")], [], files=[str(tmp_path / "data" / "words")])
    with pytest.raises(InputError, match="is a file in its input directory"):
        check_outputs("x", [str(tmp_path / "data")], [str(tmp_path / "data" / "words")])   # existing, any kind
    check_outputs("x", [str(tmp_path / "data")], [str(tmp_path / "data" / "kws")])          # a new directory
    root = Searched(str(tmp_path), ("scores/*",))
    check_outputs("s", [root], [], files=[str(tmp_path / "RESULTS.md")])
    with pytest.raises(InputError, match="reads below"):
        check_outputs("s", [root], [], files=[str(tmp_path / "a" / "scores" / "std")])


def test_2_export_zr_onto_the_data_dirs_own_words_is_refused(gold):
    data = gold / "data" / "gold"
    before = (data / "words").read_bytes()
    with pytest.raises(InputError, match="is a file in its input directory"):
        termeval.export_zr(str(data), str(data / "words"), str(gold / "x2.wrd"))
    assert (data / "words").read_bytes() == before and not (gold / "x2.wrd").exists()


# ----------------------------------------------------------------------------- 3. the cache's own

def test_3_a_cache_dir_holding_the_gold_is_refused_and_never_prunes_it(gold, monkeypatch):
    data = gold / "data"
    monkeypatch.setenv(usercache.ENV, str(data))           # the docs' layout: the gold at data/gold
    before = sorted(os.listdir(data / "gold"))
    with pytest.raises(InputError, match=r"the cache directory .* is, holds or lies inside the input"):
        termeval.score_tde(str(data / "gold"), str(gold / "x.class"))
    r = subprocess.run([f"{ROOT}/steps/score_tde.sh", "data/gold", "x.class", "exp/c"], cwd=gold, capture_output=True,
                       text=True, env=dict(os.environ, **{usercache.ENV: "data"}))
    assert r.returncode == 1 and "the cache directory TERMEVAL_CACHE_DIR=data is, holds or lies inside" in r.stderr
    assert sorted(os.listdir(data / "gold")) == before


def test_3_pruning_removes_only_the_stores_own_entries(tmp_path):
    store = tmp_path / "gold"
    store.mkdir()
    for n in ("phones", "words", "notes.npz", "a" * 32 + "-" + "b" * 16 + ".npz.bak"):
        (store / n).write_text("user\n")
    names = [f"{i:032x}-{'c' * 16}.npz" for i in range(6)]
    for i, n in enumerate(names):
        (store / n).write_text("entry\n")
        os.utime(store / n, (1000 + i, 1000 + i))
    usercache.prune(str(store), goldcache.STORE_NAME, 4)
    assert sorted(os.listdir(store)) == sorted(["phones", "words", "notes.npz", "a" * 32 + "-" + "b" * 16 + ".npz.bak"]
                                               + names[2:])


def test_3_a_cache_dir_inside_an_output_is_refused(gold, monkeypatch):
    monkeypatch.setenv(usercache.ENV, str(gold / "exp" / "s" / "cache"))
    with pytest.raises(InputError, match="lies inside the output"):
        termeval.score_tde(str(gold / "data" / "gold"), str(gold / "x.class"), exp_dir=str(gold / "exp" / "s"))


# ----------------------------------------------------------------------------- 4. memos on content

def test_4_the_api_memo_sees_an_edit_with_the_same_size_and_mtime(gold):
    data = gold / "data" / "gold"
    first = termeval.score_tde(str(data), str(gold / "x.class"))
    st = os.stat(data / "words")
    text = (data / "words").read_text()
    edited = text.replace(" ab\n", " xy\n")
    assert len(edited) == len(text) and edited != text
    stamp = gold_stamp(str(data))
    (data / "words").write_text(edited)
    os.utime(data / "words", ns=(st.st_atime_ns, st.st_mtime_ns))          # same size, same mtime
    assert gold_stamp(str(data)) != stamp
    second = termeval.score_tde(str(data), str(gold / "x.class"))
    assert second != first


# ----------------------------------------------------------------------------- 5. checked entries

def test_5_a_saved_gold_with_the_right_key_but_wrong_arrays_is_parsed_again(gold, capsys):
    data = str(gold / "data" / "gold")
    g, key, parsed = goldcache.load(data, None)
    path = str(gold / "gold.npz")
    goldcache.save(g, path, key)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["phones_onset"] = arrays["phones_onset"][:-1]                     # a wrong shape, same key
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    goldcache._memo.clear()
    back, _, parsed = goldcache.load(data, path)
    assert parsed and np.array_equal(back.phones.onset, g.phones.onset)
    assert "saved parsed gold fails its check (not the arrays it was saved with): parsed again" in capsys.readouterr().err
    arrays["digest"] = np.array(__import__("termeval.core.arraydir", fromlist=["x"]).array_digest(
        {k: v for k, v in arrays.items() if k not in ("stamp", "digest")}))   # a consistent digest, wrong counts
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    goldcache._memo.clear()
    assert goldcache.load(data, path)[2] is True
    assert "the phones arrays differ in length" in capsys.readouterr().err


def test_5_saved_arrays_and_prepared_classes_are_checked(gold, capsys):
    from termeval.core import arraydir
    d = str(gold / "arr")
    arraydir.save(d, {"a": np.arange(10)}, "k1")
    assert arraydir.key_matches(d, "k1")
    np.save(os.path.join(d, "a.npy"), np.arange(9))                          # truncated, same key
    assert not arraydir.key_matches(d, "k1")
    assert "saved arrays fail their check (a.npy is not what was saved)" in capsys.readouterr().err
    exp = gold / "exp" / "t"
    good = termeval.score_tde(str(gold / "data" / "gold"), str(gold / "x.class"), exp_dir=str(exp))
    seg = exp / "classes" / "segments"
    seg.write_text("".join(seg.read_text().splitlines(keepends=True)[:1]))  # a truncated prepared class dir
    again = termeval.score_tde(str(gold / "data" / "gold"), str(gold / "x.class"), exp_dir=str(exp))
    assert "prepared classes fail their check" in capsys.readouterr().err
    numbers = lambda d: {k: v for k, v in d.items() if isinstance(v, (int, float))}   # noqa: E731 (not the dates)
    assert numbers(again) == numbers(good) and numbers(good)


# ----------------------------------------------------------------------------- 6. no home, no cache

@pytest.mark.parametrize("home", ["", "/", "relative"])
def test_6_an_unusable_home_means_no_cache(monkeypatch, capsys, home):
    monkeypatch.delenv(usercache.ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", home)
    monkeypatch.setattr(usercache, "_noted", set())
    assert usercache.base() is None and usercache.root("gold") is None
    assert capsys.readouterr().err.count("note: no cache of parsed inputs: no usable home directory") == 1
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")                   # not absolute: not used either
    assert usercache.base() is None
    monkeypatch.setenv("HOME", "/home/u")
    assert usercache.base() == "/home/u/.cache/termeval"


def test_6_no_byte_code_cache_at_the_root(tmp_path):
    code = "import os, sys; print(os.environ.get('PYTHONPYCACHEPREFIX'), sys.dont_write_bytecode)"
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    for home, want in (("", "None True"), ("/", "None True"), (str(tmp_path), f"{tmp_path}/.cache/termeval/pycache False")):
        r = subprocess.run([f"{ROOT}/utils/termeval_python.sh", "-c", code], capture_output=True, text=True,
                           env=dict(env, HOME=home))
        assert r.stdout.strip() == want, r.stderr


# ----------------------------------------------------------------------------- 15. --init whole

def test_15_init_on_a_full_disk_leaves_nothing_and_completes_its_own_half(tmp_path, monkeypatch):
    from termeval.zrc import template
    real_open = open

    def full(path, *a, **k):                       # the disk fills up while params.yaml is written
        if "params.yaml" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_open(path, *a, **k)
    monkeypatch.setattr("builtins.open", full)
    with pytest.raises(OSError):
        template.init_submission(str(tmp_path / "sub"))
    monkeypatch.undo()
    assert not (tmp_path / "sub").exists()                                   # no meta.yaml alone
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "meta.yaml").write_text(template.META_TEMPLATE)    # what an interrupted --init left
    assert template.init_submission(str(tmp_path / "sub")) == [str(tmp_path / "sub" / n) for n in template.FILES]
    assert (tmp_path / "sub" / "params.yaml").read_text() == template.PARAMS_TEMPLATE
    (tmp_path / "sub" / "params.yaml").unlink()
    (tmp_path / "sub" / "meta.yaml").write_text(template.META_TEMPLATE.replace("<your zerospeech.com user name>", "me"))
    with pytest.raises(InputError, match="meta.yaml: exists: --init never overwrites"):
        template.init_submission(str(tmp_path / "sub"))                      # the user's: never touched
    assert "me" in (tmp_path / "sub" / "meta.yaml").read_text() and not (tmp_path / "sub" / "params.yaml").exists()


def test_15_init_on_a_full_disk_names_the_submission(tmp_path, monkeypatch):
    """A write that fails as a full disk's does (at write or close: no file named) is reported
    naming the submission dir, not `[Errno 28] No space left on device` alone."""
    from termeval.zrc import template
    real_open = open

    def full(path, *a, **k):
        if "params.yaml" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path, *a, **k)
    monkeypatch.setattr("builtins.open", full)
    with pytest.raises(OSError) as e:
        template.init_submission(str(tmp_path / "sub"))
    monkeypatch.undo()
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(tmp_path / "sub")
    assert not (tmp_path / "sub").exists()


# ----------------------------------------------------------------------------- 16. KWSEval

@pytest.fixture()
def std_example(tmp_path):
    r = subprocess.run([sys.executable, f"{ROOT}/local/make_example_std.py", str(tmp_path / "std")],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT))
    assert r.returncode == 0, r.stderr
    return tmp_path / "std"


def test_16_kwseval_on_a_read_only_root_is_its_error_line(std_example, tmp_path, monkeypatch, capsys):
    from termeval.bin import kwseval
    real = open

    def read_only(path, mode="r", *a, **k):
        if "w" in mode and str(tmp_path / "out") in str(path):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real(path, mode, *a, **k)
    monkeypatch.setattr("builtins.open", read_only)
    (tmp_path / "out").mkdir()
    rc = kwseval.main(["-e", f"{std_example}/kws/ecf.xml", "-r", f"{std_example}/kws/rttm", "-t",
                       f"{std_example}/kws/tlist.xml", "-s", f"{std_example}/detections.kwslist.xml", "-o",
                       "-f", f"{tmp_path}/out/"])
    out = capsys.readouterr()
    assert rc == 1 and out.err == ""
    assert out.out.splitlines()[-1] == (f"[ERROR] Could not write the reports under the file root '{tmp_path}/out/': "
                                        "read-only file system")
    assert os.listdir(tmp_path / "out") == []


def test_16_kwseval_warnings_are_headed_kwseval(std_example, tmp_path):
    text = (std_example / "detections.kwslist.xml").read_text()
    i = text.index("<kw ")
    j = text.index("/>", i) + 2
    (tmp_path / "dup.xml").write_text(text[:j] + "\n" + text[i:j] + text[j:])     # a duplicate detection: a warning
    r = subprocess.run([f"{ROOT}/utils/KWSEval", "-e", f"{std_example}/kws/ecf.xml", "-r", f"{std_example}/kws/rttm",
                        "-t", f"{std_example}/kws/tlist.xml", "-s", str(tmp_path / "dup.xml"), "-o",
                        "-f", f"{tmp_path}/o"], capture_output=True, text=True)
    warnings = [ln for ln in r.stderr.splitlines() if "warning:" in ln]
    assert r.returncode == 0, r.stdout + r.stderr
    assert warnings and all(ln.startswith("KWSEval: warning: ") for ln in warnings), r.stderr
