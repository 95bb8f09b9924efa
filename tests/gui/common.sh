# Shared by the real-GUI tests (sourced, never run): installs what a test needs from Debian,
# builds tengen, starts a private X display, takes screenshots, and reads tengen's own GTP log.
# Each test sets GUI (its name) before sourcing. Screenshots and logs go to
# target/gui-tests/$GUI/ (GUI_TEST_OUT overrides); each GUI runs with a fresh HOME there, so its
# configuration is the stock one apart from the engine command the test writes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TENGEN=${TENGEN:-$ROOT/target/release/tengen}
OUT=${GUI_TEST_OUT:-$ROOT/target/gui-tests/$GUI}
HOME_DIR=$OUT/home
GTP_LOG=$OUT/tengen-gtp.log
export PATH="$PATH:/usr/games"

say() { echo "gui-test $GUI: $*" >&2; }
fail() {
    say "FAIL: $*"
    shot failure || true
    exit 1
}

# need_packages PKG...: installs the Debian packages that are missing.
need_packages() {
    local missing=()
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if ((${#missing[@]})); then
        say "installing ${missing[*]}"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") \
            >"$OUT/apt.log" 2>&1 || fail "apt-get install ${missing[*]} failed (see $OUT/apt.log)"
    fi
}

# prepare: a clean output folder, the base packages, and a release build of tengen.
prepare() {
    rm -rf "$OUT"
    mkdir -p "$OUT" "$HOME_DIR"
    need_packages xvfb xdotool x11-utils imagemagick "$@"
    if [[ ! -x $TENGEN || -n ${GUI_TEST_BUILD:-} ]]; then
        (cd "$ROOT" && cargo build --release --quiet) || fail "cargo build --release failed"
    fi
    : >"$GTP_LOG"
}

# tengen_command FLAGS...: the engine command a GUI runs, logging every GTP line to $GTP_LOG.
tengen_command() {
    echo "$TENGEN $* --log-file $GTP_LOG --log-level debug"
}

# start_display: a private Xvfb display, closed with every program on it when the test ends.
start_display() {
    local n
    for n in $(seq 90 140); do
        [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]] || break
    done
    Xvfb ":$n" -screen 0 1280x900x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
    XVFB_PID=$!
    export DISPLAY=":$n"
    for _ in $(seq 50); do
        xdpyinfo >/dev/null 2>&1 && break
        sleep 0.1
    done
    xdpyinfo >/dev/null 2>&1 || fail "Xvfb did not start on $DISPLAY"
    trap cleanup EXIT
}

cleanup() {
    local status=$?
    [[ -n ${GUI_PID:-} ]] && kill "$GUI_PID" 2>/dev/null
    pkill -f "$TENGEN .*--log-file $GTP_LOG" 2>/dev/null || true
    sleep 0.5
    [[ -n ${XVFB_PID:-} ]] && kill "$XVFB_PID" 2>/dev/null
    return $status
}

# shot NAME: a screenshot of the whole display in $OUT/NAME.png.
shot() { import -window root "$OUT/$1.png" 2>/dev/null; }

# wait_for_window NAME SECONDS: the id of the first visible window whose title matches NAME.
wait_for_window() {
    local id
    for _ in $(seq $(($2 * 5))); do
        id=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1 || true)
        [[ -n $id ]] && { echo "$id"; return 0; }
        sleep 0.2
    done
    fail "no window named '$1' after $2 s"
}

# wait_for_log PATTERN SECONDS [FILE]: waits until FILE (tengen's GTP log) has a line matching
# the extended regular expression PATTERN.
wait_for_log() {
    local file=${3:-$GTP_LOG}
    for _ in $(seq $(($2 * 5))); do
        grep -Eq -- "$1" "$file" 2>/dev/null && return 0
        sleep 0.2
    done
    fail "'$1' not in $file after $2 s"
}

# count_log PATTERN [FILE]: how many lines of the log match.
count_log() { grep -Ec -- "$1" "${2:-$GTP_LOG}" || true; }

# gtp_failures: tengen's '?' answers, one per line (the log marks answers '> ').
gtp_failures() { grep -E 'gtp\] > \?' "$GTP_LOG" || true; }

# settle: waits until tengen has answered every command it received and the GUI has been quiet
# for two seconds.
settle() {
    local before
    for _ in $(seq 60); do
        before=$(wc -l <"$GTP_LOG")
        sleep 2
        if [[ $(wc -l <"$GTP_LOG") == "$before" ]] &&
            python3 "$(dirname "${BASH_SOURCE[0]}")/gtp_log.py" pending "$GTP_LOG" | grep -q '^0$'; then
            return 0
        fi
    done
    fail "the GUI never settled"
}
