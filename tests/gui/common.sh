# Shared by the real-GUI tests (sourced, never run): installs what a test needs from Debian,
# builds tengen, starts a private X display, takes screenshots, and reads tengen's own GTP log.
# Each test sets GUI (its name) before sourcing. Screenshots and logs go to
# target/gui-tests/$GUI/ (GUI_TEST_OUT overrides); each GUI runs with a fresh HOME there, so its
# configuration is the stock one apart from the engine command the test writes.
set -euo pipefail

GUI_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$GUI_DIR/../.." && pwd)
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

# wait_for_window NAME SECONDS: the id of the first visible window whose title (WM_NAME) or,
# failing that, class matches NAME, a regular expression; some toolkits (KDE's) leave WM_NAME
# empty and set the title only in _NET_WM_NAME, which xdotool does not search. Fails at once if
# the GUI (GUI_PID) has exited.
wait_for_window() {
    local id
    for _ in $(seq $(($2 * 5))); do
        id=$({ xdotool search --onlyvisible --name "$1" ||
            xdotool search --onlyvisible --class "$1"; } 2>/dev/null | head -1 || true)
        [[ -n $id ]] && { echo "$id"; return 0; }
        [[ -z ${GUI_PID:-} ]] || kill -0 "$GUI_PID" 2>/dev/null ||
            fail "the GUI exited; the end of its log: $(tail -5 "$OUT/$GUI.log" 2>/dev/null | paste -sd'|')"
        sleep 0.2
    done
    fail "no window named '$1' after $2 s"
}

# screen_text NAME [GEOMETRY]: the text tesseract (Debian's tesseract-ocr) reads on screenshot
# NAME, or on its part GEOMETRY (WxH+X+Y: a small part reads far more reliably).
screen_text() {
    convert "$OUT/$1.png" ${2:+-crop "$2" +repage} -colorspace gray -resize 300% "$OUT/ocr.png"
    tesseract "$OUT/ocr.png" - 2>/dev/null
    rm -f "$OUT/ocr.png"
}

# wait_for_text PATTERN TRIES NAME [GEOMETRY]: takes screenshot NAME, a second apart, until its
# text (in GEOMETRY) has a match of the extended regular expression PATTERN; prints the match.
wait_for_text() {
    local found
    for _ in $(seq "$2"); do
        shot "$3"
        found=$(screen_text "$3" "${4:-}" | grep -Eo -- "$1" | head -1 || true)
        [[ -n $found ]] && { echo "$found"; return 0; }
        sleep 1
    done
    fail "no '$1' on $3.png after $2 tries"
}

# gtp_log ARGS / board_image ARGS: the shared readers of tengen's log and of screenshots (their
# docstrings list what they do).
gtp_log() { python3 "$GUI_DIR/gtp_log.py" "$@"; }
board_image() { python3 "$GUI_DIR/board_image.py" "$@"; }

# intersection VERTEX: the screen pixel "X Y" of that point of a SIZE board whose grid
# board_image.py found at X0 Y0 STEP (row 1 at the bottom).
intersection() {
    local columns=ABCDEFGHJKLMNOPQRST
    local c=${columns%%"${1:0:1}"*}
    awk -v c=${#c} -v r="${1:1}" -v n="$SIZE" -v x="$X0" -v y="$Y0" -v s="$STEP" \
        'BEGIN { printf "%d %d\n", x + c * s + 0.5, y + (n - r) * s + 0.5 }'
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
settle() { gtp_log idle "$GTP_LOG" 120 2 || fail "the GUI never settled"; }
