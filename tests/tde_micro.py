"""The micro-corpus of the zrc2020 unit tests, shared by the term discovery, script and
bootstrap tests (import it as `from tde_micro import MICRO_PHN, MICRO_WRD, MICRO_CLASSES`)."""

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
