"""QUESST per-document scoring (MediaEval QUESST 2014/2015 kit): quesst.py (the kit's figures),
quesst_io.py (reference and detections), stage.py (the job-protocol stage), report.py (what a
run writes), units.py (per-query bootstrap table). Readers and kernels come from termeval.std.
"""
