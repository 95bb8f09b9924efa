#!/usr/bin/env bash
# qGo 2.1 (Debian's qgo) against tengen, for real: under Xvfb, driven with xdotool, checked on
# tengen's own GTP log and on screenshots. qGo's configuration is its stock one apart from the
# engine entry (the README's); the game is set up in qGo's own "New game" dialog.
#
#   bash tests/gui/qgo.sh        # about 40 s; screenshots in target/gui-tests/qgo/
#
# It plays a whole 9x9 game, Black by clicks on the board and White by tengen: qGo asks
# tengen's moves with `genmove` and no id, and takes only answers with id 1000 (`--gui qgo`).
# In the middle Black takes back a move pair with qGo's Undo twice (`undo 0` each); qGo then
# replays the game with clear_board and plays, which must be tengen's own game. At the end
# Black passes until tengen passes too and qGo shows its score. Every command must be accepted,
# each of tengen's moves must appear on qGo's board, and after the undo and at the end the
# stones qGo draws, and at the end the game record qGo saves, must be the stones of tengen's game.
# No window manager is needed: qGo's windows open at the top left of the screen.
#
# qGo draws its local games upside down: its row labels run 9..1 from the top, but it sends the
# top row as GTP row 1 and puts an engine's row 1 at the top. Both sides stay in agreement (the
# board is only mirrored), so this test clicks and reads the screen in qGo's own orientation.
GUI=qgo
source "$(dirname "$0")/common.sh"
HERE=$(dirname "$0")
SIZE=9
START=$SECONDS
COLUMNS=ABCDEFGHJKLMNOPQRST
trap 'say "FAIL: unexpected error at line $LINENO ($BASH_COMMAND)"' ERR

prepare qgo
# The engine entry, as a user adds it in Preferences > Computer engine: qGo splits the
# arguments on spaces and runs the first engine of the list, whichever is ticked "Default".
read -r ENGINE_PATH ENGINE_ARGS <<<"$(tengen_command --gui qgo --threads 1 --time-per-move 1)"
mkdir -p "$HOME_DIR/.config/qGo"
cat >"$HOME_DIR/.config/qGo/qGo.conf" <<CONF
[ENGINES]
1\\path=$ENGINE_PATH
1\\args=$ENGINE_ARGS
size=1
CONF
start_display
mkdir -m 700 "$OUT/runtime"
(cd "$OUT" && HOME=$HOME_DIR XDG_RUNTIME_DIR=$OUT/runtime exec /usr/games/qgo >"$OUT/qgo.log" 2>&1) &
GUI_PID=$!

MAIN=$(wait_for_window '^qGo 2' 60) || fail "qGo's main window did not open"
shot main
# File > New game (Ctrl+N; its toolbar button has no icon without an icon theme).
xdotool windowfocus --sync "$MAIN"
xdotool key ctrl+n
DIALOG=$(wait_for_window '^Dialog$' 15) || fail "Ctrl+N opened no New game dialog"
eval "$(xdotool getwindowgeometry --shell "$DIALOG" | grep -E '^[XY]=')"
# The dialog's White "Computer" box and its Size field (offsets in the dialog, 253x308).
xdotool mousemove $((X + 86)) $((Y + 113)) click 1
xdotool mousemove $((X + 154)) $((Y + 144)) click 1
xdotool key ctrl+a
xdotool type "$SIZE"
shot new-game
xdotool key Return

wait_for_log "gtp\] < boardsize $SIZE$" 30
wait_for_log 'gtp\] < komi ' 10
BOARD=$(wait_for_window ' - qGo$' 30) || fail "qGo opened no board window"
eval "$(xdotool getwindowgeometry --shell "$BOARD" | grep -E '^(X|Y|WIDTH|HEIGHT)=')"
BX=$X BY=$Y
# The Undo and Pass buttons and a clock are found at their place in this window's layout.
[[ $WIDTH == 981 && $HEIGHT == 878 ]] ||
    fail "the board window is ${WIDTH}x$HEIGHT, not the 981x878 its buttons were measured in"
UNDO="$((BX + 647)) $((BY + 626))"
PASS="$((BX + 647)) $((BY + 646))"
CLOCK="$((BX + 648)) $((BY + 137))"
# The board window comes up before qGo's last clear_board; wait for its answer.
for _ in $(seq 50); do
    if (($(count_log 'gtp\] > =') >= 5)); then break; fi
    sleep 0.2
done
(($(count_log 'gtp\] > =') >= 5)) || fail "qGo's game setup (protocol_version .. clear_board) went unanswered"
shot board
read -r X0 Y0 STEP < <(python3 "$HERE/board_image.py" grid "$OUT/board.png" $SIZE) ||
    fail "no board found on the screen (see $OUT/board.png)"
say "qGo started a ${SIZE}x$SIZE game against tengen (grid at $X0,$Y0 step $STEP)"

# pixel VERTEX DX DY: the screen coordinates of that intersection (GTP row 1 at the top, as
# qGo draws it), moved by DX, DY steps.
pixel() {
    local row=${1:1} c=${COLUMNS%%"${1:0:1}"*}
    python3 -c "print(round($X0 + (${#c} + $2) * $STEP), round($Y0 + ($row - 1 + $3) * $STEP))"
}

click() { xdotool mousemove $1 $2 click 1; }

# rgb X Y: the mean colour "R G B" (0-255) of a 5x5 patch of the screen there.
rgb() {
    import -window root -crop 5x5+$(($1 - 2))+$(($2 - 2)) +repage "$OUT/patch.png" 2>/dev/null
    convert "$OUT/patch.png" -format '%[fx:round(255*mean.r)] %[fx:round(255*mean.g)] %[fx:round(255*mean.b)]\n' info:
}

# stone VERTEX: black, white or empty (wood), from two patches off the centre (clear of qGo's
# last-move cross, the grid lines and the star points).
stone() {
    local r g b colours=()
    for d in 0.3 -0.3; do
        read -r r g b < <(rgb $(pixel "$1" $d $d))
        if ((r < 90 && g < 90 && b < 90)); then colours+=(black)
        elif ((r > 160 && g > 160 && b > 160)); then colours+=(white)
        else colours+=(empty); fi
    done
    [[ ${colours[0]} == "${colours[1]}" ]] && echo "${colours[0]}" || echo unclear
}

# wait_stone VERTEX COLOUR: waits until qGo shows that.
wait_stone() {
    for _ in $(seq 50); do
        if [[ $(stone "$1") == "$2" ]]; then return 0; fi
        sleep 0.2
    done
    fail "qGo does not show $2 at $1 (GTP vertex) after 10 s"
}

# game_moves: tengen's game as the GTP log tells it, one "colour vertex" a line.
game_moves() {
    python3 "$HERE/gtp_log.py" exchanges "$GTP_LOG" | awk -F' => ' '
        $2 !~ /^=/ { next }
        $1 == "clear_board" || $1 ~ /^boardsize / { n = 0; next }
        $1 ~ /^play / { split($1, w, " "); h[++n] = w[2] " " w[3]; next }
        $1 ~ /^genmove / { split($1, w, " "); m = $2; sub(/^= */, "", m)
                           if (m != "resign") h[++n] = w[2] " " m; next }
        $1 ~ /^undo/ { if (n > 0) n--; next }
        END { for (i = 1; i <= n; i++) print h[i] }'
}

# replayed: the plays qGo sent since its last clear_board.
replayed() {
    python3 "$HERE/gtp_log.py" exchanges "$GTP_LOG" |
        awk -F' => ' '$1 == "clear_board" { n = 0 } $1 ~ /^play / { h[++n] = substr($1, 6) }
                      END { for (i = 1; i <= n; i++) print h[i] }'
}

# upside_down: "black: C3 D4" / "white: E5" lines with every row mirrored (row r is SIZE+1-r),
# vertices sorted as gtp_log.py sorts them.
upside_down() {
    awk -v n=$SIZE '{ m = 0; for (i = 2; i <= NF; i++) v[++m] = substr($i, 1, 1) (n + 1 - substr($i, 2))
                      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                      printf "%s", $1; for (i = 1; i <= m; i++) printf " %s", v[i]; print "" }'
}

# engine_stones: the stones of tengen's game, replayed from its GTP log.
engine_stones() { python3 "$HERE/gtp_log.py" board "$GTP_LOG" "$TENGEN" | sed 's/ *$//'; }

# boards_agree SHOT: the stones qGo draws on the screenshot (read upside down, as qGo draws
# them) are the stones of tengen's game.
boards_agree() {
    local drawn engine
    drawn=$(python3 "$HERE/board_image.py" stones "$OUT/$1.png" $SIZE "$X0" "$Y0" "$STEP" | upside_down)
    engine=$(engine_stones)
    [[ $drawn == "$engine" ]] || fail "qGo shows [${drawn//$'\n'/, }] ($1.png), tengen's game is [${engine//$'\n'/, }]"
}

# white_answers: waits for tengen's answer to qGo's next genmove; sets WHITE.
GENMOVES=0
white_answers() {
    local n=$((GENMOVES + 1)) line
    for _ in $(seq 150); do
        line=$(grep -E 'gtp\] > =1000 ' "$GTP_LOG" | sed -n "${n}p" || true)
        if [[ -n $line ]]; then
            (($(count_log 'gtp\] < genmove white$') == n)) || fail "qGo's genmoves and answers disagree"
            WHITE=${line##*=1000 }
            GENMOVES=$n
            return 0
        fi
        [[ -z $(gtp_failures) ]] || fail "tengen refused: $(gtp_failures)"
        sleep 0.2
    done
    fail "no answer with id 1000 to qGo's genmove number $n"
}

# white_plays: tengen's answer, and qGo putting it on its board.
WHITE_MOVES=0
white_plays() {
    white_answers
    WHITE_MOVES=$((WHITE_MOVES + 1))
    case ${WHITE,,} in
        pass | resign) ;;
        *) wait_stone "$WHITE" white ;;
    esac
}

# black_plays: Black clicks the first point of a fixed list that is free in tengen's game (and
# is not AVOID) and that qGo takes; qGo must then send the play and ask tengen's answer.
BLACK_MOVES=0
black_plays() {
    local taken v before asked
    taken=" $(python3 "$HERE/gtp_log.py" board "$GTP_LOG" "$TENGEN" | cut -d: -f2 | tr '\n' ' ') "
    asked=$(count_log 'gtp\] < genmove white$')
    for v in E5 C3 G7 C7 G3 E3 E7 C5 G5 D4 F6 D6 F4 B2 H8 B8 H2 D2 F8 B5 H5; do
        [[ $taken == *" $v "* || $v == "${AVOID:-}" ]] && continue
        before=$(count_log "gtp\] < play black $v$")
        click $(pixel "$v" 0 0)
        for _ in $(seq 15); do
            if (($(count_log "gtp\] < play black $v$") > before)); then
                BLACK_MOVES=$((BLACK_MOVES + 1))
                BLACK=$v
                wait_stone "$v" black
                for _ in $(seq 50); do
                    if (($(count_log 'gtp\] < genmove white$') > asked)); then return 0; fi
                    sleep 0.2
                done
                fail "qGo did not ask tengen's move after Black's $v"
            fi
            sleep 0.2
        done
    done
    fail "qGo took none of Black's clicks"
}

# undo: qGo's Undo button; tengen must accept the `undo 0` it sends.
undo() {
    local before
    before=$(count_log 'gtp\] < undo')
    click $UNDO
    for _ in $(seq 50); do
        if (($(count_log 'gtp\] < undo') > before)); then break; fi
        sleep 0.2
    done
    (($(count_log 'gtp\] < undo') > before)) || fail "qGo's Undo sent no undo"
    [[ -z $(gtp_failures) ]] || fail "tengen refused: $(gtp_failures)"
}

for _ in 1 2 3 4; do
    black_plays
    white_plays
done
shot before-undo
# Take back the last pair: White's move, then Black's.
LAST_BLACK=$BLACK LAST_WHITE=$WHITE
undo
[[ ${LAST_WHITE,,} == pass ]] || wait_stone "$LAST_WHITE" empty
undo
wait_stone "$LAST_BLACK" empty
shot after-undo
KEPT=$(game_moves)
(($(wc -l <<<"$KEPT") == 2 * BLACK_MOVES - 2)) || fail "tengen's game after two undos is [$KEPT]"
boards_agree after-undo
# Black plays elsewhere: qGo replays its game (clear_board, plays) and asks tengen's answer.
CLEARS=$(count_log 'gtp\] < clear_board')
AVOID=$LAST_BLACK black_plays
(($(count_log 'gtp\] < clear_board') > CLEARS)) || fail "qGo did not replay its game after the undo"
REPLAY=$(replayed)
[[ $REPLAY == "$KEPT"$'\n'"black $BLACK" ]] ||
    fail "qGo replayed [$(tr '\n' ',' <<<"$REPLAY")], tengen had [$(tr '\n' ',' <<<"$KEPT")] + black $BLACK"
white_plays
say "the undo kept both boards together: qGo replayed tengen's $(wc -l <<<"$KEPT") moves"
for _ in 1 2 3 4 5 6 7 8; do
    black_plays
    white_plays
    if [[ ${WHITE,,} == resign ]]; then break; fi
done
shot middle

# Black passes until tengen passes too (or resigns): qGo enters its score mode.
ENDED=
[[ ${WHITE,,} == resign ]] && ENDED=resign
for _ in $(seq 40); do
    if [[ -n $ENDED ]]; then break; fi
    before=$(count_log 'gtp\] < play black pass$')
    click $PASS
    for _ in $(seq 50); do
        if (($(count_log 'gtp\] < play black pass$') > before)); then break; fi
        sleep 0.2
    done
    (($(count_log 'gtp\] < play black pass$') > before)) || fail "qGo's Pass sent no pass"
    white_plays
    if [[ ${WHITE,,} == pass || ${WHITE,,} == resign ]]; then ENDED=${WHITE,,}; fi
done
[[ -n $ENDED ]] || fail "tengen did not pass or resign after 40 passes of Black"
# In score mode qGo replaces the clocks (black boxes) with its score panel.
for _ in $(seq 50); do
    read -r r g b < <(rgb $CLOCK)
    if ((r > 150 && g > 150 && b > 150)); then break; fi
    sleep 0.2
done
((r > 150 && g > 150 && b > 150)) || fail "qGo shows no score after the game's end"
shot end

failures=$(gtp_failures)
[[ -z $failures ]] || fail "tengen refused: $failures"
asked=$(count_log 'gtp\] < genmove')
[[ $asked == "$GENMOVES" && $asked == "$(count_log 'gtp\] > =1000 ')" ]] ||
    fail "$asked genmoves, $GENMOVES answered with id 1000"
# No dialog (qGo's warnings, "Invalid Move") besides the main and board windows.
others=$(for w in $(xdotool search --onlyvisible --name '' 2>/dev/null); do
    [[ $w == "$MAIN" || $w == "$BOARD" ]] && continue
    eval "$(xdotool getwindowgeometry --shell "$w" | grep -E '^(WIDTH|HEIGHT)=')"
    if ((WIDTH > 3 && HEIGHT > 3)); then xdotool getwindowname "$w"; fi
done)
[[ -z $others ]] || fail "qGo shows other windows: $others"
# Each tengen move was on qGo's board: qGo's next command is Black's move (or an undo).
unplaced=$(python3 "$HERE/gtp_log.py" exchanges "$GTP_LOG" |
    awk '/^genmove/ { g = $0; next } g && !/^(play black|undo)/ { print g " then " $0 } { g = "" }')
[[ -z $unplaced ]] || fail "after tengen's move qGo went on with: $unplaced"
boards_agree end
# qGo's game record (File > Save, Ctrl+S in the board window) holds tengen's game too, upside down.
xdotool windowfocus --sync "$BOARD"
xdotool key ctrl+s
wait_for_window '^Save File$' 15 >/dev/null
xdotool type --delay 20 "$OUT/game.sgf"
xdotool key Return
for _ in $(seq 50); do
    if [[ -s $OUT/game.sgf ]]; then break; fi
    sleep 0.2
done
[[ -s $OUT/game.sgf ]] || fail "qGo saved no game record"
saved=$(python3 "$HERE/gtp_log.py" sgf-board "$OUT/game.sgf" "$TENGEN" | sed 's/ *$//' | upside_down)
engine=$(engine_stones)
[[ $saved == "$engine" ]] || fail "qGo saved [${saved//$'\n'/, }], tengen's game is [${engine//$'\n'/, }]"
rm -f "$OUT/patch.png"
say "PASS: $BLACK_MOVES Black clicks, $WHITE_MOVES tengen moves (genmove answered =1000)," \
    "two undos and qGo's replay agreed, game ended by $ENDED; qGo's board and saved record" \
    "are tengen's game (upside down); $((SECONDS - START)) s"
