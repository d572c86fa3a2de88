"""Spoken term discovery benchmarks: zrc2020 (tdev2), zr2015/zr2017 (bootphon/tde), seeddoc (the seed documents' own definitions); the benchmark registry and the class preparation."""
