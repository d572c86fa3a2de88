# cmd.sh -- job launchers. Edit for your site, as in any Kaldi recipe.
# Default: our local launcher utils/run.pl (runs JOB=1:N in parallel up to the core count).
# On a grid, point these at your own Kaldi launchers, e.g.
#   export cmd="queue.pl --mem 4G"      # SGE, configured by conf/queue.conf
#   export cmd="slurm.pl --mem 4G"      # Slurm, configured by conf/slurm.conf
# Jobs only assume they start in the recipe root and source ./path.sh.
export cmd="utils/run.pl"
export train_cmd="$cmd"
export decode_cmd="$cmd"
