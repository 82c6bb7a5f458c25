#!/usr/bin/env bash
# Self-play data on many machines: N disjoint shards of one seed (`chuhan datagen --shard K/N`), then one merge.
# Every shard is resumable: run the same command again after a kill and it plays only the missing games.
#
#   scripts/datagen-cluster.sh local  N GAMES SEED NODES OUTDIR            # N shards on this machine, 1 thread each
#   scripts/datagen-cluster.sh ssh    N GAMES SEED NODES OUTDIR HOSTFILE   # GNU parallel over ssh hosts
#   scripts/datagen-cluster.sh slurm  N GAMES SEED NODES OUTDIR            # prints a Slurm array job to sbatch
#   scripts/datagen-cluster.sh merge  OUTDIR MERGED.xqg                    # joins the shards
#
# CHUHAN (default: chuhan on the PATH) must name the same build everywhere: the games depend on the engine.
# DATAGEN_ARGS adds words to every shard's command, e.g. DATAGEN_ARGS="--evalfile nnue/net4.nnue" (the network
# that plays the next generation's games; the file must be at that path on every host).
# OUTDIR must be a shared directory for ssh and slurm (or copy the shard files back before merging).
set -euo pipefail
chuhan=${CHUHAN:-chuhan}
extra=${DATAGEN_ARGS:-}
mode=${1:?mode: local, ssh, slurm or merge}
shift

if [ "$mode" = merge ]; then
    dir=${1:?OUTDIR}
    out=${2:?MERGED.xqg}
    exec "$chuhan" datagen merge --out "$out" "$dir"/shard-*.xqg
fi

n=${1:?N shards}; games=${2:?GAMES in all}; seed=${3:?SEED}; nodes=${4:?NODES per move}; dir=${5:?OUTDIR}
mkdir -p "$dir"
shard_cmd() { # the command for shard $1
    echo "$chuhan datagen --games $games --seed $seed --nodes $nodes --threads 1 --shard $1/$n $extra --out $dir/shard-$1.xqg"
}

case "$mode" in
local)
    for k in $(seq 0 $((n - 1))); do
        $(shard_cmd "$k") 2>"$dir/shard-$k.log" &
    done
    wait
    ;;
ssh)
    hosts=${6:?HOSTFILE for GNU parallel --sshloginfile}
    seq 0 $((n - 1)) | parallel --sshloginfile "$hosts" --jobs 1 --line-buffer "$(shard_cmd '{}') 2>$dir/shard-{}.log"
    ;;
slurm)
    cat <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=chuhan-datagen
#SBATCH --array=0-$((n - 1))
#SBATCH --cpus-per-task=1
#SBATCH --time=24:00:00
#SBATCH --requeue
$(shard_cmd '$SLURM_ARRAY_TASK_ID') 2>$dir/shard-\$SLURM_ARRAY_TASK_ID.log
EOF
    ;;
*)
    echo "unknown mode '$mode' (local, ssh, slurm, merge)" >&2
    exit 2
    ;;
esac
