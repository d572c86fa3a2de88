"""Processing load of MediaEval SWS 2013 (ISF, SSF, PMU, PL): measure.py (utils/measure_resources.sh),
resources.py (the figures), stage.py and report.py (steps/score_resources.sh).
"""
