#!/bin/sh
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
# One shard of a sweep, as a task of a Slurm job array: -shard auto makes
# task k of --array=0-(n-1) shard k/n (here 4 shards), and run.json records
# the array's job and the task. Submit it from the checkout, with ./batch
# built, and the merge as a job that starts when the array has ended
# (README.md, "Beyond one machine"; docs/SHARDING.md):
#
#   array=$(sbatch --parsable examples/slurm/shard.sh)
#   sbatch --dependency=afterany:$array --wrap "./batch merge -o results/$array results/$array-* && ./batch report results/$array"
#
# Each shard writes results/ARRAY-K, so the merge takes the shards of this
# array and no other. The shards write no report: the merged run's is the
# one. A shard that did not finish (a time limit, a lost node) is finished
# with ./batch -resume -out results/ARRAY-K, then the merge is run again.
# A task that Slurm starts again (requeued: scontrol requeue, a lost node,
# preemption) finds its directory and resumes it, its shard checked.
out="results/$SLURM_ARRAY_JOB_ID-$SLURM_ARRAY_TASK_ID"
if [ -e "$out/run.json" ]; then
	exec ./batch -quiet -report=false -workers "$SLURM_CPUS_PER_TASK" -resume -shard auto -out "$out"
fi
exec ./batch -quiet -report=false -workers "$SLURM_CPUS_PER_TASK" -timeout 0 -max-calls 100000000 -shard auto -out "$out"
