"""What the kernels of the term discovery benchmarks share: their class preparation and the
warning on a coverage above 1."""
from __future__ import annotations

from typing import Any, Mapping

from termeval.classes.prepare import Preparation


def class_preparation(opts: Any) -> Preparation:
    """The class preparation of a run on the step's TdeOptions (as steps/prepare_classes.sh,
    with the step's lenient, end_tolerance and pairs_clustering)."""
    return Preparation(opts.class_file, opts.data_dir, opts.lenient, opts.end_tolerance, opts.pairs_clustering)


def coverage_warnings(values: Mapping[str, Any]) -> list[str]:
    """One warning line when a coverage value exceeds 1 (zr2015/zr2017 count the phones of
    overlapping discovered fragments twice, as the original tool does; any benchmark is
    checked). Spreads (_std) and fold counts (_nfolds) are not coverages."""
    over = [(k, v) for k, v in values.items() if "coverage" in k and not k.endswith(("_std", "_nfolds"))
            and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 1]
    if not over:
        return []
    shown = ", ".join(f"{k} {v:.6f}" for k, v in over)
    return [f"{shown} > 1: the phones of overlapping discovered fragments are counted once per "
            "fragment (twice for two overlapping fragments), as the original tool does; coverage "
            "is not a fraction of the corpus here"]
