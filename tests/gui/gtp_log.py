#!/usr/bin/env python3
"""Reads tengen's GTP log (`--log-file F --log-level debug`) for the real-GUI tests.

  gtp_log.py exchanges LOG
      every command with its answer, one per line: "COMMAND => ANSWER" (first answer line).
  gtp_log.py failures LOG [NAME...]
      the exchanges answered with '?', only for the named commands if any are given.
  gtp_log.py pending LOG
      how many commands have no answer yet.
  gtp_log.py board LOG TENGEN
      replays the game the GUI set up (boardsize, komi, clear_board, play, undo, handicap,
      genmove answers as plays) in a fresh tengen and prints its stones as
      "black: C3 D4" / "white: E5".
  gtp_log.py sgf-board FILE TENGEN
      the stones of a game record a GUI saved, as tengen loads it, in the same format.

Commands and answers are paired in order, as GTP answers them; streamed analysis lines and
blank lines belong to no exchange.
"""
import re
import subprocess
import sys

ENTRY = re.compile(r"^\[[^\]]*\bgtp\] ([<>]) ?(.*)$")
SETUP = ("boardsize", "clear_board", "komi", "play", "undo", "fixed_handicap",
         "set_free_handicap", "place_free_handicap", "loadsgf")
GENMOVES = ("genmove", "kgs-genmove_cleanup", "lz-genmove_analyze", "kata-genmove_analyze")


def entries(path):
    """(direction, text) per log entry; an answer's further lines are joined to it."""
    found = []
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            m = ENTRY.match(line)
            if m:
                found.append([m.group(1), m.group(2)])
            elif found and found[-1][0] == ">" and not line.startswith("["):
                found[-1][1] += "\n" + line
    return found


def strip_id(text):
    words = text.split()
    if words and words[0].isdigit():
        words = words[1:]
    return words


def exchanges(path, unanswered=None):
    """(command words, answer text) pairs in order; `unanswered`, a list, gets the commands
    still waiting."""
    commands, answers = [], []
    for direction, text in entries(path):
        if direction == "<":
            text = text.split("#")[0].strip()
            if text:
                commands.append(strip_id(text))
        elif text.startswith(("=", "?")):
            answers.append(re.sub(r"^([=?])\d*", r"\1", text))
    if unanswered is not None:
        unanswered.extend(commands[len(answers):])
    return list(zip(commands, answers))


def replay_script(path):
    """The GTP commands that rebuild the GUI's game in another engine."""
    script = []
    for words, answer in exchanges(path):
        if not words or not answer.startswith("="):
            continue
        name = words[0]
        if name in SETUP:
            script.append(" ".join(words))
        elif name in GENMOVES:
            played = answer[1:].split("\n")[-1].split()
            # genmove_analyze answers end with "play <move>"; genmove with the move.
            move = played[-1] if played else ""
            if move and move.lower() != "resign":
                script.append(f"play {words[1]} {move}")
    return script


def stones_after(script, tengen):
    """Black's and White's stones after a fresh tengen runs `script`."""
    script = script + ["list_stones black", "list_stones white", "quit"]
    out = subprocess.run([tengen, "--player", "random"], input="\n".join(script) + "\n",
                         capture_output=True, text=True, check=True).stdout
    answers = [a for a in out.split("\n\n") if a]
    failed = [(c, a) for c, a in zip(script, answers) if a.startswith("?")]
    if failed:
        sys.exit(f"the replay failed: {failed}")
    black, white = answers[-3][1:].split(), answers[-2][1:].split()
    return black, white


def main():
    command, path = sys.argv[1], sys.argv[2]
    if command == "exchanges":
        for words, answer in exchanges(path):
            print(f"{' '.join(words)} => {answer.splitlines()[0] if answer else ''}")
    elif command == "failures":
        names = sys.argv[3:]
        for words, answer in exchanges(path):
            if answer.startswith("?") and (not names or words[0] in names):
                print(f"{' '.join(words)} => {answer}")
    elif command == "pending":
        waiting = []
        exchanges(path, waiting)
        print(len(waiting))
    elif command in ("board", "sgf-board"):
        script = replay_script(path) if command == "board" else [f"loadsgf {path}"]
        black, white = stones_after(script, sys.argv[3])
        print(f"black: {' '.join(sorted(black))}")
        print(f"white: {' '.join(sorted(white))}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
