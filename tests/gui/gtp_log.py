#!/usr/bin/env python3
"""Reads tengen's GTP log (`--log-file F --log-level debug`) for the real-GUI tests.

  gtp_log.py exchanges LOG
      every command with its answer, one per line: "COMMAND => ANSWER" (first answer line).
  gtp_log.py failures LOG [NAME...]
      the exchanges answered with '?', only for the named commands if any are given.
  gtp_log.py pending LOG
      how many commands have no answer yet.
  gtp_log.py last LOG COMMAND...
      for each COMMAND (its first words, e.g. "genmove" or "list_stones black"), the last
      '=' answer to it without the '=', one a line (an empty line if there is none).
  gtp_log.py stones LOG
      the stones the GUI last read back with list_stones, as "black: C3 D4" / "white: E5".
  gtp_log.py idle LOG SECONDS QUIET [COMMAND COUNT]
      waits until COMMAND has been answered COUNT times, every command has its answer and the
      log has not grown for QUIET seconds; exits 1 with what it saw after SECONDS.
  gtp_log.py board LOG TENGEN
      replays the game the GUI set up (boardsize, komi, clear_board, play, undo, handicap,
      genmove answers as plays) in a fresh tengen and prints its stones, as `stones` does.
  gtp_log.py ask LOG TENGEN COMMAND...
      replays the game the same way and prints the fresh tengen's answer to each COMMAND, one
      a line without the '='. It runs `--player random`, so `genmove black` is a legal random
      move that fills no eye of Black's own (or pass); TENGEN may carry flags ("tengen --seed 3").
  gtp_log.py sgf-board FILE TENGEN
      the stones of a game record a GUI saved, as tengen loads it, in the same format. At a
      fork it follows the last variation, the line the GUI played last (Lizzie keeps a move
      taken back as the first variation, which is the one loadsgf would follow).

Commands and answers are paired in order, as GTP answers them; streamed analysis lines and
blank lines belong to no exchange. A command after an unanswered `quit` goes to a new engine
(a GUI may test the engine in a session of its own, and close it before the answer).
"""
import collections
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

ENTRY = re.compile(r"^\[[^\]]*\bgtp\] ([<>]) ?(.*)$")
SETUP = ("boardsize", "clear_board", "komi", "play", "undo", "fixed_handicap",
         "set_free_handicap", "place_free_handicap", "loadsgf")
LIST_STONES = ["list_stones black", "list_stones white"]
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
    still waiting. A command after an unanswered `quit` comes to a new engine: what the old
    one left unanswered is over, with the answer '' (a GUI may close the pipe first)."""
    exchanged, waiting = [], collections.deque()    # [words, answer or None]; their indices
    for direction, text in entries(path):
        if direction == "<":
            text = text.split("#")[0].strip()
            if not text:
                continue
            if waiting and exchanged[waiting[-1]][0][:1] == ["quit"]:
                for i in waiting:
                    exchanged[i][1] = ""
                waiting.clear()
            exchanged.append([strip_id(text), None])
            waiting.append(len(exchanged) - 1)
        elif text.startswith(("=", "?")) and waiting:
            exchanged[waiting.popleft()][1] = re.sub(r"^([=?])\d*", r"\1", text)
    if unanswered is not None:
        unanswered.extend(exchanged[i][0] for i in waiting)
    return [(w, a) for w, a in exchanged if a is not None]


def is_command(words, command):
    """Whether a command's words start with those of `command` ("genmove", "list_stones black")."""
    wanted = command.split()
    return words[:len(wanted)] == wanted


def last_answers(path, commands):
    """The last '=' answer (without the '=') to each command, '' where there is none."""
    pairs = exchanges(path)
    found = []
    for command in commands:
        answers = [a for w, a in pairs if is_command(w, command) and a.startswith("=")]
        found.append(answers[-1][1:].strip() if answers else "")
    return found


def wait_idle(path, seconds, quiet, command=None, count=0):
    """True once `command` has `count` answers, nothing waits for an answer and the log has
    been unchanged for `quiet` seconds; False (and what it saw, on stderr) after `seconds`."""
    deadline = time.monotonic() + seconds
    size, since = -1, time.monotonic()
    while True:
        if os.path.getsize(path) != size:
            size, since = os.path.getsize(path), time.monotonic()
        waiting = []
        pairs = exchanges(path, waiting)
        done = sum(1 for w, _ in pairs if is_command(w, command)) if command else 0
        if not waiting and done >= count and time.monotonic() - since >= quiet:
            return True
        if time.monotonic() > deadline:
            sys.stderr.write(f"after {seconds} s: {done} of {count} answers to {command}; "
                             f"waiting: {waiting}; last: {pairs[-3:]}\n")
            return False
        time.sleep(0.1)


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


def ask(script, tengen, questions):
    """A fresh tengen's answers (without the '=') to `questions` after it runs `script`."""
    script = script + questions + ["quit"]
    out = subprocess.run(shlex.split(tengen) + ["--player", "random"],
                         input="\n".join(script) + "\n", capture_output=True, text=True,
                         check=True).stdout
    answers = [a for a in out.split("\n\n") if a]
    failed = [(c, a) for c, a in zip(script, answers) if a.startswith("?")]
    if failed:
        sys.exit(f"the replay failed: {failed}")
    return [a[1:].strip() for a in answers[-1 - len(questions):-1]]


def sgf_tree(text, i):
    """The SGF game tree that opens at text[i] ('('): (its nodes' text, its variations) and
    where it ends."""
    i, nodes, variations = i + 1, "", []
    while text[i] != ")":
        if text[i] == "(":
            variation, i = sgf_tree(text, i)
            variations.append(variation)
        elif text[i] == "[":                  # a property value, where brackets may be escaped
            end = i + 1
            while text[end] != "]":
                end += 2 if text[end] == "\\" else 1
            nodes, i = nodes + text[i:end + 1], end + 1
        else:
            nodes, i = nodes + text[i], i + 1
    return (nodes, variations), i + 1


def last_line(tree):
    """The nodes of a game tree along the last variation at every fork."""
    nodes, variations = tree
    return nodes + (last_line(variations[-1]) if variations else "")


def print_stones(black, white):
    for color, vertices in (("black", black), ("white", white)):
        print(" ".join([f"{color}:"] + sorted(vertices.split())))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
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
    elif command == "last":
        print("\n".join(last_answers(path, sys.argv[3:])))
    elif command == "stones":
        print_stones(*last_answers(path, LIST_STONES))
    elif command == "idle":
        seconds, quiet = float(sys.argv[3]), float(sys.argv[4])
        command, count = (sys.argv[5], int(sys.argv[6])) if len(sys.argv) > 5 else (None, 0)
        sys.exit(0 if wait_idle(path, seconds, quiet, command, count) else 1)
    elif command == "board":
        print_stones(*ask(replay_script(path), sys.argv[3], LIST_STONES))
    elif command == "sgf-board":
        with open(path, encoding="utf-8", errors="replace") as sgf:
            text = sgf.read()
        with tempfile.NamedTemporaryFile("w", suffix=".sgf") as line:
            line.write("(" + last_line(sgf_tree(text, text.index("("))[0]) + ")")
            line.flush()
            print_stones(*ask([f"loadsgf {line.name}"], sys.argv[3], LIST_STONES))
    elif command == "ask":
        print("\n".join(ask(replay_script(path), sys.argv[3], sys.argv[4:])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
