#!/usr/bin/env bash
# KDE's Kigo 22.12 (Debian's kigo) against tengen, for real: under Xvfb, driven with xdotool,
# checked on tengen's own GTP log and on screenshots. Kigo's configuration is its stock one apart
# from the engine command ([Backend] EngineCommand in ~/.config/kigorc).
#
#   bash tests/gui/kigo.sh        # about 55 s; screenshots in target/gui-tests/kigo/
#
# On Kigo's setup screen the test picks "No handicap" (Kigo's default is 4 stones), keeps 9x9,
# human Black and computer White, and starts the game. Black clicks legal random moves (a fresh
# tengen replays the game to choose them); after a few the test undoes one exchange (Ctrl+Z:
# Kigo sends undo twice) and checks that tengen's board is the one before it, then asks for a
# Hint (top_moves_black must answer with candidates), then passes (P) until tengen passes too
# (or resigns) and presses Finish Game (F): estimate_score and final_status_list
# black_territory|white_territory must be answered, and Kigo must announce the winner of
# tengen's estimate (read with OCR). Every other command must be accepted, except `level N`
# and `fixed_handicap 0` (GNU Go refuses those too; they are noted). In five screenshots Kigo
# must draw exactly the stones of tengen's list_stones answers. Kigo needs a D-Bus session
# bus (it quits without one), so it runs under dbus-run-session; no window manager is needed.
GUI=kigo
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
SIZE=9
MOVES=${KIGO_MOVES:-10}    # Black stones placed before Black starts passing
UNDO_AT=${KIGO_UNDO_AT:-4} # the exchange after this many Black stones is undone once
SEED=${KIGO_SEED:-$RANDOM}
DEADLINE=${KIGO_DEADLINE:-270}

prepare kigo dbus-daemon python3 tesseract-ocr
SECONDS=0
start_display

# kigo_wait COMMAND COUNT SECONDS: waits until tengen has answered COMMAND COUNT times and Kigo
# is idle; sets STONES (what Kigo read back with list_stones) and LASTGEN (the last genmove).
kigo_wait() {
    gtp_log idle "$GTP_LOG" "$3" 0.6 "$1" "$2" 2>"$OUT/wait.err" ||
        fail "Kigo/tengen stuck: $(cat "$OUT/wait.err")"
    STONES=$(gtp_log stones "$GTP_LOG")
    LASTGEN=$(gtp_log last "$GTP_LOG" genmove)
    ((SECONDS < DEADLINE)) || fail "over the ${DEADLINE}s budget"
}

# flat LINES: the lines joined with commas, for messages.
flat() { echo "${1//$'\n'/, }"; }

# has_stone COLOUR VERTEX: whether STONES has it.
has_stone() { grep -Eq "^$1:.* $2( |$)" <<<"$STONES"; }

# sent COMMAND-REGEX: how many commands matching the regex Kigo has sent.
sent() { count_log "gtp\] < $1\$"; }

# key KEYS: a key press in Kigo's window.
key() { timeout 5 xdotool windowfocus --sync "$WIN" 2>/dev/null || true; xdotool key "$@"; }

# keys_until PATTERN TRY...: presses the keys of each TRY (a space-separated list) in turn until
# tengen's log has a line matching PATTERN, three seconds a try.
keys_until() {
    local pattern=$1 try k
    shift
    for try in "$@"; do
        for k in $try; do
            key "$k"
            sleep 0.4
        done
        for _ in $(seq 15); do
            grep -Eq -- "$pattern" "$GTP_LOG" && return 0
            sleep 0.2
        done
    done
    fail "no '$pattern' in the log after pressing $*"
}

# shot_board NAME: a screenshot on which Kigo must draw exactly the stones of STONES.
shot_board() {
    shot "$1"
    local drawn
    drawn=$(board_image stones "$OUT/$1.png" $SIZE "$X0" "$Y0" "$STEP")
    [[ $drawn == "$STONES" ]] ||
        fail "$1.png shows [$(flat "$drawn")], tengen has [$(flat "$STONES")]"
    drawn_checks=$((drawn_checks + 1))
}

# white_answered: tengen's last move is on the board Kigo read back after it.
white_answered() {
    [[ $LASTGEN == PASS || $LASTGEN == resign ]] || has_stone white "$LASTGEN" ||
        fail "tengen's $LASTGEN is not on the board Kigo read back [$(flat "$STONES")]"
}

# play_black: Black clicks a legal random move, then tengen answers; returns 1 if Black has none.
# A random move can be a stone White takes at once: then it is gone from the board Kigo reads
# back, and White's captures (which Kigo asks after each move) have grown.
play_black() {
    local v plays taken now
    v=$(gtp_log ask "$GTP_LOG" "$TENGEN --seed $((SEED + turns))" 'genmove black')
    [[ $v == pass ]] && return 1
    taken=$(gtp_log last "$GTP_LOG" 'captures white')
    plays=$(sent 'play black [A-Z][0-9]+')
    for _ in 1 2; do                        # a click lost (say, on a popup message) is repeated
        xdotool mousemove $(intersection "$v") sleep 0.1 click 1
        for _ in $(seq 30); do
            (($(sent 'play black [A-Z][0-9]+') > plays)) && break 2
            sleep 0.1
        done
    done
    turns=$((turns + 1))
    kigo_wait genmove "$turns" 30
    grep -q "gtp\] < play black $v\$" "$GTP_LOG" ||
        fail "clicked $v, Kigo sent $(grep 'gtp\] < play' "$GTP_LOG" | tail -1)"
    now=$(gtp_log last "$GTP_LOG" 'captures white')
    has_stone black "$v" || ((${now:-0} > ${taken:-0})) ||
        fail "Black $v is not on tengen's board [$(flat "$STONES")], and White took nothing"
    white_answered
    stones=$((stones + 1))
    LASTBLACK=$v
}

# --- Kigo with a stock configuration apart from the engine command ---------------------------
mkdir -p "$HOME_DIR/.config" "$HOME_DIR/.local/share" "$HOME_DIR/.cache"
mkdir -p -m 700 "$HOME_DIR/runtime"
ENGINE=$(tengen_command --gui kigo --threads 1 --time-per-move 1)
printf '[Backend]\nEngineCommand=%s\n' "$ENGINE" >"$HOME_DIR/.config/kigorc"
env -u DBUS_SESSION_BUS_ADDRESS -u SESSION_MANAGER HOME="$HOME_DIR" \
    XDG_CONFIG_HOME="$HOME_DIR/.config" XDG_DATA_HOME="$HOME_DIR/.local/share" \
    XDG_CACHE_HOME="$HOME_DIR/.cache" XDG_RUNTIME_DIR="$HOME_DIR/runtime" \
    LANG=C.UTF-8 LC_ALL=C.UTF-8 LANGUAGE=en QT_QPA_PLATFORM=xcb \
    dbus-run-session -- kigo >"$OUT/kigo.log" 2>&1 &
GUI_PID=$!
for _ in $(seq 50); do   # Kigo itself, so that the cleanup ends it (and so its bus) first
    pid=$(pgrep -P "$GUI_PID" -x kigo || true)
    [[ -n $pid ]] && { GUI_PID=$pid; break; }
    sleep 0.1
done

WIN=$(wait_for_window '^kigo$' 40)        # its title is only in _NET_WM_NAME: found by class
wait_for_log 'gtp\] < fixed_handicap' 30   # the setup screen has set up its default game
sleep 1
shot 01-setup

# --- the setup screen: no handicap (stock is 4 stones), 9x9, human Black, computer White -----
# Alt+T picks "Tiny (9x9)", Tab goes on to the Handicap spin box, Page Down takes it to its
# minimum, "No handicap" (Kigo sends clear_board and fixed_handicap 0, which tengen, like GNU Go,
# refuses, so Black stays first on an empty board).
keys_until 'gtp\] < fixed_handicap 0$' "alt+t Tab Page_Down" "alt+d Page_Down" "alt+d Page_Down"
sleep 0.5
grep -q 'gtp\] < boardsize 9$' "$GTP_LOG" || fail "Kigo did not set up a 9x9 board"
keys_until 'gtp\] < komi ' alt+e alt+e alt+e # Alt+E: the "Start Game" button of the setup screen
grep -q 'gtp\] < komi 4.5$' "$GTP_LOG" ||
    fail "Kigo did not keep its stock komi 4.5: $(grep 'gtp\] < komi' "$GTP_LOG")"
kigo_wait list_stones 2 10
[[ $STONES == $'black:\nwhite:' ]] || fail "board not empty at the start: [$(flat "$STONES")]"
sleep 1
shot 02-started
read -r X0 Y0 STEP < <(board_image grid "$OUT/02-started.png" $SIZE) ||
    fail "board grid not found in 02-started.png"
read -r RX RY < <(intersection J1)          # the board's bottom-right point
S=${STEP%.*}
MESSAGES=$((RX + S))x$((2 * S))+0+$((RY + S / 2)) # the strip under the board: Kigo's messages
say "board grid at $X0,$Y0 step $STEP, seed $SEED"

# --- the game -------------------------------------------------------------------------------
stones=0 turns=0 undone=0 drawn_checks=0 HINT=
while ((stones < MOVES)); do
    if ((stones == UNDO_AT && !undone)); then
        before=$STONES
        play_black || break
        if [[ $LASTGEN == PASS || $LASTGEN == resign ]]; then
            UNDO_AT=$((UNDO_AT + 1))        # Kigo cannot undo a computer pass; try later
            continue
        fi
        shot_board 03-before-undo
        undos=$(sent undo)
        key ctrl+z
        kigo_wait undo $((undos + 2)) 15
        (($(sent undo) == undos + 2)) || fail "Kigo sent $(($(sent undo) - undos)) undo, expected 2"
        [[ $STONES == "$before" ]] ||
            fail "after undo tengen has [$(flat "$STONES")], expected [$(flat "$before")]"
        undone=1 stones=$((stones - 1))
        sleep 0.5
        shot_board 04-after-undo
        say "undo: $LASTBLACK and White's $LASTGEN taken back, boards agree"
        continue
    fi
    play_black || break
    [[ $LASTGEN == resign ]] && break
    if ((undone)) && [[ -z $HINT ]]; then   # Hint (H) asks tengen for top_moves_black
        key h
        kigo_wait top_moves_black 1 30
        HINT=$(gtp_log last "$GTP_LOG" top_moves_black)
        [[ $HINT =~ ^[A-HJ-T][0-9]+\ [0-9.]+(\ [A-HJ-T][0-9]+\ [0-9.]+){0,9}$ ]] ||
            fail "top_moves_black answered '$HINT'"
        sleep 0.5
        shot 05-hint
    fi
done
((undone)) || fail "the game ended before the undo check"
[[ -n $HINT ]] || fail "the game ended before the hint"
shot_board 06-before-passing

# Black passes (Move > Pass Move, key P) until tengen passes too, or resigns.
passes=0
while [[ $LASTGEN != PASS && $LASTGEN != resign ]]; do
    ((passes < 30)) || fail "tengen did not pass after 30 passes by Black"
    key p
    turns=$((turns + 1)) passes=$((passes + 1))
    kigo_wait genmove "$turns" 30
    white_answered
done
ENDED=$([[ $LASTGEN == PASS ]] && echo passes || echo resign)
sleep 0.5
shot_board 07-game-over
[[ $ENDED == resign ]] || key f             # Finish Game (after a resignation Kigo finishes itself)
wait_for_log 'gtp\] < estimate_score' 10
kigo_wait estimate_score 1 30
SCORE=$(gtp_log last "$GTP_LOG" estimate_score)
[[ $SCORE =~ ^([BW])\+([0-9.]+)\ \(upper\ bound:\ -?[0-9.]+,\ lower:\ -?[0-9.]+\)$ ]] ||
    fail "estimate_score answered '$SCORE'"
WINNER=$([[ ${BASH_REMATCH[1]} == B ]] && echo Black || echo White) MARGIN=${BASH_REMATCH[2]}
for list in black_territory white_territory; do
    (($(sent "final_status_list $list") > 0)) || fail "Kigo did not ask final_status_list $list"
done
sleep 1
shot_board 08-finished
WON='\((Black|White)\) won with a score of [0-9]+(\.[0-9]+)?'
ANNOUNCED=$(wait_for_text "$WON" 10 08-finished "$MESSAGES")
[[ $ANNOUNCED == "($WINNER) won with a score of ${MARGIN%.0}" ]] ||
    fail "Kigo announces '$ANNOUNCED', tengen's estimate is $SCORE"

# --- the whole log --------------------------------------------------------------------------
failures=$(gtp_log failures "$GTP_LOG" | grep -Ev '^(level [0-9]+|fixed_handicap 0) => ' || true)
[[ -z $failures ]] || fail "tengen refused: $failures"
[[ $(gtp_log pending "$GTP_LOG") == 0 ]] || fail "a command went unanswered"
plays=$(sent 'play black [A-Z][0-9]+')
((plays >= MOVES)) || fail "only $plays Black stones accepted"
white=$(gtp_log exchanges "$GTP_LOG" | grep -Ec '^genmove white => = [A-HJ-T][0-9]+$' || true)
((white > 0)) || fail "tengen played no stone"
kill -0 "$GUI_PID" 2>/dev/null || fail "Kigo is gone"
tolerated=$(gtp_log failures "$GTP_LOG" level fixed_handicap | sort | uniq -c |
    sed -E 's/^ *([0-9]+) (.*)/\2 x\1/' | paste -sd, -)
say "note: tolerated '?' answers: $tolerated"
say "PASS: 9x9 game to the end ($ENDED): $plays Black stones and $(sent 'play black pass')" \
    "pass(es) clicked, $white White stones from $(sent 'genmove white') genmoves, 1 undo," \
    "hint ${HINT%% *}," \
    "estimate_score ${SCORE%% *} announced as '$ANNOUNCED'; board drawn as tengen has it in" \
    "$drawn_checks screenshots; $SECONDS s (screenshots in $OUT)"
