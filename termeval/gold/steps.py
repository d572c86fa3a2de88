"""The gold steps as the recipe runs them (termeval/steps: prepare_gold, validate_alignment_dir,
export_zr): each one's work on its Options (`run_*`, written through the driver's run_task it
is handed) and the line its command line prints (`show_*`)."""
from __future__ import annotations

import gc
import os
import sys

from termeval.core.warn import step_name, warn
from termeval.gold.export import export_zr
from termeval.gold.texts import prepare_texts
from termeval.gold.validate import findings
from termeval.gold.write import check_data_dir_outputs, write_data_dir


def run_prepare(opts, run_task) -> dict:
    """prepare_gold on its GoldOptions: the data dir written whole; {"data_dir", "summary"}."""
    # millions of short strings and tuples, no cycles: the cyclic GC would only cost time
    enabled = gc.isenabled()
    gc.disable()
    try:
        texts, used, line = prepare_texts(opts)
        check_data_dir_outputs(list(texts), opts.data_dir, used)
        run_task("prepare_gold", opts.data_dir, list(texts), lambda tmp: write_data_dir(texts, tmp), inputs=used)
    finally:
        if enabled:
            gc.enable()
    if "syllables" not in texts and os.path.isfile(os.path.join(opts.data_dir, "syllables")):
        warn(None, f"{opts.data_dir}/syllables is left from an earlier preparation and was not replaced "
                   "(no --syllables): remove it, or prepare with --syllables, before --level syllable")
    return {"data_dir": opts.data_dir, "summary": line}


def show_prepare(opts, res: dict) -> None:
    print(f"{step_name()}: {opts.data_dir}: {res['summary']}", file=sys.stderr)


def run_validate(opts, run_task) -> dict:
    """validate_alignment_dir: the checks (the first problem an InputError); what it found."""
    return findings(opts)


def show_validate(opts, res: dict) -> None:
    print(f"{step_name()}: {opts.data_dir}: OK ({res['summary']})", file=sys.stderr)


def run_export(opts, run_task) -> dict:
    """export_zr: the data dir as .phn/.wrd, both or neither; {"phones", "words", "phn", "wrd"}."""
    n_phn, n_wrd = export_zr(opts.data_dir, opts.out_phn, opts.out_wrd, opts.drop_sil, opts.sil_label)
    return {"phones": n_phn, "words": n_wrd, "phn": opts.out_phn, "wrd": opts.out_wrd}


def show_export(opts, res: dict) -> None:
    print(f"{step_name()}: wrote {res['phn']} ({res['phones']} phones) and {res['wrd']} ({res['words']} words)",
          file=sys.stderr)
