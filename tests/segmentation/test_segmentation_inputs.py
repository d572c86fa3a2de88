"""What the segmentation reader keeps, drops, cuts and refuses (termeval.segmentation.inputs,
docs/segmentation.md "What is read, dropped, cut or refused"): segments outside their utterance,
zero-length and overlapping segments, `segments` utterances past their recording, implausible
tolerances, and --compat vqwordseg on seconds input (hand cases computed with kamperh/vqwordseg
eval_segmentation.py's score_boundaries / score_word_token_boundaries, commit d062717)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from termeval.bin import score_segmentation
from termeval.core.errors import InputError
from termeval.gold import prepare_zr

PHN = """f1 0.00 0.10 SIL
f1 0.10 0.30 a
f1 0.30 0.50 b
f1 0.50 0.80 c
f1 0.80 1.00 SIL
f2 0.00 0.40 d
f2 0.40 0.90 e
"""
WRD = """f1 0.10 0.50 ab
f1 0.50 0.80 c
f2 0.00 0.40 d
f2 0.40 0.90 e
"""
F1 = "f1 0.00 0.11 1\nf1 0.11 0.49 2\nf1 0.49 0.82 3\nf1 0.82 1.00 1\n"
SEG = F1 + "f2 0.00 0.45 2\nf2 0.45 0.90 3\n"


@pytest.fixture()
def toy(tmp_path):
    (tmp_path / "toy.phn").write_text(PHN)
    (tmp_path / "toy.wrd").write_text(WRD)
    prepare_zr(str(tmp_path / "toy.phn"), str(tmp_path / "toy.wrd"), str(tmp_path / "data"))
    return tmp_path


def score(toy, text: str, *opts: str, name: str = "seg") -> dict:
    path = toy / f"{name}.txt"
    path.write_text(text)
    exp = toy / f"exp_{name}"
    score_segmentation.main([*opts, str(toy / "data"), str(path), str(exp)])
    with open(exp / "scores" / "scores.json") as f:
        return json.load(f)


def cli(toy, root, text: str, *opts: str, name: str = "cli") -> subprocess.CompletedProcess:
    path = toy / f"{name}.txt"
    path.write_text(text)
    env = dict(os.environ, PYTHONPATH=root)
    return subprocess.run([sys.executable, "-m", "termeval.bin.score_segmentation", *opts, str(toy / "data"),
                           str(path), str(toy / f"exp_{name}")], capture_output=True, text=True, env=env)


# ---- segments lying wholly outside their file or utterance ------------------------------------

def test_segment_after_file_end_dropped_counted_and_said(toy, root):
    base = score(toy, SEG, name="base")
    assert (base["word_token_precision"], base["segmentation"]["counts"]["token_pred"]) == (2 / 6, 6)
    # f2 ends at 0.9: a segment at 1.2-1.3 used to be cut to [1.2, 0.9] and scored as a 7th token
    p = cli(toy, root, SEG + "f2 1.20 1.30 3\n", name="after")
    assert p.returncode == 0, p.stderr
    warn = [ln for ln in p.stderr.splitlines() if ": warning: " in ln]
    assert len(warn) == 1 and "after.txt: 1 of 7 segments (14.3 %) lie outside every utterance" in warn[0]
    with open(toy / "exp_after" / "scores" / "scores.json") as f:
        s = json.load(f)
    c = s["segmentation"]["counts"]
    assert (c["segments_read"], c["segments_outside_utterances"], c["token_pred"]) == (7, 1, 6)
    assert s["word_token_precision"] == 2 / 6
    assert s["word_boundary_precision"] == base["word_boundary_precision"]
    assert s["segmentation"]["warnings"] == [w.split(": warning: ", 1)[1] for w in warn]


def test_utterance_keyed_segment_past_utterance_dropped(toy):
    (toy / "segments").write_text("u1 f1 0.0 0.5\nu2 f1 0.5 1.0\nu3 f2 0.0 -1\n")
    good = "u1 0.0 0.11 1\nu1 0.11 0.5 2\nu3 0.0 0.41 2\nu3 0.41 0.9 3\n"
    seg = toy / "segments"
    a = score(toy, good, "--segments", str(seg), name="u_good")
    # relative 0.6-0.7 in the 0.5 s utterance u1 (= f1 0.6-0.7, which is u2's), and a segment
    # sticking out of u3 (cut, kept)
    b = score(toy, good.replace("u3 0.41 0.9 3", "u3 0.41 0.95 3") + "u1 0.6 0.7 4\n", "--segments", str(seg),
              name="u_out")
    c = b["segmentation"]["counts"]
    assert (c["segments_outside_utterances"], c["segments_cut_to_utterance"], c["token_pred"]) == (1, 1, 4)
    for k in ("word_boundary_precision", "word_boundary_recall", "word_token_precision", "word_token_recall"):
        assert b[k] == a[k], k
    assert b["word_token_precision"] == 3 / 4     # u1 [0.11, 0.5] ~ ab, u3 ~ d, e


def test_frame_directory_segment_past_utterance_dropped_in_default_mode(toy):
    d = toy / "intervals"
    d.mkdir()
    (d / "f2.txt").write_text("0 40 a\n40 90 b\n95 99 c\n")       # f2 is 90 frames long
    (d / "f1.txt").write_text("0 50 a\n50 80 b\n80 100 c\n")
    exp = toy / "exp_dir"
    score_segmentation.main([str(toy / "data"), str(d), str(exp)])
    s = json.loads((exp / "scores" / "scores.json").read_text())
    c = s["segmentation"]["counts"]
    assert (c["segments_read"], c["segments_outside_utterances"], c["token_pred"]) == (6, 1, 5)
    # tokens: f1 [0.5, 0.8] = c, f2 d and e: 3 hits of 5 predicted, 4 words
    assert (s["word_token_precision"], s["word_token_recall"]) == (3 / 5, 3 / 4)


# ---- zero-length and overlapping segments -----------------------------------------------------

def test_zero_length_dropped_in_default_mode(toy, root):
    base = score(toy, SEG, name="z_base")
    p = cli(toy, root, SEG + "f2 0.45 0.45 1\nf1 0.30 0.30 1\n", name="zero")
    assert p.returncode == 0, p.stderr
    assert "zero.txt: 2 of 8 segments (25.0 %) have zero length (onset = offset) and were dropped" in p.stderr
    s = json.loads((toy / "exp_zero" / "scores" / "scores.json").read_text())
    assert s["segmentation"]["counts"]["segments_zero_length"] == 2
    for k in ("word_boundary_precision", "word_boundary_recall", "word_token_precision", "word_purity"):
        assert s[k] == base[k], k
    # variant: a vqwordseg interval directory with a zero-length segment, scored in the default mode
    d = toy / "ivz"
    d.mkdir()
    (d / "f1.txt").write_text("0 11 1\n11 49 2\n49 49 1\n49 82 3\n82 100 1\n")
    (d / "f2.txt").write_text("0 45 2\n45 90 3\n")
    score_segmentation.main([str(toy / "data"), str(d), str(toy / "exp_ivz")])
    z = json.loads((toy / "exp_ivz" / "scores" / "scores.json").read_text())
    assert z["segmentation"]["counts"]["segments_zero_length"] == 1
    for k in ("word_boundary_precision", "word_boundary_recall", "word_token_precision", "word_purity"):
        assert z[k] == base[k], k


def test_overlapping_segments_refused_with_line(toy, root):
    p = cli(toy, root, SEG.replace("f2 0.45 0.90 3", "f2 0.40 0.90 3"), name="ov")
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines()[-1].endswith(
        "ov.txt:6: segment overlaps the segment at line 5 (a segmentation gives each instant at most one "
        "segment; --compat vqwordseg scores overlaps as the script does)")
    # variant: a segment inside another, listed first
    p = cli(toy, root, "f1 0.2 0.3 1\nf1 0.0 1.0 2\nf2 0.0 0.9 2\n", name="ov2")
    assert p.returncode == 1 and p.stderr.strip().endswith("ov2.txt:2: segment overlaps the segment at line 1 "
                                                           "(a segmentation gives each instant at most one segment; "
                                                           "--compat vqwordseg scores overlaps as the script does)")


def test_class_file_overlaps_counted_and_said(toy, root):
    # a term discovery output (run.sh stage 3 reads one as a segmentation): fragments overlap
    # by nature; scored as they are, counted (running maximum: the nested 0.2-0.3 and 0.4-0.6
    # both start before the end of 0.0-1.0) and said
    cls = "Class 1\nf1 0.2 0.3\nf2 0.0 0.4\n\nClass 2\nf1 0.0 1.0\nf2 0.4 0.9\nf1 0.4 0.6\n"
    p = cli(toy, root, cls, name="ovc")
    assert p.returncode == 0, p.stderr
    assert [ln.split(": warning: ")[1] for ln in p.stderr.splitlines() if ": warning: " in ln] == [
        f"{toy / 'ovc.txt'}: 2 of 5 fragments overlap another of their utterance: a term discovery output, "
        "scored as it is (not a segmentation; segments_overlapping in scores.json)"]
    s = json.loads((toy / "exp_ovc" / "scores" / "scores.json").read_text())
    assert s["segmentation"]["counts"]["segments_overlapping"] == 2
    assert s["segmentation"]["counts"]["token_pred"] == 5


def test_overlapping_frame_files_refused_naming_the_file(toy):
    d = toy / "ivs"
    d.mkdir()
    (d / "f1.txt").write_text("0 50 a\n40 100 b\n")
    (d / "f2.txt").write_text("0 90 a\n")
    with pytest.raises(InputError) as e:
        score_segmentation.main([str(toy / "data"), str(d), str(toy / "exp_ivs")])
    assert (e.value.path, e.value.line) == (str(d / "f1.txt"), 2)
    # kept in compat mode, as the script does: boundaries 49 and 99 (the last frame, dropped)
    score_segmentation.main(["--compat", "vqwordseg", str(toy / "data"), str(d), str(toy / "exp_ivs_vq")])
    s = json.loads((toy / "exp_ivs_vq" / "scores" / "scores.json").read_text())
    assert s["segmentation"]["counts"]["boundary_pred"] == 1


# ---- segments file and tolerance --------------------------------------------------------------

@pytest.mark.parametrize("line,msg", [
    ("u3 f2 0.0 0.95", "utterance 'u3' ends at 0.95 s, after the end of recording 'f2' (0.9 s in reco2dur)"),
    ("u3 f2 0.9 1.5", "utterance 'u3' starts at 0.9 s, after the end of recording 'f2' (0.9 s in reco2dur)"),
])
def test_segments_past_recording_refused(toy, line, msg):
    (toy / "segs").write_text(f"u1 f1 0.0 0.5\n{line}\n")
    with pytest.raises(InputError) as e:
        score(toy, "u1 0.0 0.5 1\n", "--segments", str(toy / "segs"), name="past")
    assert (str(e.value.message), e.value.line) == (msg, 2)


def test_segments_end_within_a_frame_is_cut(toy):
    (toy / "segs").write_text("u3 f2 0.0 0.905\n")
    s = score(toy, "u3 0.0 0.4 1\nu3 0.4 0.9 2\n", "--segments", str(toy / "segs"), name="slack")
    assert (s["word_token_precision"], s["word_token_recall"]) == (1.0, 1.0)


@pytest.mark.parametrize("tol", ["20", "1", "1.5"])
def test_tolerance_in_seconds_refused(toy, root, tol):
    p = cli(toy, root, SEG, "--tolerance", tol, name=f"tol{tol}")
    # an option's check (termeval/segmentation/options.py): argparse's line and usage, exit 2
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 2
    assert f"argument --tolerance: is in seconds: {float(tol):g} s is not a boundary tolerance" in p.stderr
    sh = subprocess.run([os.path.join(root, "steps", "score_segmentation.sh"), "--tolerance", tol,
                         str(toy / "data"), str(toy / f"tol{tol}.txt"), str(toy / "exp_sh")],
                        capture_output=True, text=True)
    assert sh.returncode == 1 and sh.stderr.strip().splitlines()[-1] == (
        f"score_segmentation.sh: error: --tolerance: is in seconds: {float(tol):g} s is not a boundary tolerance "
        f"(20 ms is --tolerance 0.02; less than 1 s accepted)")
    assert not (toy / "exp_sh").exists()


def test_implausible_tolerance_warns_and_is_recorded(toy, root):
    p = cli(toy, root, SEG, "--tolerance", "0.15", name="wide")
    assert p.returncode == 0
    s = json.loads((toy / "exp_wide" / "scores" / "scores.json").read_text())
    w = s["segmentation"]["warnings"]
    assert len(w) == 1 and w[0].startswith("--tolerance 0.15 s is larger than boundary tolerances usually are")
    assert f"warning: {w[0]}" in p.stderr
    assert s["word_boundary_recall"] == 1.0      # 0.45 counts for 0.40
    assert score(toy, SEG, "--tolerance", "0.1", name="ok")["segmentation"]["warnings"] == []


# ---- --compat vqwordseg on seconds input ------------------------------------------------------

@pytest.mark.parametrize("f2,want", [
    # (f2's prediction, (boundary P, R, token P, R) printed by the script)
    ("f2 0.00 0.40 2\nf2 0.40 0.92 3\n", (0.75, 0.75, 0.5, 0.75)),      # 2 frames longer
    ("f2 0.00 0.40 2\nf2 0.40 0.88 3\n", (0.75, 1.0, 0.5, 0.75)),       # 2 frames shorter
    ("f2 0.00 0.40 2\nf2 0.40 0.40 1\nf2 0.40 0.90 3\n", (0.75, 1.0, 0.5, 0.75)),   # zero-length
])
def test_compat_prediction_longer_than_reference(toy, f2, want):
    s = score(toy, F1 + f2, "--compat", "vqwordseg", name="vq")
    got = (s["word_boundary_precision"], s["word_boundary_recall"], s["word_token_precision"],
           s["word_token_recall"])
    assert got == want
    # the default mode cuts the longer prediction to the file and scores its own rules
    if "0.92" in f2:
        assert s["segmentation"]["counts"]["segments_past_utterance_end"] == 1
        d = score(toy, F1 + f2, name="dflt")
        assert d["segmentation"]["counts"]["segments_cut_to_utterance"] == 1
        assert d["word_boundary_recall"] == 1.0


def test_compat_end_far_past_utterance_refused(toy):
    # a few frames past the end are kept (above); a second past it is not the same audio (and
    # 1e308 would make the script allocate a vector that long): file:line error
    with pytest.raises(InputError) as e:
        score(toy, F1 + "f2 0.00 0.40 2\nf2 0.40 1.95 3\n", "--compat", "vqwordseg", name="far")
    assert (e.value.line, e.value.message.split(";")[0]) == (6, "segment ends 1.05 s after the end of its utterance 'f2'")
    with pytest.raises(InputError) as e:
        score(toy, F1 + "f2 0.00 0.40 2\nf2 0.40 1e308 3\n", "--compat", "vqwordseg", name="huge")
    assert e.value.line == 6
    # the default mode cuts it to the file
    s = score(toy, F1 + "f2 0.00 0.40 2\nf2 0.40 1e308 3\n", name="huge_default")
    assert s["segmentation"]["counts"]["segments_cut_to_utterance"] == 1 and s["word_token_recall"] == 1.0
    d = toy / "ivhuge"
    d.mkdir()
    (d / "f1.txt").write_text("0 50 a\n50 99999999999999999999 b\n")
    with pytest.raises(InputError) as e:
        score_segmentation.main([str(toy / "data"), str(d), str(toy / "exp_ivhuge")])
    assert (e.value.path, e.value.line) == (str(d / "f1.txt"), 2)


def test_class_file_fragments_between_utterances_said(toy, root):
    # the case: a class file's fragments falling outside a segments file's utterances
    (toy / "segs").write_text("u1 f1 0.0 0.5\nu3 f2 0.0 0.9\n")
    cls = "Class 1\nf1 0.1 0.5\nf2 0.0 0.4\nf1 0.6 0.8\n\nClass 2\nf2 0.4 0.9\nf1 0.55 0.7\n"
    p = cli(toy, root, cls, "--segments", str(toy / "segs"), name="cls_out")
    assert p.returncode == 0, p.stderr
    assert [ln.split(": warning: ")[1] for ln in p.stderr.splitlines() if ": warning: " in ln] == [
        f"{toy / 'cls_out.txt'}: 2 of 5 segments (40.0 %) lie outside every utterance and were dropped "
        "(segments_outside_utterances in scores.json)"]
    s = json.loads((toy / "exp_cls_out" / "scores" / "scores.json").read_text())
    assert s["segmentation"]["counts"]["token_pred"] == 3 and s["word_token_precision"] == 1.0


def test_compat_utterance_whose_segments_all_end_at_frame_0_refused(toy):
    # eval_segmentation.py marks an end at frame 0 at index -1 of the utterance's boolean vector;
    # when every segment of an utterance ends there the vector is empty and the script fails:
    # one error naming the utterance (found by tests/fuzz/test_fuzz_segmentation.py)
    with pytest.raises(InputError) as e:
        score(toy, "f1 0 0 1\nf2 0.00 0.40 2\nf2 0.40 0.90 3\n", "--compat", "vqwordseg", name="empty")
    assert e.value.message == ("--compat vqwordseg: utterance f1: every predicted segment ends at frame 0 "
                               "(eval_segmentation.py fails on it)")
    # a zero-length segment at frame 0 beside a real one is kept, as the script keeps it
    s = score(toy, "f1 0 0 1\nf1 0.00 0.50 1\nf2 0.00 0.40 2\nf2 0.40 0.90 3\n", "--compat", "vqwordseg", name="ok0")
    assert s["word_boundary_recall"] is not None


def test_an_input_inside_the_outputs_is_refused(toy):
    # the publish replaces details/segmentation whole: a segmentation kept there would be deleted
    d = toy / "exp_in" / "details" / "segmentation"
    d.mkdir(parents=True)
    (d / "seg.txt").write_text(SEG)
    with pytest.raises(InputError) as e:
        score_segmentation.main([str(toy / "data"), str(d / "seg.txt"), str(toy / "exp_in")])
    assert str(d / "seg.txt") in str(e.value)
    assert (d / "seg.txt").read_text() == SEG and not (toy / "exp_in" / "scores").exists()
    (toy / "exp_in" / "seg.txt").write_text(SEG)         # beside the outputs: scored
    score_segmentation.main([str(toy / "data"), str(toy / "exp_in" / "seg.txt"), str(toy / "exp_in")])
    assert (toy / "exp_in" / "scores" / "scores.json").is_file()
