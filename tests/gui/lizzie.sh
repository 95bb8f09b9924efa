#!/usr/bin/env bash
# Lizzie 0.7.4 (Debian's liblizzie-java) against tengen, for real: under Xvfb, driven with
# xdotool, checked on tengen's own GTP log and on screenshots. Lizzie's configuration is its
# stock one apart from the engine command (the README's) and a 9x9 board.
#
#   bash tests/gui/lizzie.sh        # about 2 minutes; screenshots in target/gui-tests/lizzie/
#
# It checks that Lizzie passes its version check and shows tengen's live analysis, then plays
# a whole game: Black by clicks on the board, White by tengen (Enter), one undo in the middle,
# Black passing at the end until tengen passes too. Every play, undo and genmove must be
# accepted, and at the end the stones Lizzie draws must be the stones of tengen's game.
GUI=lizzie
source "$(dirname "$0")/common.sh"
HERE=$(dirname "$0")
SIZE=9
START=$SECONDS

prepare liblizzie-java
mkdir -p "$HOME_DIR/.config/leela-zero"
cat >"$HOME_DIR/.config/leela-zero/lizzie-config.txt" <<JSON
{"leelaz": {"engine-command": "$(tengen_command --gui lizzie --threads 1)"},
 "ui": {"board-size": $SIZE}}
JSON
start_display
JAVA_TOOL_OPTIONS="-Duser.home=$HOME_DIR" /usr/games/lizzie >"$OUT/lizzie.log" 2>&1 &
GUI_PID=$!

wait_for_window '^Lizzie' 90 >/dev/null
wait_for_log 'gtp\] < [0-9]+ version' 60
wait_for_log 'gtp\] > =[0-9]+ 0\.17' 10
wait_for_log 'gtp\] < [0-9]+ lz-analyze' 30
wait_for_log 'gtp\] > info move [A-HJ-T][0-9]+ visits [0-9]+ winrate [0-9]+ ' 30
sleep 3
shot analysis
say "the version check passed and the analysis arrived"
read -r X0 Y0 STEP < <(python3 "$HERE/board_image.py" grid "$OUT/analysis.png" $SIZE) \
    || fail "no board found on the screen (see $OUT/analysis.png)"

# click VERTEX: a click on that intersection.
click() { xdotool mousemove $(intersection "$1") click 1; }

# answered SEEN NAME: waits for the next command NAME after the SEEN before it, and its
# answer; prints the answer without its id (`= D4`, `=`, `? illegal move`).
answered() {
    local seen=$1 name=$2 line id
    for _ in $(seq 150); do
        line=$(grep -E "gtp\] < [0-9]+ $name" "$GTP_LOG" | sed -n "$((seen + 1))p")
        if [[ -n $line ]]; then
            id=$(sed -E 's/.*gtp\] < ([0-9]+) .*/\1/' <<<"$line")
            for _ in $(seq 300); do
                grep -Eq "gtp\] > [=?]$id( |$)" "$GTP_LOG" && {
                    grep -E "gtp\] > [=?]$id( |$)" "$GTP_LOG" | sed -E 's/.*gtp\] > ([=?])[0-9]*/\1/'
                    return 0
                }
                sleep 0.1
            done
            fail "$name (id $id) got no answer"
        fi
        sleep 0.1
    done
    fail "Lizzie sent no $name"
}

# occupied: the points tengen's game has stones on.
occupied() { python3 "$HERE/gtp_log.py" board "$GTP_LOG" "$TENGEN" | cut -d: -f2; }

# black_plays: Black clicks the first free point of a fixed list that Lizzie accepts.
black_plays() {
    local taken v before
    taken=" $(occupied | tr '\n' ' ') "
    for v in C3 G7 C7 G3 E3 E7 C5 G5 D4 F6 D6 F4 B2 H8 B8 H2; do
        [[ $taken == *" $v "* ]] && continue
        before=$(count_log "gtp\] < [0-9]+ play B $v$")
        click "$v"
        for _ in $(seq 30); do
            if (($(count_log "gtp\] < [0-9]+ play B $v$") > before)); then
                BLACK_MOVES=$((BLACK_MOVES + 1))
                return 0
            fi
            sleep 0.1
        done
    done
    fail "Lizzie took none of Black's clicks"
}

# white_reply SEEN: waits for tengen's answer to Lizzie's genmove W after the SEEN before it;
# prints the move. Once Enter has started a game against the engine, Lizzie asks for the
# engine's reply by itself after every move of Black.
white_reply() {
    local move
    move=$(answered "$1" "genmove W")
    [[ $move == =* ]] || fail "genmove W answered $move"
    WHITE_MOVES=$((WHITE_MOVES + 1))
    echo "${move#= }"
}

genmoves() { count_log 'gtp\] < [0-9]+ genmove W'; }

BLACK_MOVES=0
WHITE_MOVES=0
# Black's first move, then Enter: tengen plays White from now on.
black_plays
seen=$(genmoves)
xdotool key Return
white_reply "$seen" >/dev/null
for _ in 1 2; do
    seen=$(genmoves)
    black_plays
    white_reply "$seen" >/dev/null
done
shot middle
# Undo White's last move from Lizzie (the Up key); Enter lets tengen play again.
seen=$(count_log 'gtp\] < [0-9]+ undo')
xdotool key Up
[[ $(answered "$seen" undo) == "=" ]] || fail "tengen refused Lizzie's undo"
seen=$(genmoves)
xdotool key Return
white_reply "$seen" >/dev/null
for _ in 1 2 3; do
    seen=$(genmoves)
    black_plays
    white_reply "$seen" >/dev/null
done
# Black passes until tengen passes too: the game is over.
ended=
for _ in $(seq 40); do
    seen=$(genmoves)
    passes=$(count_log 'gtp\] < [0-9]+ play B pass')
    xdotool key p
    answered "$passes" "play B pass" >/dev/null
    move=$(white_reply "$seen")
    if [[ ${move,,} == pass || $move == resign ]]; then
        ended=$move
        break
    fi
done
[[ -n $ended ]] || fail "tengen did not pass or resign after 40 passes of Black"
# Lizzie answers the engine's pass by sending it again and asking the engine to play Black
# (its own quirk, with Leela Zero too): wait until every command has its answer.
settle
shot end

failures=$(python3 "$HERE/gtp_log.py" failures "$GTP_LOG" play undo genmove boardsize komi clear_board)
[[ -z $failures ]] || fail "tengen refused: $failures"
# Lizzie saves its game (the Save button, then the file dialog); tengen replays the file.
read -r WX WY < <(xdotool search --onlyvisible --name '^Lizzie' getwindowgeometry | \
    sed -nE 's/.*Position: ([0-9]+),([0-9]+).*/\1 \2/p' | head -1)
xdotool mousemove $((WX + 98)) $((WY + 583)) click 1
sleep 2
xdotool type --delay 20 "$OUT/lizzie-game.sgf"
xdotool key Return
for _ in $(seq 50); do
    [[ -s $OUT/lizzie-game.sgf ]] && break
    sleep 0.2
done
[[ -s $OUT/lizzie-game.sgf ]] || fail "Lizzie did not save its game"
drawn=$(python3 "$HERE/gtp_log.py" sgf-board "$OUT/lizzie-game.sgf" "$TENGEN")
engine=$(python3 "$HERE/gtp_log.py" board "$GTP_LOG" "$TENGEN")
[[ $drawn == "$engine" ]] || fail "Lizzie's game has [$drawn], tengen's has [$engine]"
say "PASS: analysis shown, $BLACK_MOVES Black clicks, $WHITE_MOVES tengen moves, one undo," \
    "game ended by $ended; Lizzie's board equals tengen's; $((SECONDS - START)) s"
