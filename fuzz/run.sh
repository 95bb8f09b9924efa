#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) from the seeds in fuzz/seeds, keeping
# what it learns in fuzz/corpus; prints each target's executions and fails on the first crash
# (the input that crashed lands in fuzz/artifacts/TARGET/). Needs the nightly toolchain and
# cargo-fuzz (`cargo install cargo-fuzz`).
#
#   bash fuzz/run.sh            # one minute each, as CI runs them
#   bash fuzz/run.sh 36000      # ten hours each
#   bash fuzz/run.sh 600 gtp_session
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH=${1:-60}
shift || true
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(gtp_session sgf_reader tournament_config board_play)
mkdir -p corpus
cargo +nightly fuzz build >corpus/build.log 2>&1 || {
    tail -30 corpus/build.log
    echo "fuzz: the targets do not build" >&2
    exit 1
}
for target in "${TARGETS[@]}"; do
    mkdir -p "corpus/$target"
    log="corpus/$target.log"
    if ! cargo +nightly fuzz run "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$SECONDS_EACH" -print_final_stats=1 >"$log" 2>&1; then
        tail -40 "$log"
        echo "fuzz: $target crashed; the input is in fuzz/artifacts/$target/" >&2
        exit 1
    fi
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$')
    echo "fuzz: $target: $runs executions in $SECONDS_EACH s, no crash"
done
