"""Export of a prepared data dir back to ZeroSpeech .phn/.wrd files."""
from __future__ import annotations

import os

from termeval.core import publish
from termeval.core.errors import InputError
from termeval.core.guard import check_outputs
from termeval.gold.validate import check_prepared_bytes
from termeval.gold.write import same_file


def export_zr(data_dir: str, out_phn: str, out_wrd: str, drop_sil: bool = False,
              sil_label: str = "SIL") -> tuple[int, int]:
    """Write phones/words of a prepared data dir as .phn/.wrd (optionally without silence).
    The output guard first: an output that is a directory, or lies in (or is) the data dir,
    is refused before anything is read or written."""
    check_outputs("export_zr", [data_dir], [out_phn, out_wrd], files=[out_phn, out_wrd])
    counts, texts = [], {}
    for name, out in (("phones", out_phn), ("words", out_wrd)):
        src = os.path.join(data_dir, name)
        if not os.path.isfile(src):
            raise InputError(f"missing {name}: not a prepared gold data dir", src)
        if same_file(src, out):
            raise InputError("output would overwrite the data dir file", out)
        raw = check_prepared_bytes(src)
        if drop_sil and name == "phones":
            tail = (" " + sil_label).encode("utf-8")
            raw = b"".join(ln + b"\n" for ln in raw[:-1].split(b"\n") if not ln.endswith(tail))
        texts[out] = raw
        counts.append(raw.count(b"\n"))
    if os.path.abspath(out_phn) == os.path.abspath(out_wrd):
        raise InputError("the .phn and .wrd outputs are the same file", out_phn)
    with publish.all_or_none(list(texts)) as tmps:      # both files or neither (a full disk)
        for out, raw in texts.items():
            with open(tmps[out], "wb") as f:
                f.write(raw)
    return counts[0], counts[1]
