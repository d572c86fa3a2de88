"""SD-HuBERT's syllable_purity and cluster_purity against its own evaluate_purity.py, run on a
random corpus written in its formats (syllable JSON, per-utterance .npy dicts, a k-means model
pickled by joblib, a reducer): only when $SDHUBERT_DIR points to a cheoljun95/sdhubert checkout
(with joblib and tqdm installed); skipped otherwise. termeval reads the same files through
prepare_gold --syllables (sdhubert-json), convert_segments (sdhubert-npy, --centroids) and
score_segmentation --level syllable --compat harwath."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from termeval.bin import convert_segments, prepare_gold, score_segmentation
from termeval.run.cli import run

SDHUBERT = os.environ.get("SDHUBERT_DIR", "")
KM_STUB = "import numpy as np\n\nclass ArgMax:\n    def predict(self, x):\n        return np.argmax(x, axis=1)\n"
LABELS = ["ba1", "ba0", "na2", "na1", "k", "t3", "hh ah0"]


def corpus(rng, n_utt=8, k=5):
    syl, seg = {}, {}
    for u in range(n_utt):
        dur = round(float(rng.uniform(1.0, 3.0)), 2)
        g = np.unique(np.round(np.concatenate(([0.0, dur], rng.uniform(0, dur, rng.integers(1, 8)))), 2))
        p = np.unique(np.round(np.concatenate(([0.0, dur], rng.uniform(0, dur, rng.integers(0, 9)))), 2))
        syl[f"u{u}"] = (dur, [(float(a), float(b), LABELS[rng.integers(len(LABELS))]) for a, b in zip(g[:-1], g[1:])])
        feats = np.eye(k)[rng.integers(k, size=len(p) - 1)] + rng.uniform(0, 0.1, (len(p) - 1, k))
        seg[f"u{u}"] = (np.stack((p[:-1], p[1:]), axis=1), feats)
    return syl, seg


@pytest.mark.skipif(not os.path.isfile(os.path.join(SDHUBERT, "evaluate_purity.py")),
                    reason="cheoljun95/sdhubert checkout not given (set $SDHUBERT_DIR)")
def test_purity_as_evaluate_purity(tmp_path, capsys):
    joblib = pytest.importorskip("joblib")
    pytest.importorskip("tqdm")
    sys.path.insert(0, str(tmp_path))
    (tmp_path / "km_stub.py").write_text(KM_STUB)
    import km_stub  # noqa: E402  # why: the pickled model's class must be importable by name
    k = 5
    syl, seg = corpus(np.random.default_rng(7), k=k)
    (tmp_path / "seg").mkdir()
    doc = {}
    with open(tmp_path / "g.phn", "w") as phn, open(tmp_path / "g.wrd", "w") as wrd:
        for u, (dur, rows) in syl.items():
            phn.write(f"{u} 0 {dur} a\n")
            wrd.write(f"{u} 0 {dur} w\n")
            doc[u] = {"file_name": f"{u}.flac", "syllables": [{"start": a, "end": b, "label": c} for a, b, c in rows]}
            np.save(tmp_path / "seg" / f"{u}.npy", {"segments": seg[u][0], "segment_features": seg[u][1]})
    (tmp_path / "syl.json").write_text(json.dumps(doc))
    joblib.dump(km_stub.ArgMax(), tmp_path / "km.pkl")
    np.save(tmp_path / "red.npy", np.arange(k))
    np.save(tmp_path / "cent.npy", np.eye(k))
    r = subprocess.run([sys.executable, "evaluate_purity.py", "--segment_path", str(tmp_path / "seg"),
                        "--km_path", str(tmp_path / "km.pkl"), "--reducer_path", str(tmp_path / "red.npy"),
                        "--test_syllables", str(tmp_path / "syl.json"), "--save_name", "x",
                        "--result_path", str(tmp_path / "res")], cwd=SDHUBERT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert r.returncode == 0, r.stderr
    want = json.loads((tmp_path / "res" / "x.json").read_text())["clustering_quality"]
    for main, argv in (
            (prepare_gold.main, ["--format", "zr", "--fill-gaps", "false", "--syllables", tmp_path / "syl.json",
                                 tmp_path / "g.phn", tmp_path / "g.wrd", tmp_path / "data"]),
            (convert_segments.main, ["--from", "sdhubert-npy", "--allow-pickle", "true", "--centroids",
                                     tmp_path / "cent.npy", tmp_path / "seg", tmp_path / "pred.txt"])):
        with pytest.raises(SystemExit) as e:
            run(main, [str(a) for a in argv])
        assert e.value.code == 0, capsys.readouterr().err
    exp = tmp_path / "exp"
    score_segmentation.main([str(tmp_path / "data"), str(tmp_path / "pred.txt"), str(exp), "--level", "syllable",
                             "--compat", "harwath", "--tolerance", "0.05"])
    got = json.loads((exp / "scores" / "scores.json").read_text())
    assert got["syllable_purity"] == pytest.approx(want["syllable_purity"], rel=1e-12)
    assert got["cluster_purity"] == pytest.approx(want["cluster_purity"], rel=1e-12)
