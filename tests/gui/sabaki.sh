#!/usr/bin/env bash
# Sabaki's GTP library (@sabaki/gtp from npm, which Sabaki itself drives engines with) against
# tengen: sabaki.js runs the start-up burst, syncs, interrupted analysis, a whole game through
# kata-genmove_analyze, undo by sync and quit. Sabaki itself (an Electron app) cannot be
# installed here; its library is the part that talks to the engine. About 30 s.
GUI=sabaki
source "$(dirname "$0")/common.sh"
START=$SECONDS
rm -rf "$OUT"
mkdir -p "$OUT"
command -v npm >/dev/null || need_packages npm
if [[ ! -x $TENGEN ]]; then
    (cd "$ROOT" && cargo build --release --quiet) || fail "cargo build --release failed"
fi
(cd "$OUT" && npm install --silent --no-audit --no-fund @sabaki/gtp@3 >"$OUT/npm.log" 2>&1) ||
    fail "npm install @sabaki/gtp failed (see $OUT/npm.log)"
NODE_PATH="$OUT/node_modules" node "$(dirname "$0")/sabaki.js" "$TENGEN" "$GTP_LOG" ||
    fail "see $GTP_LOG"
failures=$(python3 "$(dirname "$0")/gtp_log.py" failures "$GTP_LOG")
[[ -z $failures ]] || fail "tengen refused: $failures"
say "PASS in $((SECONDS - START)) s"
