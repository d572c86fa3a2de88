"""termeval: evaluation of spoken term discovery (ZeroSpeech TDE), spoken term detection
(MediaEval SWS / NIST STD / KWS) and word segmentation, as a Kaldi-style recipe, a Python API
and the `termeval` command.

Python API (termeval/api.py, docs/api.md; loaded on first use, so `import termeval` stays light):
  termeval.score_tde(gold, classes, benchmark="zrc2020", **options)
  termeval.score_std(kws_dir, detections, **options)
  termeval.score_quesst(kws_dir, detections, **options)
  termeval.score_segmentation(gold, segmentation, **options)
  termeval.score_units(gold, units, **options)
  termeval.score_discophon(dataset, predictions, **options)
  termeval.score_resources(reference, exp_dir, **options)
  termeval.score_text_segmentation(gold_text, segmented_text, **options)
  termeval.export_text(data_dir, out_dir, **options)      texts of a data dir for a text segmenter
  termeval.text_to_times(export_dir, segmented, out_dir)  a segmented text back to times
  termeval.compare_systems([exp_dir, ...], **options)
  termeval.score_zrc_submission(submission_dir, **options)
  termeval.prepare_gold(phones, words, **options)
  termeval.prepare_kws(data_dir, kws_dir, **options)
  termeval.prepare_classes(data_dir, class_file, exp_dir, **options)
  termeval.validate_alignment_dir(data_dir, **options)   the data dir's checks; what it found
  termeval.export_zr(data_dir, phn, wrd, **options)      a data dir back to .phn/.wrd
  termeval.measure_resources(exp_dir, phase, command, **options)
  termeval.summarize_scores(exp_roots, out=None)        the RESULTS.md rows (and file)
  termeval.InputError      what bad input raises (one line naming the file and line)

Where things are (docs/modules.md; the steps are termeval/bin/<step>.py):
  termeval.core.textio     text archives, atomic writes, float formatting
  termeval.core.textfast   column chunks parsed on their bytes (exact floats, factorised texts)
  termeval.core.textwrite  text lines built with numpy (repr-exact times)
  termeval.classes.fast  plain class files read / class dirs written with numpy
  termeval.core.scores     the score-file writer (exp/<sys>/scores/<stage> + scores.json)
  termeval.core.datadir       loaders for prepared gold data dirs and prepared class dirs
  termeval.gold       readers of ZeroSpeech .phn/.wrd, Kaldi CTM, Praat TextGrid -> data dir
  termeval.classes.parse    reader of discovered-class and pairs files -> prepared class dir
  termeval.tde.zrc2020    term discovery metrics (ned, coverage, grouping, token_type, boundary, ...)
  termeval.std        term detection metrics (alignment, atwv/mtwv, cnxe, det)
  termeval.quesst     QUESST per-document scoring
  termeval.resources  processing load (ISF, SSF, PMU, PL) and its measurement
  termeval.segmentation  word/phone segmentation metrics
  termeval.run.driver       the one job protocol every scoring benchmark implements (stage.py)
  termeval.api        the Python API; termeval.command the `termeval` command
"""

_API = ("score_tde", "score_std", "score_quesst", "score_segmentation", "score_units", "score_discophon",
        "score_text_segmentation",
        "score_resources", "score_zrc_submission", "export_text", "text_to_times", "compare_systems",
        "prepare_gold", "prepare_kws", "prepare_classes", "validate_alignment_dir", "export_zr",
        "measure_resources", "summarize_scores", "results_table", "load_results", "GoldData")
__all__ = [*_API, "InputError", "__version__"]


def __getattr__(name: str):
    # PEP 562: the API (and numpy behind it) is imported only when a name of it is used
    if name in _API:
        from termeval import api                          # PEP 562: numpy, not for `import termeval`
        return getattr(api, name)
    if name == "__version__":
        from termeval.core.version import __version__     # PEP 562: `import termeval` stays light
        return __version__
    if name == "InputError":
        from termeval.core.errors import InputError       # PEP 562: `import termeval` stays light
        return InputError
    raise AttributeError(f"module 'termeval' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(__all__))
