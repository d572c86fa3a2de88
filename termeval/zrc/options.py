"""The options of scoring a zrc TDE17 submission (steps/score_zrc_submission.sh,
termeval.score_zrc_submission)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from termeval.core.options import MAX_JOBS, ReportOptions, job_count, option, or_none, path_value, resamples

LANGUAGES = ("english", "french", "mandarin", "german", "wolof")     # zrc 0.9.4 tde17



@dataclass(frozen=True, kw_only=True)
class ZrcOptions(ReportOptions):
    """Options of score_zrc_submission (docs/zrc.md)."""
    submission_dir: str | None = option(None, "the submission directory (<lang>.txt class files, meta.yaml, "
                                        "params.yaml); scores/ is written inside it",
                                        positional=True, many="?", role="input", check=or_none(path_value))
    init: str | None = option(None, "write a submission template into this directory and stop: meta.yaml "
                              "(every field of zrc 0.9.4's tde17 template, <...> placeholders that scoring "
                              "refuses until filled in) and params.yaml (zrc's defaults); an existing "
                              "meta.yaml or params.yaml is never overwritten", role="output",
                              check=or_none(path_value), metavar="DIR", api=False)
    zrc_dataset: str | None = option(None, "zrc dataset dir with index.json (default "
                                     "$APP_DIR/datasets/zrc2017-test-dataset, APP_DIR default ~/zr-data)",
                                     role="input")
    languages: str | None = option(None, f"comma-separated subset of {','.join(LANGUAGES)} (default: every "
                                   "<lang>.txt present)")
    nj: int | None = option(None, f"jobs per language (default: params.yaml njobs, else 1; at most {MAX_JOBS})",
                            check=or_none(job_count))
    bootstrap: int = option(0, "bootstrap resamples (termeval's scores; at most 100000)", check=resamples)
    partial: bool = option(False, "score the languages that are there, with a warning per missing one "
                                  "(default: refuse as zrc 0.9.4 does)")

    def check_combination(self) -> str | None:
        if self.init is not None and self.submission_dir is not None:
            return "--init <dir> writes a template and scores nothing: give no submission directory with it"
        if self.init is None and self.submission_dir is None:
            return "give the submission directory to score (or --init <dir> to write a template)"
        if self.init is not None:       # the template is the same whatever they say: not silently ignored
            for f in dataclasses.fields(self):
                if f.name not in ("init", "submission_dir") and getattr(self, f.name) != f.default:
                    return (f"--{f.name.replace('_', '-')}: not used with --init, which writes a template "
                            "and scores nothing (give it when scoring the submission)")
        return None

    def language_list(self) -> list[str] | None:
        """--languages as a list (None: every language present)."""
        if not self.languages:
            return None
        return [x for x in self.languages.replace(" ", ",").split(",") if x]
