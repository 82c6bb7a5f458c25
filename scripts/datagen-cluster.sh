#!/usr/bin/env bash
# Self-play data on many machines: N disjoint shards of one seed (`chuhan datagen --shard K/N`), then one merge.
# Every shard is resumable: run the same command again after a kill and it plays only the missing games.
#
#   scripts/datagen-cluster.sh local  N GAMES SEED NODES OUTDIR            # N shards on this machine, 1 thread each
#   scripts/datagen-cluster.sh ssh    N GAMES SEED NODES OUTDIR HOSTFILE   # GNU parallel over ssh hosts
#   scripts/datagen-cluster.sh slurm  N GAMES SEED NODES OUTDIR            # Slurm array job: submit, wait, retry, merge
#   scripts/datagen-cluster.sh slurm-script N GAMES SEED NODES OUTDIR     # only write and print the batch script
#   scripts/datagen-cluster.sh merge  OUTDIR MERGED.xqg                    # joins the shards
#
# CHUHAN (default: chuhan on the PATH) must name the same build everywhere: the games depend on the engine.
# DATAGEN_ARGS adds words to every shard's command, e.g. DATAGEN_ARGS="--evalfile nnue/net8.nnue" (the network
# that plays the next generation's games; the file must be at that path on every host).
# OUTDIR must be a shared directory for ssh and slurm (or copy the shard files back before merging).
# slurm: sbatch runs the N shards as one array job; the script polls squeue until it has left the queue, takes
# a shard as done when its log ends with datagen's summary line, submits the others again (a shard resumes: only
# its missing games are played; RETRIES times, default 2, reporting each task's Slurm state), then merges into
# OUTDIR/merged.xqg. SBATCH_ARGS adds words to sbatch (partition, account, time limit).
# A one-node cluster to try it on: scripts/slurm-local.sh up.
set -euo pipefail
chuhan=${CHUHAN:-chuhan}
extra=${DATAGEN_ARGS:-}
mode=${1:?mode: local, ssh, slurm, slurm-script or merge}
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
slurm-script | slurm)
    script="$dir/datagen.sbatch"
    cat >"$script" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=chuhan-datagen
#SBATCH --cpus-per-task=1
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=$dir/slurm-%A-%a.out
$(shard_cmd '$SLURM_ARRAY_TASK_ID') 2>$dir/shard-\$SLURM_ARRAY_TASK_ID.log
EOF
    if [ "$mode" = slurm-script ]; then
        echo "# submit with: sbatch --array=0-$((n - 1)) $script"
        cat "$script"
        exit 0
    fi
    tasks="0-$((n - 1))"
    failed=""
    for attempt in $(seq 0 "${RETRIES:-2}"); do
        # shellcheck disable=SC2086
        job=$(sbatch --parsable --array="$tasks" ${SBATCH_ARGS:-} "$script")
        job=${job%%;*}
        echo "datagen-cluster: job $job, shards $tasks (attempt $((attempt + 1)))" >&2
        while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
            sleep 2
        done
        # A shard is done when its log has datagen's closing line; the state Slurm recorded says why not.
        failed=""
        for k in $(seq 0 $((n - 1))); do
            grep -q "^datagen: .* games, .* positions in" "$dir/shard-$k.log" 2>/dev/null || failed="$failed,$k"
        done
        failed=${failed#,}
        [ -z "$failed" ] && break
        scontrol -o show job "$job" 2>/dev/null | grep -o 'ArrayTaskId=[0-9]* .*JobState=[A-Z_]*' |
            sed -E 's/ArrayTaskId=([0-9]+) .*JobState=([A-Z_]+)/datagen-cluster: shard \1: \2/' >&2 || true
        echo "datagen-cluster: shards not finished: $failed (they resume)" >&2
        tasks=$failed
    done
    if [ -n "$failed" ]; then
        echo "datagen-cluster: shards $failed still unfinished after ${RETRIES:-2} retries; logs in $dir" >&2
        exit 1
    fi
    "$chuhan" datagen merge --out "$dir/merged.xqg" "$dir"/shard-*.xqg
    ;;
*)
    echo "unknown mode '$mode' (local, ssh, slurm, slurm-script, merge)" >&2
    exit 2
    ;;
esac
