#!/usr/bin/env bash
# A sharded match on a real Slurm: a single-node cluster on this machine (Debian's slurm-wlm
# and munge; slurmctld and slurmd on localhost, no cgroups), a 4-task job array running
# `tengen match --shard auto` into one shared directory, then `tengen match merge`. Every game
# must be present exactly once, and the results game by game must equal the same match
# played in one process (the engines are deterministic: fixed seeds, fixed playouts, one
# process per game). Then the same with one task requeued (killed mid-run and started again by
# Slurm): it must resume its own journal without losing or repeating a game.
#
#   bash tests/slurm/run.sh        # about 3 minutes; logs in target/slurm-test/
#
# It needs root (it starts munged and the Slurm daemons) and stops them when it ends.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TENGEN=${TENGEN:-$ROOT/target/release/tengen}
OUT=${SLURM_TEST_OUT:-$ROOT/target/slurm-test}
GAMES=16
export SLURM_CONF=$OUT/slurm.conf

say() { echo "slurm-test: $*" >&2; }
fail() {
    say "FAIL: $*"
    exit 1
}

rm -rf "$OUT"
mkdir -p "$OUT/state" "$OUT/spool" "$OUT/log"
for p in slurm-wlm munge; do
    dpkg -s "$p" >/dev/null 2>&1 || {
        say "installing $p"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p") \
            >"$OUT/apt.log" 2>&1 || fail "apt-get install $p failed"
    }
done
[[ -x $TENGEN ]] || (cd "$ROOT" && cargo build --release --quiet)

# The cluster: munge for authentication, one controller and one node daemon.
HOST=$(hostname -s)
cat >"$SLURM_CONF" <<CONF
ClusterName=tengen-test
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
# A requeued task waits cred_expire + 1 seconds before it may start again (120 by default).
AuthInfo=cred_expire=10
StateSaveLocation=$OUT/state
SlurmdSpoolDir=$OUT/spool
SlurmctldPidFile=$OUT/slurmctld.pid
SlurmdPidFile=$OUT/slurmd.pid
SlurmctldLogFile=$OUT/log/slurmctld.log
SlurmdLogFile=$OUT/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
JobRequeue=1
NodeName=$HOST CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    [[ -s /etc/munge/munge.key ]] || mungekey --create >/dev/null
    mkdir -p /run/munge && chown munge:munge /run/munge
    runuser -u munge -- /usr/sbin/munged || fail "munged did not start"
fi
slurmctld -D -f "$SLURM_CONF" >"$OUT/log/slurmctld.out" 2>&1 &
CTLD=$!
sleep 1
slurmd -D -f "$SLURM_CONF" >"$OUT/log/slurmd.out" 2>&1 &
SLURMD=$!
stop_cluster() {
    local status=$?
    scancel --quiet $(squeue -h -o %A 2>/dev/null) 2>/dev/null || true
    kill "$SLURMD" "$CTLD" 2>/dev/null || true
    wait 2>/dev/null || true
    exit "$status"
}
trap stop_cluster EXIT
for _ in $(seq 30); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo -h -o %T | grep -q idle || fail "the Slurm node did not come up (see $OUT/log)"
say "a one-node Slurm is up ($(sinfo -h -o '%P %D %T'))"

# match_args DIR: the match, with its journals and games in DIR.
match_args() {
    echo "match --black '$TENGEN gtp --player random --seed 5' \
--white '$TENGEN gtp --threads 1 --playouts 100 --seed 7' --games $GAMES --size 9 --komi 7.5 \
--alternate --scoring tromp-taylor --sgf-dir $1"
}

# The reference: the whole match in one process.
eval "$TENGEN $(match_args "$OUT/reference") --json $OUT/reference.json" >"$OUT/reference.txt"

# results JSON: "game result" per line, sorted by game.
results() {
    python3 -c 'import json,sys; [print(g["game"], g["result"], g["black_engine"]) for g in sorted(json.load(open(sys.argv[1]))["games"], key=lambda g: g["game"])]' "$1"
}

# run NAME [REQUEUE]: the array job into $OUT/NAME; with REQUEUE, task 2 is requeued once it
# has finished a game.
run() {
    local dir=$OUT/$1 job
    mkdir -p "$dir"
    cat >"$dir/job.sh" <<JOB
#!/bin/bash
echo "task \$SLURM_ARRAY_TASK_ID, start \${SLURM_RESTART_COUNT:-0}"
exec $TENGEN $(match_args "$dir") --shard auto
JOB
    job=$(sbatch --parsable --array=1-4 --requeue --cpus-per-task=1 --open-mode=append \
        --output="$dir/task-%a.out" "$dir/job.sh")
    if [[ -n ${2:-} ]]; then
        local journal=$dir/journal.shard-2-of-4.jsonl
        for _ in $(seq 600); do
            [[ $(grep -c '"game"' "$journal" 2>/dev/null || true) -ge 1 ]] && break
            sleep 0.1
        done
        scontrol requeue "${job}_2" || fail "scontrol requeue ${job}_2 failed"
        say "$1: task 2 requeued after $(grep -c '"game"' "$journal") of its games"
    fi
    for _ in $(seq 300); do
        [[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && break
        sleep 1
    done
    [[ -z $(squeue -h -j "$job") ]] || fail "$1: the array did not finish in 5 minutes"
    "$TENGEN" match merge "$dir" --games "$GAMES" --json "$OUT/$1.json" >"$OUT/$1.txt" ||
        fail "$1: merge failed"
    grep -q "0 of 4 shards still to finish" "$OUT/$1.txt" || fail "$1: $(cat "$OUT/$1.txt")"
    # Every game exactly once over the four journals.
    local numbers
    numbers=$(cat "$dir"/journal.shard-*-of-4.jsonl | python3 -c '
import json, sys
games = [json.loads(l)["game"]["game"] for l in sys.stdin if l.startswith("{\"game\"")]
print(" ".join(map(str, sorted(games))))')
    [[ $numbers == "$(seq -s ' ' 0 $((GAMES - 1)))" ]] ||
        fail "$1: the journals hold games [$numbers], not each of 0..$((GAMES - 1)) once"
    diff <(results "$OUT/reference.json") <(results "$OUT/$1.json") >"$OUT/$1.diff" ||
        fail "$1: results differ from the one-process match (see $OUT/$1.diff)"
    if [[ -n ${2:-} ]]; then
        grep -q "task 2, start 1" "$dir/task-2.out" || fail "$1: task 2 was not started again"
    fi
    say "$1: $GAMES games, each once, results equal to the one-process match"
}

START=$SECONDS
run sharded
run requeued requeue
say "PASS in $((SECONDS - START)) s"
