#!/usr/bin/env bash
# Engine matches on many machines: N shards of one match (`chuhan match --shard K/N`), then one report
# (`chuhan match merge`) that equals what one run of the whole match would report.
#
#   scripts/match-cluster.sh local  N OUTDIR -- MATCH-ARGS…            # N shards on this machine at once
#   scripts/match-cluster.sh ssh    N OUTDIR HOSTFILE -- MATCH-ARGS…   # GNU parallel over ssh hosts
#   scripts/match-cluster.sh slurm  N OUTDIR -- MATCH-ARGS…            # Slurm array job: submit, wait, retry, merge
#   scripts/match-cluster.sh slurm-script N OUTDIR -- MATCH-ARGS…      # only write and print the batch script
#   scripts/match-cluster.sh merge  OUTDIR [MERGE-ARGS…]               # one report over the shards
#
# MATCH-ARGS are `chuhan match`'s own (the two --engine, the limit, --games, --openings, --seed …) without
# --shard, --pgn, --json and --resume, which the script adds: shard K writes OUTDIR/shard-K.pgn (and .json), its
# report to OUTDIR/shard-K.out and its progress to OUTDIR/shard-K.log. Every shard resumes: run the same command
# again after a kill and only its missing games are played. Give a fixed --games: an SPRT decides on the whole
# match, so set SPRT="elo0=0 elo1=5" and the merge reports the test's state (a shard refuses --sprt).
# The merge writes OUTDIR/merged.pgn (all games in round order) and OUTDIR/merged.json and prints the report.
#
# CHUHAN (default: chuhan on the PATH) runs the match; the engines' cmd= paths, the openings file and OUTDIR must
# be the same on every host (a shared directory), and so must the engine builds, or the shards are not one match.
# slurm: each shard is one array task with --cpus-per-task set to the match's --concurrency (default 1); the
# script polls squeue until the job has left the queue, takes a shard as done when its report is written,
# submits the others again (RETRIES times, default 2, reporting each task's Slurm state), then merges.
# SBATCH_ARGS adds words to sbatch (partition, account, time limit). A one-node cluster to try it on:
# scripts/slurm-local.sh up.
set -euo pipefail
chuhan=${CHUHAN:-chuhan}
mode=${1:?mode: local, ssh, slurm, slurm-script or merge}
shift

merge() { # merge OUTDIR [extra words]
    local dir=$1
    shift
    local sprt=()
    [ -n "${SPRT:-}" ] && sprt=(--sprt "$SPRT")
    "$chuhan" match merge "$dir"/shard-*.pgn --pgn "$dir/merged.pgn" --json "$dir/merged.json" "${sprt[@]}" "$@"
}

if [ "$mode" = merge ]; then
    dir=${1:?OUTDIR}
    shift
    merge "$dir" "$@"
    exit
fi

n=${1:?N shards}
dir=${2:?OUTDIR}
shift 2
hosts=""
if [ "$mode" = ssh ]; then
    hosts=${1:?HOSTFILE for GNU parallel --sshloginfile}
    shift
fi
[ "${1:-}" = -- ] || { echo "match-cluster: put -- before the match's arguments" >&2; exit 2; }
shift
[ $# -gt 0 ] || { echo "match-cluster: no match arguments after --" >&2; exit 2; }
cpus=1
prev=""
for word in "$@"; do
    case "$word" in
    --shard* | --pgn* | --json* | --resume | --sprt*)
        echo "match-cluster: leave $word out: the script gives each shard its own (SPRT=… for the test)" >&2
        exit 2
        ;;
    esac
    [ "$prev" = --concurrency ] && cpus=$word
    prev=$word
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
quoted=$(printf '%q ' "$@")
qdir=$(printf '%q' "$dir")

shard_cmd() { # the command for shard $1 (a number, or a shell variable written unexpanded)
    echo "$(printf '%q' "$chuhan") match $quoted--shard $1/$n --resume --pgn $qdir/shard-$1.pgn \
--json $qdir/shard-$1.json >$qdir/shard-$1.out 2>$qdir/shard-$1.log"
}

case "$mode" in
local)
    pids=()
    for k in $(seq 0 $((n - 1))); do
        eval "$(shard_cmd "$k")" &
        pids+=($!)
    done
    status=0
    for pid in "${pids[@]}"; do
        wait "$pid" || status=$?
    done
    [ "$status" = 0 ] || echo "match-cluster: a shard failed; see $dir/shard-*.log" >&2
    merge "$dir"
    exit "$status"
    ;;
ssh)
    seq 0 $((n - 1)) | parallel --sshloginfile "$hosts" --jobs 1 "$(shard_cmd '{}')"
    merge "$dir"
    ;;
slurm-script | slurm)
    script="$dir/match.sbatch"
    cat >"$script" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=chuhan-match
#SBATCH --cpus-per-task=$cpus
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=$dir/slurm-%A-%a.out
$(shard_cmd '$SLURM_ARRAY_TASK_ID')
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
        echo "match-cluster: job $job, shards $tasks (attempt $((attempt + 1)))" >&2
        while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
            sleep 2
        done
        # A shard is done when it has written its report; the state Slurm recorded says why not.
        failed=""
        for k in $(seq 0 $((n - 1))); do
            grep -q "^Results of " "$dir/shard-$k.out" 2>/dev/null || failed="$failed,$k"
        done
        failed=${failed#,}
        [ -z "$failed" ] && break
        scontrol -o show job "$job" 2>/dev/null | grep -o 'ArrayTaskId=[0-9]* .*JobState=[A-Z_]*' |
            sed -E 's/ArrayTaskId=([0-9]+) .*JobState=([A-Z_]+)/match-cluster: shard \1: \2/' >&2 || true
        echo "match-cluster: shards not finished: $failed (they resume)" >&2
        tasks=$failed
    done
    if [ -n "$failed" ]; then
        echo "match-cluster: shards $failed still unfinished after ${RETRIES:-2} retries; logs in $dir" >&2
        merge "$dir" || true
        exit 1
    fi
    merge "$dir"
    ;;
*)
    echo "unknown mode '$mode' (local, ssh, slurm, slurm-script, merge)" >&2
    exit 2
    ;;
esac
