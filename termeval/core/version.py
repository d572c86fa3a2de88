"""The version of termeval (one place: the package, scores.json provenance, pip)."""
__version__ = "0.1.0"
