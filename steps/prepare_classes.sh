#!/usr/bin/env bash
# Prepare a discovered-class file (ZeroSpeech TDE format) or a pairs file
# (file1 on1 off1 file2 on2 off2 [score]) for scoring against a prepared gold data dir.
# Writes <exp-dir>/classes/{segments,utt2class,class2utt,class_names,counts[,discarded]}
# and the counts as <exp-dir>/scores/prepare (+ scores.json).
# Strict by default: unknown file ids (all listed), onset >= offset, negative/NaN times,
# fragments past the file end (reco2dur), duplicate class ids and fragment lines outside a
# class are one-line errors naming file and line; nothing is written. Empty classes are
# skipped and counted.
#
# Usage: steps/prepare_classes.sh [options] <data-dir> <class-or-pairs-file> <exp-dir>
#  e.g.: steps/prepare_classes.sh data/example data/local/example/classes/example.classes exp/example
#
# Options:
#   --lenient <true|false>    # default false; true: drop (unknown file, bad interval, outside a
#                             # class, wholly past the end) or truncate (past the end) bad
#                             # fragments, keep duplicate class ids as separate classes, count
#                             # every case and list them in <exp-dir>/classes/discarded
#   --format <auto|class|pairs>  # default auto (from the first non-blank line)
#   --tolerance <seconds>     # default 1e-6: allowed overrun of a fragment past the file end
#   --end-tolerance <seconds> # default 0.01: a fragment ending at most this much past the file
#                             # end is clipped to the end and counted (fragments_clipped_to_end)
#   --pairs-clustering <pairs|components>  # default pairs: one class per line of a pairs file;
#                             # components: the pairs merged into connected components (classes)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
lenient=false
format=auto
tolerance=1e-6
end_tolerance=0.01
pairs_clustering=pairs
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ $# -ne 3 ]; then
  te_usage
fi
set -euo pipefail

data=$1
classfile=$2
dir=$3

opts=(--lenient "$lenient" --format "$format" --tolerance "$tolerance" --end-tolerance "$end_tolerance"
      --pairs-clustering "$pairs_clustering")
te_check_options prepare_classes "${opts[@]}" "$data" "$classfile" "$dir"    # the options: the step's Options
te_check_dir "data dir" "$data"
te_check_file "data dir file" "$data/reco2dur"
te_check_file "class file" "$classfile"
te_check_writable "$dir/log"
"${te_python[@]}" -m termeval.bin.prepare_classes "${opts[@]}" "$data" "$classfile" "$dir" 2>&1 | tee "$dir/log/prepare_classes.log" >&2

echo "$0: prepared $classfile into $dir/classes (counts in $dir/classes/counts)" >&2
