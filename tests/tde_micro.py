"""The micro-corpus of the zrc2020 unit tests, shared by the term discovery, script and
bootstrap tests (import it as `from tde_micro import MICRO_PHN, MICRO_WRD, MICRO_CLASSES`)."""
from __future__ import annotations

import os

from termeval.core.datadir import load_classes, load_gold
from termeval.tde.zrc2020.testing import write_class_dir, write_data_dir

# A micro-corpus with every metric computed by hand (see the comments).
MICRO_PHN = """A 0 0.1 a
A 0.1 0.2 b
A 0.2 0.3 c
A 0.3 0.4 SIL
A 0.4 0.5 a
A 0.5 0.6 b
A 0.6 0.7 c
A 0.7 0.8 d
B 0 0.1 a
B 0.1 0.2 b
B 0.2 0.3 c
B 0.3 0.4 d
C 0 0.1 e
C 0.1 0.2 f
"""
MICRO_WRD = """A 0 0.3 x
A 0.4 0.7 x
A 0.7 0.8 y
B 0 0.3 x
B 0.3 0.4 y
C 0 0.2 z
"""
MICRO_CLASSES = """Class 1
A 0 0.3
A 0.4 0.7
B 0 0.3

Class 2
A 0.4 0.8
B 0 0.4
B 0 0.4
A 0.4 0.7

Class 3
A 0.3 0.4

Class 4
A 0.15 0.16

Class 5
A 0.7 0.8
A 0.3 0.4

Class 6
B 0.3 0.4

"""


# docs/tde.md §3.1/§3.2 micro-corpus: 100 ms phones a b c d, SIL, e f, g (20 ms), h
PHN = """A 0 0.1 a
A 0.1 0.2 b
A 0.2 0.3 c
A 0.3 0.4 d
A 0.4 0.5 SIL
A 0.5 0.6 e
A 0.6 0.7 f
A 0.7 0.72 g
A 0.72 0.82 h
"""


def make(tmp, phn, wrd, classes):
    with open(os.path.join(tmp, "x.phn"), "w") as f:
        f.write(phn)
    with open(os.path.join(tmp, "x.wrd"), "w") as f:
        f.write(wrd)
    with open(os.path.join(tmp, "x.class"), "w") as f:
        f.write(classes)
    write_data_dir(os.path.join(tmp, "x.phn"), os.path.join(tmp, "x.wrd"), os.path.join(tmp, "data"))
    write_class_dir(os.path.join(tmp, "x.class"), os.path.join(tmp, "exp"))
    gold = load_gold(os.path.join(tmp, "data"))
    return gold, load_classes(os.path.join(tmp, "exp", "classes"), gold)
