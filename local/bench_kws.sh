#!/usr/bin/env bash
# Time Kaldi's KWS scoring path in termeval (steps/score_std.sh --compat kaldi --kst true) on a
# synthetic task: <n-utt> utterances of 10 s with a 50-keyword list, <hits> results per keyword.
# Prints the seconds of prepare_kws, of one fixed-scale run (KST + compute-atwv + metrics.txt +
# per-category table) and of the 21-scale sweep.
#
# Usage: local/bench_kws.sh [n-utt (2000)] [hits-per-keyword (400)] [work-dir (/tmp/termeval_bench_kws)]
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1
set -euo pipefail
n_utt=${1:-2000}
hits=${2:-400}
w=${3:-/tmp/termeval_bench_kws}
rm -rf "$w"; mkdir -p "$w/data"
"${te_python[@]}" - "$w" "$n_utt" "$hits" <<'PY'
import math, os, sys
import numpy as np
w, n_utt, hits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
vocab = [f"w{i:03d}" for i in range(300)]
with open(os.path.join(w, "data", "words"), "w") as f, open(os.path.join(w, "data", "reco2dur"), "w") as d:
    for u in range(n_utt):
        t = 0.2
        for _ in range(25):
            f.write(f"u{u:05d} {t:.2f} {t + 0.3:.2f} {vocab[int(rng.zipf(1.3)) % 300]}\n")
            t += 0.38
        d.write(f"u{u:05d} 10.0\n")
with open(os.path.join(w, "kw.txt"), "w") as f:
    for k in range(50):
        f.write(f"KW{k:03d} {vocab[k + 5]}" + (f" {vocab[k + 6]}" if k % 5 == 0 else "") + "\n")
PY
t0=$(date +%s.%N)
"$TERMEVAL_ROOT"/steps/prepare_kws.sh --keywords "$w/kw.txt" --ecf-source-type cts "$w/data" "$w/kws" 2>/dev/null
t1=$(date +%s.%N)
"${te_python[@]}" - "$w" "$hits" <<'PY'
import os, sys
import numpy as np
w, hits = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(1)
ref = {}
for line in open(os.path.join(w, "kws", "hitlist")):
    k, u, s, e, _ = line.split()
    ref.setdefault(k, []).append((u, int(s), int(e)))
n_utt = sum(1 for _ in open(os.path.join(w, "kws", "utt.map")))
with open(os.path.join(w, "results"), "w") as f:
    for k in sorted(ref):
        rows = [(u, s, e, rng.exponential(1.0)) for u, s, e in ref[k][:hits // 2]]
        while len(rows) < hits:
            s = int(rng.integers(0, 950))
            rows.append((str(int(rng.integers(1, n_utt + 1))), s, s + 40, rng.uniform(1, 8)))
        for u, s, e, c in sorted(rows, key=lambda r: r[3]):
            f.write(f"{k} {u} {s} {e} {c:.4f}\n")
PY
t2=$(date +%s.%N)
"$TERMEVAL_ROOT"/steps/score_std.sh --compat kaldi --kst true --ntrue-scale 1.0 "$w/kws" "$w/results" "$w/exp1" >/dev/null 2>&1
t3=$(date +%s.%N)
"$TERMEVAL_ROOT"/steps/score_std.sh --compat kaldi --kst true --ntrue-scale auto "$w/kws" "$w/results" "$w/exp2" >/dev/null 2>&1
t4=$(date +%s.%N)
echo "words $((n_utt * 25)), references $(wc -l < "$w/kws/hitlist"), results $(wc -l < "$w/results")"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" 'BEGIN{printf "prepare_kws %.1f s; --kst true --ntrue-scale 1.0 %.1f s; --ntrue-scale auto (21 scales) %.1f s\n", b-a, d-c, e-d}'
cat "$w/exp2/details/ntrue" "$w/exp2/details/score.txt" "$w/exp2/metrics.txt"
