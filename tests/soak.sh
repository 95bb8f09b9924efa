#!/usr/bin/env bash
# Soak: many self-play games of tengen under the match runner's referee (every move checked
# against the rules), reporting illegal moves, crashes, silences, malformed answers, losses on
# time and each engine process's peak memory against its --max-memory.
#
#   bash tests/soak.sh                         # 2000 games on 9x9 and 200 on 19x19 (hours)
#   GAMES9=100 GAMES19=10 bash tests/soak.sh   # a short run (about 20 minutes)
#
# Settings (environment): GAMES9, GAMES19 (games per size), PLAYOUTS9, PLAYOUTS19 (per move),
# TIME9, TIME19 (each side's clock, so that time management runs too), MAX_MEMORY (MiB, each
# engine), OUT (results folder, default target/soak). Reruns resume: the match journals stay in
# OUT. Exits 1 if any game ended by an engine failure or on time, or an engine's peak resident
# memory passed its bound (the tree's bound plus a fixed allowance for the rest of the process).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TENGEN=${TENGEN:-$ROOT/target/release/tengen}
OUT=${OUT:-$ROOT/target/soak}
GAMES9=${GAMES9:-2000}
GAMES19=${GAMES19:-200}
PLAYOUTS9=${PLAYOUTS9:-1000}
PLAYOUTS19=${PLAYOUTS19:-2000}
TIME9=${TIME9:-2m}
TIME19=${TIME19:-10m}
# A small tree bound, which 19x19 searches fill, so that the bound itself is soaked.
MAX_MEMORY=${MAX_MEMORY:-4}
# What a process holds besides the tree: code, stacks, boards, buffers.
ALLOWANCE_MIB=16
mkdir -p "$OUT"
[[ -x $TENGEN ]] || (cd "$ROOT" && cargo build --release --quiet)

# engine SIZE PLAYOUTS NAME: an engine command whose peak RSS (KiB) lands in $OUT/rss-*.txt.
engine() {
    echo "/usr/bin/time -a -o $OUT/rss-$1.txt -f %M $TENGEN gtp --threads 1 --playouts $2 \
--max-memory $MAX_MEMORY --log-level error"
}

failed=0
for spec in "9 $GAMES9 $PLAYOUTS9 $TIME9" "19 $GAMES19 $PLAYOUTS19 $TIME19"; do
    read -r size games playouts clock <<<"$spec"
    ((games > 0)) || continue
    echo "soak: $games games on ${size}x$size, $playouts playouts a move, $clock each"
    "$TENGEN" match --black "$(engine "$size" "$playouts")" --white "$(engine "$size" "$playouts")" \
        --games "$games" --size "$size" --komi 7.5 --alternate --parallel 2 --time "$clock" \
        --journal "$OUT/journal-$size.jsonl" --json "$OUT/soak-$size.json" >"$OUT/table-$size.txt" ||
        { echo "soak: the match on ${size}x$size stopped early"; failed=1; }
    cat "$OUT/table-$size.txt"
    python3 - "$OUT/soak-$size.json" "$OUT/rss-$size.txt" "$MAX_MEMORY" "$ALLOWANCE_MIB" <<'PY' || failed=1
import collections, json, sys
games = json.load(open(sys.argv[1]))["games"]
reasons = collections.Counter(g["reason"] for g in games)
bad = {r: n for r, n in reasons.items() if r not in ("score", "resign", "max-moves")}
peaks = [int(line) for line in open(sys.argv[2]) if line.strip().isdigit()]
bound = (int(sys.argv[3]) + int(sys.argv[4])) * 1024
print(f"soak: {len(games)} games, endings {dict(reasons)}; peak RSS {max(peaks, default=0) // 1024} MiB "
      f"over {len(peaks)} engine processes (bound {bound // 1024} MiB)")
for g in games:
    if g["reason"] in bad:
        print(f"soak: game {g['game'] + 1}: {g['result']} ({g['reason']}: {g['detail']})")
over = [p for p in peaks if p > bound]
if over:
    print(f"soak: {len(over)} engine processes went over the memory bound, the largest {max(over) // 1024} MiB")
sys.exit(1 if bad or over else 0)
PY
done
exit $failed
