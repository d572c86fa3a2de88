#!/usr/bin/env python3
"""Every kind of report.html, on the bundled example (deterministic, no downloads, a few
seconds): the exp dirs docs/report.md shows and tests/report/ renders in headless Chromium.

Usage: local/report_gallery.py [--textgrids true] <work-dir>
 e.g.: local/report_gallery.py /tmp/gallery      # then open /tmp/gallery/RESULTS.html

Under <work-dir>: data/ (the example: local/make_example.py, make_example_std.py,
make_example_quesst.py, make_example_kws.py, make_text_segmentation.py, make_example_units.py), and
  exp/tde         term discovery (zrc2020, 95 % intervals) and, in the same exp dir, the same
                  fragments scored as a word segmentation: one page, two sections
  exp/tde_zr2017  term discovery with the ZeroSpeech 2017 definitions
  exp/std         term detection (SWS 2013 operating point, breakdowns, intervals)
  exp/kws         keyword search scored as Kaldi's local/kws/score.sh (--compat kaldi)
  exp/quesst      query by example (QUESST per-document scores) and the processing load
  exp/textseg     text segmentation (wordseg-eval)
  exp/units       discrete units against the gold phones (score_units, --off-grid centre)
  exp/discophon   the same units as a DiscoPhon benchmark of two (language, split) pairs
  cmp/compare     compare_systems of the example's classes (cmp/a) with the gold word classes
                  (cmp/b, local/make_word_classes.py), both scored with zrc2020 (outside exp/:
                  RESULTS.html leaves them out)
  RESULTS.html    utils/summarize_scores.sh --format html over exp/
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCAL = os.path.join(ROOT, "local")
EXPS = ("tde", "tde_zr2017", "std", "kws", "quesst", "textseg", "units", "discophon")


def _py(*args: str) -> None:
    subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONPATH=ROOT))


def data(work: str) -> dict[str, str]:
    """The example's inputs under <work>/data (made once)."""
    import termeval
    d = os.path.join(work, "data")
    paths = {"local": f"{d}/local/example", "std": f"{d}/local/example_std", "gold": f"{d}/example",
             "nosil": f"{d}/example_nosil", "quesst": f"{d}/local/example_quesst", "kws": f"{d}/example_kws",
             "text": f"{d}/example_text", "units": f"{d}/local/example_units"}
    paths["classes"] = f"{paths['local']}/classes/example.classes"
    paths["words"] = f"{paths['local']}/classes/words.classes"
    if os.path.isfile(paths["words"]):
        return paths
    _py(f"{LOCAL}/make_example.py", "--seed", "1", paths["local"])
    _py(f"{LOCAL}/make_example_std.py", "--seed", "1", paths["std"])
    zr = f"{paths['local']}/zr"
    termeval.prepare_gold(f"{zr}/example.phn", f"{zr}/example.wrd", format="zr", data_dir=paths["gold"])
    termeval.prepare_gold(f"{zr}/example.phn", f"{zr}/example.wrd", format="zr", drop_silence=True,
                          fill_gaps=False, data_dir=paths["nosil"])
    q = paths["quesst"]
    _py(f"{LOCAL}/make_example_quesst.py", "reference", f"{q}/kws")
    _py(f"{LOCAL}/make_example_quesst.py", "index", f"{q}/kws", f"{q}/index.npz")
    _py(f"{LOCAL}/make_example_quesst.py", "search", f"{q}/kws", f"{q}/index.npz", f"{q}/quesst.stdlist.xml")
    with open(f"{q}/resources.txt", "w", encoding="utf-8") as f:      # measured elsewhere (docs/std.md §5.2)
        f.write("[index]\ncpu_s = 1.3\npmu_gb = 0.04\n[search]\ncpu_s = 42.5\npmu_gb = 0.05\n")
    k = paths["kws"]
    _py(f"{LOCAL}/make_example_kws.py", paths["gold"], k)
    termeval.prepare_kws(paths["gold"], f"{k}/kws", keywords=f"{k}/keywords.txt", lexicon=f"{k}/lexicon.txt",
                         ecf_source_type="cts")
    t = paths["text"]
    termeval.export_text(paths["gold"], t)
    _py(f"{LOCAL}/make_text_segmentation.py", f"{t}/gold.txt", f"{t}/prepared.txt", f"{t}/segmented.txt")
    _py(f"{LOCAL}/make_example_units.py", paths["gold"], paths["units"])
    _py(f"{LOCAL}/make_word_classes.py", f"{zr}/example.wrd", paths["words"])
    return paths


def score(work: str, textgrids: bool = False) -> dict[str, str]:
    """Every kind of report under <work>/exp; returns exp name -> exp dir."""
    import termeval
    p = data(work)
    exp = {name: os.path.join(work, "exp", name) for name in EXPS}
    show = {"textgrids": textgrids}
    termeval.score_tde(p["gold"], p["classes"], bootstrap=200, seed=1, exp_dir=exp["tde"], **show)
    termeval.score_segmentation(p["gold"], p["classes"], tolerance=0.02, exp_dir=exp["tde"], **show)
    termeval.score_tde(p["nosil"], p["classes"], benchmark="zr2017", folds="none", exp_dir=exp["tde_zr2017"], **show)
    termeval.score_std(f"{p['std']}/kws", f"{p['std']}/detections.stdlist.xml", preset="sws2013",
                       breakdown=["attr:NGram", "ngram", "freq"], bootstrap=200, exp_dir=exp["std"], **show)
    termeval.score_std(f"{p['kws']}/kws", f"{p['kws']}/results", compat="kaldi", kst=True, ntrue_scale="auto",
                       exp_dir=exp["kws"], **show)
    q = p["quesst"]
    termeval.score_quesst(f"{q}/kws", f"{q}/quesst.stdlist.xml", default_score=-10.0, exp_dir=exp["quesst"])
    termeval.score_resources(f"{q}/kws", exp["quesst"], resources_file=f"{q}/resources.txt")
    t = p["text"]
    termeval.score_text_segmentation(f"{t}/gold.txt", f"{t}/segmented.txt", prepared=f"{t}/prepared.txt",
                                     exp_dir=exp["textseg"])
    u = p["units"]
    termeval.score_units(p["gold"], f"{u}/units.txt", off_grid="centre", exp_dir=exp["units"], **show)
    termeval.score_discophon(f"{u}/discophon/dataset", f"{u}/discophon/predictions", exp_dir=exp["discophon"])
    c = os.path.join(work, "cmp")
    termeval.score_tde(p["gold"], p["classes"], exp_dir=f"{c}/a", report=False)
    termeval.score_tde(p["gold"], p["words"], exp_dir=f"{c}/b", report=False)
    termeval.compare_systems([f"{c}/a", f"{c}/b"], out_dir=f"{c}/compare", bootstrap=200, plot=False)
    exp["compare"] = f"{c}/compare"
    termeval.summarize_scores(os.path.join(work, "exp"), out=os.path.join(work, "RESULTS.html"), format="html")
    return exp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--textgrids", choices=("true", "false"), default="false")
    ap.add_argument("work_dir")
    a = ap.parse_args()
    sys.path.insert(0, ROOT)
    for name, d in score(a.work_dir, a.textgrids == "true").items():
        print(f"{name}: {os.path.join(d, 'report.html')}")
    print(f"results: {os.path.join(a.work_dir, 'RESULTS.html')}")


if __name__ == "__main__":
    main()
