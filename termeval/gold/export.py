"""Export of a prepared data dir back to ZeroSpeech .phn/.wrd files."""
from __future__ import annotations

import os

from termeval.core.errors import InputError
from termeval.gold.validate import check_prepared_bytes
from termeval.gold.write import same_file
from termeval.core.textio import atomic_write, file_mode


def export_zr(data_dir: str, out_phn: str, out_wrd: str, drop_sil: bool = False,
              sil_label: str = "SIL") -> tuple[int, int]:
    """Write phones/words of a prepared data dir as .phn/.wrd (optionally without silence)."""
    counts = []
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
        with atomic_write(out, "wb") as f:
            f.write(raw)
        os.chmod(out, file_mode())
        counts.append(raw.count(b"\n"))
    return counts[0], counts[1]
