"""Foundation: errors, text readers/writers, Kaldi files, intervals, scores, plots, the Stage protocol, publish, lock, output guard, digest, warnings."""
