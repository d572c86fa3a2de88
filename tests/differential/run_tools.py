#!/usr/bin/env python3
"""Run a published tool's own code on cases written by tests/differential/tool_inputs.py.

    run_tools.py <tool> <checkout> <jobs.json> <results.json>

jobs.json: [{"case": i, "spec": {...}}, ...] (tool_inputs' return values); results.json gets
[{"case": i, "out": {...}} or {"case": i, "error": "..."}]. Runs in the tool's environment
(local/record_scorer_fixtures.sh: /work/refs/c-scorers-venv or discophon's venv), never imports
termeval, and copies nothing of the tools: their scripts are executed from the checkout
(runpy, as `python script.py ...` would, stdout captured) or their functions called the way
their own main() calls them. Only what the metric code does not use is stubbed: torch and wandb
for UnsupSeg's utils.py (its PrecisionRecallMetric is numpy and scipy), torch/torchaudio and the
model modules for SylReg's eval.py (its "sylboost" path reads the units from the .npy files;
torchaudio.info feeds only the unit frequency), and eval.py's final round(x, 3) (the values are
read before that presentation rounding).
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import os
import runpy
import sys
import tempfile
import types


def _finite(x):
    x = float(x)
    return x if math.isfinite(x) else repr(x)


def _script(path: str, argv: list[str], cwd: str | None = None) -> str:
    """Run a script as __main__ with argv, from cwd (its imports resolved there); its stdout."""
    old_argv, old_cwd, old_path = sys.argv, os.getcwd(), list(sys.path)
    out = io.StringIO()
    try:
        sys.argv = [path] + argv
        if cwd:
            os.chdir(cwd)
            sys.path.insert(0, cwd)
        with contextlib.redirect_stdout(out):
            runpy.run_path(path, run_name="__main__")
    finally:
        sys.argv, sys.path[:] = old_argv, old_path
        os.chdir(old_cwd)
    return out.getvalue()


def _printed(text: str, names: dict[str, str]) -> dict:
    """The values of `name: value` lines (names: printed label -> key)."""
    out = {}
    for line in text.splitlines():
        head, _, value = line.partition(":")
        if head.strip() in names:
            out[names[head.strip()]] = _finite(value.strip())
    return out


# ---------------------------------------------------------------- jasonppy/syllable-discovery

def harwath(checkout: str, spec: dict) -> dict:
    text = _script(os.path.join(checkout, "unit_analysis_boundary_only.py"),
                   ["--data_json", spec["data_json"], "--exp_dir", spec["exp_dir"], "--level", spec["level"],
                    "--tolerance", repr(spec["tolerance"])])
    out = _printed(text, {"best_shift": "shift", "boundary precision": "precision", "boundary recall": "recall",
                          "boundary F1": "fscore", "boundary over-segmentation": "os", "boundary R value": "rvalue"})
    if out.get("shift") != spec["shift"]:
        raise RuntimeError(f"the shift search chose {out.get('shift')!r}, not {spec['shift']!r}")
    return out


# ---------------------------------------------------------------- cheoljun95/sdhubert

KM_STUB = "import numpy as np\n\nclass ArgMax:\n    def predict(self, x):\n        return np.argmax(x, axis=1)\n"


def sdhubert(checkout: str, spec: dict) -> dict:
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            text = _script(os.path.join(checkout, "evaluate_boundary.py"),
                           ["--segment_path", spec["segments"], "--test_syllables", spec["test_shifted"],
                            "--val_syllables", spec["val"], "--save_name", "b", "--result_path", tmp], cwd=checkout)
        except ZeroDivisionError as e:       # no predicted or no gold boundary, or P + R = 0
            out["boundary_error"] = f"ZeroDivisionError: {e}"
        else:
            shift = _printed(text, {"Best shift": "shift"}).get("shift")
            if shift != spec["shift"]:
                raise RuntimeError(f"the shift search chose {shift!r}, not {spec['shift']!r}")
            with open(os.path.join(tmp, "b.json")) as f:
                b = json.load(f)["boundary_detection"]
            out.update({"shift": shift, **{k: _finite(b[k]) for k in ("prec", "recall", "f1", "os", "r_val")},
                        **{k: int(b[k]) for k in ("match_gt", "match_pred", "gt_len", "pred_len")}})
        out.update(_purity(checkout, spec, tmp))
    return out


def _purity(checkout: str, spec: dict, tmp: str) -> dict:
    import joblib
    import numpy as np
    if tmp not in sys.path:
        sys.path.insert(0, tmp)
    with open(os.path.join(tmp, "km_stub.py"), "w") as f:
        f.write(KM_STUB)
    import km_stub   # noqa: F401  # the pickled model's class must be importable by name
    joblib.dump(sys.modules["km_stub"].ArgMax(), os.path.join(tmp, "km.pkl"))
    np.save(os.path.join(tmp, "red.npy"), np.arange(spec["clusters"]))
    try:
        _script(os.path.join(checkout, "evaluate_purity.py"),
                ["--segment_path", spec["segments"], "--km_path", os.path.join(tmp, "km.pkl"),
                 "--reducer_path", os.path.join(tmp, "red.npy"), "--test_syllables", spec["test"],
                 "--save_name", "p", "--result_path", tmp], cwd=checkout)
    except (AssertionError, ZeroDivisionError, IndexError) as e:     # no matched pair at all
        return {"purity_error": f"{type(e).__name__}: {e}"}
    with open(os.path.join(tmp, "p.json")) as f:
        q = json.load(f)["clustering_quality"]
    return {"syllable_purity": _finite(q["syllable_purity"]), "cluster_purity": _finite(q["cluster_purity"])}


# ---------------------------------------------------------------- ryota-komatsu (SylReg eval.py)

def _defs(path: str, names: set[str], ns: dict) -> dict:
    """The top-level definitions `names` of a file, executed in `ns` (the file's other imports,
    e.g. its models, are not run)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    body = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), ns)
    return ns


def sylreg(checkout: str, spec: dict, sdhubert_checkout: str) -> dict:
    import re
    from collections import Counter
    from pathlib import Path

    import numpy as np
    import pandas as pd
    sys.path.insert(0, sdhubert_checkout)
    try:
        from utils.syllable import BoundaryDetectionEvaluator, match_cluster
    finally:
        sys.path.remove(sdhubert_checkout)
    misc = _defs(os.path.join(checkout, "src", "s5hubert", "utils", "misc.py"),
                 {"compute_syllable_purity", "compute_cluster_purity", "compute_mutual_info"}, {"np": np})
    info = types.SimpleNamespace(num_frames=16000, sample_rate=16000)

    class Boundaries(BoundaryDetectionEvaluator):
        """cheoljun95's evaluator (recorded on its own, record.py sdhubert): nan where it divides
        by zero, so that eval.py goes on to write its clustering results."""
        def evaluate(self, *a, **k):
            try:
                return super().evaluate(*a, **k)
            except ZeroDivisionError:
                return {k: float("nan") for k in ("prec", "recall", "f1", "r_val")}

    ns = {"json": json, "re": re, "Counter": Counter, "Path": Path, "np": np, "pd": pd,
          "torch": types.ModuleType("torch"), "torchaudio": types.SimpleNamespace(info=lambda path: info),
          "BoundaryDetectionEvaluator": Boundaries, "match_cluster": match_cluster,
          "round": lambda x, ndigits=None: x, **{k: misc[k] for k in misc if k.startswith("compute_")}}
    ev = _defs(os.path.join(checkout, "src", "s5hubert", "tasks", "eval.py"), {"evaluate"}, ns)["evaluate"]
    with tempfile.TemporaryDirectory() as tmp:
        cfg = types.SimpleNamespace(
            dataset=types.SimpleNamespace(test_alignment=spec["test"], dev_alignment=spec["val"], root=tmp),
            model=types.SimpleNamespace(model_type="sylboost"),
            quantizer=types.SimpleNamespace(n_clusters2=spec["clusters"]),
            path=types.SimpleNamespace(segment_dir=spec["segments"], result=os.path.join(tmp, "r.json")))
        with contextlib.redirect_stdout(io.StringIO()):
            ev(cfg)
        with open(cfg.path.result) as f:
            c = json.load(f)["clustering"]
    return {k: _finite(c[k]) for k in ("syllable_purity", "cluster_purity", "syllable_normalized_mutual_info")}


# ---------------------------------------------------------------- CoML discophon 0.2.0

def discophon(checkout: str, spec: dict) -> dict:
    if checkout not in sys.path:
        sys.path.insert(0, checkout)
    from discophon.data import read_gold_annotations, read_submitted_units
    from discophon.evaluate import phone_segmentation
    from discophon.evaluate.segmentation import NoBoundariesError
    gold = read_gold_annotations(spec["alignment"])
    units = read_submitted_units(spec["units"])
    out = {}
    for m in spec["margins"]:
        ev = phone_segmentation(units, gold, margin_in_ms=m, step_units=spec["step_units"])
        row = {"tp": ev.true_positives, "fp": ev.false_positives, "fn": ev.false_negatives}
        for k in ("precision", "recall", "f1", "os", "r_val"):
            try:
                row[k] = _finite(getattr(ev, k))
            except NoBoundariesError:
                row[k] = None
        out[str(m)] = row
    return out


# ---------------------------------------------------------------- s-malan/evaluation

def malan(checkout: str, spec: dict) -> dict:
    out = {}
    for name, strict in (("strict", "True"), ("lenient", "")):     # its --strict is type=bool: '' is False
        argv = [spec["disc"], spec["gold"], "--alignment_format", ".TextGrid",
                "--frames_per_ms", str(spec["frames_per_ms"]), "--tolerance", str(spec["tolerance"]),
                "--strict", strict]
        try:
            text = _script(os.path.join(checkout, "boundary_word.py"), argv)
        except ZeroDivisionError as e:        # no predicted token at all: its token precision divides by 0
            out[name] = {"error": f"ZeroDivisionError: {e}"}
            continue
        out[name] = _printed(text, {"Precision": "precision", "Recall": "recall", "F1-score": "fscore",
                                    "Over-segmentation": "os", "R-value": "rvalue", "Token Precision": "token_precision",
                                    "Token Recall": "token_recall", "Token F1-score": "token_fscore"})
    return out


# ---------------------------------------------------------------- felixkreuk/UnsupSeg

def _unsupseg_utils(checkout: str):
    import importlib.util
    for name in ("torch", "torch.nn", "wandb"):
        if name not in sys.modules:
            sys.modules[name] = types.ModuleType(name)
    sys.modules["torch"].nn = sys.modules["torch.nn"]
    sys.modules["torch.nn"].Module = object
    sys.modules["torch"].Tensor = type("Tensor", (), {})
    spec = importlib.util.spec_from_file_location("unsupseg_utils", os.path.join(checkout, "utils.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def unsupseg(checkout: str, spec: dict) -> dict:
    import numpy as np
    ut = _unsupseg_utils(checkout)
    metric = ut.PrecisionRecallMetric()
    for u in spec["utterances"]:
        n = u["n"]
        x = np.linspace(0, 1, n)              # no peak: detect_peaks' n - 1 fallback
        if u["peaks"]:
            x = np.zeros(n)
            x[u["peaks"]] = 1.0
        metric.data.append(([float(v) for v in u["gold"]], x, n))
    with contextlib.redirect_stdout(io.StringIO()):
        (p, r, f, rval), _ = metric.get_stats(prominence=spec["prominence"], width=None, distance=None)
    return {"precision": _finite(p), "recall": _finite(r), "fscore": _finite(f), "rvalue": _finite(rval)}


# ---------------------------------------------------------------- kamperh/vqwordseg

def vqwordseg(checkout: str, spec: dict) -> dict:
    from pathlib import Path
    if checkout not in sys.path:
        sys.path.insert(0, checkout)
    import eval_segmentation as es
    root = Path(spec["root"])
    tol = spec["tolerance"]
    seg = es.get_intervals_from_dir(root / "exp/m/synth/val/seg/intervals")
    out = {}
    for level in ("word", "phone"):        # as its main(): boundaries, tokens, clusters
        ref = es.get_intervals_from_dir(root / f"data/synth/{level}_intervals", seg.keys())
        refb = {u: es.intervals_to_boundaries(ref[u]) for u in ref}
        segb = {u: es.intervals_to_boundaries(seg[u]) for u in seg}
        segi, _, _ = es.str_to_id_labels(seg)
        rl, sl = [refb[u] for u in refb], [segb[u] for u in refb]
        row = {}
        try:
            p, r, f = es.score_boundaries(rl, sl, tolerance=tol)
            row.update(p=_finite(p), r=_finite(r), f=_finite(f), os=_finite(es.get_os(p, r)),
                       rv=_finite(es.get_rvalue(p, r)))
        except ZeroDivisionError as e:
            row["boundary_error"] = f"ZeroDivisionError: {e}"
        try:
            tp, tr, tf = es.score_word_token_boundaries(rl, sl, tolerance=tol)
            row.update(tp=_finite(tp), tr=_finite(tr), tf=_finite(tf))
        except ZeroDivisionError as e:
            row["token_error"] = f"ZeroDivisionError: {e}"
        with contextlib.redirect_stdout(io.StringIO()):
            pur, h, c, v, _ = es.score_clusters(ref, segi, False)
        row.update(purity=_finite(pur), h=_finite(h), c=_finite(c), v=_finite(v))
        out[level] = row
    return out


# ---------------------------------------------------------------- bootphon/wordseg

def wordseg(checkout: str, spec: dict) -> dict:
    if checkout not in sys.path:
        sys.path.insert(0, checkout)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from wordseg import evaluate
        ev = evaluate.evaluate(spec["seg"], spec["gold"], spec["prep"])
        summ = evaluate.summary(spec["seg"], spec["gold"])
    return {"evaluate": {k: (None if v is None else _finite(v)) for k, v in ev.items()}, "summary": summ}


RUNNERS = {"harwath": harwath, "sdhubert": sdhubert, "discophon": discophon, "malan": malan,
           "unsupseg": unsupseg, "vqwordseg": vqwordseg, "wordseg": wordseg}


def main() -> None:
    tool, checkout, jobs, results = sys.argv[1:5]
    extra = sys.argv[5:]            # sylreg: the sdhubert checkout
    with open(jobs) as f:
        todo = json.load(f)
    out = []
    for job in todo:
        try:
            fn = RUNNERS.get(tool)
            res = sylreg(checkout, job["spec"], *extra) if tool == "sylreg" else fn(checkout, job["spec"])
            out.append({"case": job["case"], "out": res})
        except Exception as e:       # recorded as the tool's error on that case
            out.append({"case": job["case"], "error": f"{type(e).__name__}: {e}"})
    with open(results, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
