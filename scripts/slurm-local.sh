#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying the cluster scripts (datagen-cluster.sh slurm) and for
# the gated cluster test. Not for production: no accounting, no cgroups, root runs the daemons.
#
#   scripts/slurm-local.sh up       # start munge, slurmctld and slurmd; wait until the node is idle
#   scripts/slurm-local.sh status   # sinfo and the queue
#   scripts/slurm-local.sh down     # stop the daemons (scontrol shutdown, munged)
#
# Needs root and Debian's packages `slurm-wlm` and `munge` (it installs nothing: `apt-get install slurm-wlm
# munge`). `up` and `down` are idempotent. The configuration goes to /etc/slurm/slurm.conf (an existing one that
# this script did not write is left alone and used); state and logs to /var/lib/chuhan-slurm.
set -euo pipefail

mode=${1:?usage: slurm-local.sh up|down|status}
state=/var/lib/chuhan-slurm
conf=/etc/slurm/slurm.conf
marker="# written by chuhan scripts/slurm-local.sh"

need_root() {
    [ "$(id -u)" = 0 ] || { echo "slurm-local: needs root (it starts munged, slurmctld and slurmd)" >&2; exit 2; }
    for tool in munged slurmctld slurmd sinfo scontrol; do
        command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
            { echo "slurm-local: '$tool' not found: apt-get install slurm-wlm munge" >&2; exit 2; }
    done
}

node_state() { sinfo -h -N -o '%T' 2>/dev/null | head -1; }

case "$mode" in
up)
    need_root
    host=$(hostname -s)
    mkdir -p "$state"/{spool,ctld,log} /run/munge /etc/slurm
    chown munge:munge /run/munge 2>/dev/null || true
    if ! pgrep -x munged >/dev/null; then
        [ -f /etc/munge/munge.key ] || { echo "slurm-local: /etc/munge/munge.key missing (reinstall munge)" >&2; exit 2; }
        runuser -u munge -- /usr/sbin/munged
    fi
    munge -n | unmunge >/dev/null || { echo "slurm-local: munge does not work" >&2; exit 1; }
    if [ ! -f "$conf" ] || grep -q "$marker" "$conf"; then
        cat >"$conf" <<EOF
$marker
ClusterName=chuhan
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
NodeName=$host CPUs=$(nproc) RealMemory=$(($(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) * 8 / 10)) State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    fi
    pgrep -x slurmctld >/dev/null || slurmctld
    pgrep -x slurmd >/dev/null || slurmd
    for _ in $(seq 1 60); do
        case "$(node_state)" in
        idle | mixed | allocated) echo "slurm-local: up ($(sinfo -h -o '%P %D %C'))"; exit 0 ;;
        esac
        sleep 1
    done
    echo "slurm-local: the node did not come up; logs in $state/log" >&2
    exit 1
    ;;
down)
    need_root
    if pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; then
        scontrol shutdown >/dev/null 2>&1 || true
        for _ in $(seq 1 20); do
            pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null || break
            sleep 0.5
        done
        pkill -x slurmd 2>/dev/null || true
        pkill -x slurmctld 2>/dev/null || true
    fi
    pkill -x munged 2>/dev/null || true
    echo "slurm-local: down"
    ;;
status)
    if pgrep -x slurmctld >/dev/null; then
        sinfo
        squeue
    else
        echo "slurm-local: not running"
    fi
    ;;
*)
    echo "slurm-local: unknown mode '$mode' (up, down, status)" >&2
    exit 2
    ;;
esac
