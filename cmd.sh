# cmd.sh -- job launchers. Edit for your site, as in any Kaldi recipe.
# Default: termeval's local launcher utils/run.pl (runs JOB=1:N in parallel up to the core
# count), by absolute path, so it works from any directory. On a grid, point these at your own
# Kaldi launchers (they read conf/queue.conf / conf/slurm.conf of the directory you run from):
#   export cmd="queue.pl --config conf/queue.conf --mem 4G"   # SGE (conf/queue.conf: a template)
#   export cmd="slurm.pl --config conf/slurm.conf"            # Slurm (conf/slurm.conf: a template)
# Every termeval step takes --cmd; without it a step uses $cmd from the environment, else
# utils/run.pl. Jobs need nothing from the environment: they run termeval's Python by path.
export cmd="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/utils/run.pl"
export train_cmd="$cmd"
export decode_cmd="$cmd"
