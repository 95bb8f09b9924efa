//! End-to-end tests of `tengen match` and `tengen tournament`: scripted fake engines that
//! misbehave in every way the referee must catch, real `tengen --player random` games, resuming,
//! shards and merging, a small tournament, and (ignored by default) games against GNU Go.

use engine_core::{Game, Rules};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FAKE_ENGINE: &str = r#"#!/bin/bash
# A scripted GTP engine: $1 says how it answers genmove.
mode="$1"
IFS=, read -ra moves <<< "$2"
i=0
while IFS= read -r line; do
  # The controller numbers its commands; answers echo the number.
  id="${line%% *}"
  if [[ "$id" =~ ^[0-9]+$ ]]; then line="${line#* }"; else id=""; fi
  cmd="${line%% *}"
  case "$cmd" in
    name) printf '=%s fake-%s\n\n' "$id" "$mode" ;;
    clear_board)
      # crash-third counts its games in a file beside the script.
      if [ "$mode" = crash-third ]; then
        games=$(( $(cat "$0.games" 2>/dev/null || echo 0) + 1 )); echo "$games" > "$0.games"
      fi
      printf '=%s\n\n' "$id" ;;
    version) printf '=%s 1\n\n' "$id" ;;
    list_commands) printf '=%s name\nversion\nplay\ngenmove\nquit\n\n' "$id" ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    final_status_list) printf '=%s %s\n\n' "$id" "$3" ;;
    genmove)
      case "$mode" in
        pass) printf '=%s pass\n\n' "$id" ;;
        illegal) printf '=%s A1\n\n' "$id" ;;
        crash) echo "fake: segmentation fault" >&2; exit 139 ;;
        silent) ;;
        garbage) printf '=%s banana\n\n' "$id" ;;
        nonsense) printf 'I am not speaking GTP\n\n' ;;
        chatty) printf '=%s C3\n\n=%s C3\n\n' "$id" "$id" ;;
        resign) printf '=%s resign\n\n' "$id" ;;
        slow) sleep 2; printf '=%s pass\n\n' "$id" ;;
        sleepy) sleep 0.4; printf '=%s pass\n\n' "$id" ;;
        crash-third)
          if [ "$games" -ge 3 ]; then exit 139; fi
          printf '=%s pass\n\n' "$id" ;;
        seq)
          if [ "$i" -lt "${#moves[@]}" ]; then
            printf '=%s %s\n\n' "$id" "${moves[$i]}"; i=$((i + 1))
          else
            printf '=%s pass\n\n' "$id"
          fi ;;
      esac ;;
    *) printf '=%s\n\n' "$id" ;;
  esac
done
"#;

fn tengen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
}

struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    fn new() -> Dir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("fake.sh"), FAKE_ENGINE).unwrap();
        Dir { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn fake(&self, mode: &str) -> String {
        format!("bash {} {mode}", self.path().join("fake.sh").display())
    }

    fn run(&self, args: &[&str]) -> Output {
        let out = tengen()
            .args(args)
            .current_dir(self.path())
            .output()
            .unwrap();
        eprintln!(
            "tengen {args:?}\nstdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}

fn random_tengen(seed: u32) -> String {
    format!(
        "{} gtp --player random --seed {seed}",
        env!("CARGO_BIN_EXE_tengen")
    )
}

/// The game lines of a journal.
fn journal_games(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| v.get("game").cloned())
        .collect()
}

/// `tengen match` with `black` and `white`, then `options`.
fn match_args<'a>(black: &'a str, white: &'a str, options: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["match", "--black", black, "--white", white];
    args.extend_from_slice(options);
    args
}

/// Plays one game of `black` against `white` and returns its journal record.
fn one_game(dir: &Dir, black: &str, white: &str, extra: &[&str]) -> Value {
    let mut args = match_args(
        black,
        white,
        &[
            "--games",
            "1",
            "--size",
            "5",
            "--komi",
            "0.5",
            "--journal",
            "j.jsonl",
        ],
    );
    args.extend_from_slice(extra);
    if !extra.contains(&"--scoring") {
        args.extend(["--scoring", "tromp-taylor"]);
    }
    let out = dir.run(&args);
    assert!(out.status.success(), "tengen match failed");
    let games = journal_games(&dir.path().join("j.jsonl"));
    assert_eq!(games.len(), 1);
    std::fs::remove_file(dir.path().join("j.jsonl")).unwrap();
    games[0].clone()
}

fn field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

#[test]
fn every_engine_failure_forfeits_with_its_reason() {
    let dir = Dir::new();
    let pass = dir.fake("pass");
    let cases = [
        ("illegal", "W+F", "illegal", "point occupied"),
        ("crash", "W+F", "crash", "segmentation fault"),
        ("garbage", "W+F", "malformed", "banana"),
        ("nonsense", "W+F", "malformed", "not speaking GTP"),
        (
            "chatty",
            "W+F",
            "malformed",
            "an answer too many or too few",
        ),
        ("silent", "W+F", "silent", "no answer"),
        ("resign", "W+R", "resign", "resigned"),
    ];
    for (mode, result, reason, detail) in cases {
        let g = one_game(&dir, &dir.fake(mode), &pass, &["--move-timeout", "1"]);
        assert_eq!(field(&g, "result"), result, "{mode}: {g}");
        assert_eq!(field(&g, "reason"), reason, "{mode}: {g}");
        assert!(field(&g, "detail").contains(detail), "{mode}: {g}");
        assert_eq!(field(&g, "winner"), "W");
    }
    // The same failure as White makes Black the winner.
    let g = one_game(&dir, &pass, &dir.fake("illegal"), &[]);
    assert_eq!(field(&g, "result"), "B+F", "{g}");
    // Two passes on an empty 5x5 board: White wins by komi under Tromp-Taylor.
    let g = one_game(&dir, &pass, &pass, &[]);
    assert_eq!(field(&g, "result"), "W+0.5", "{g}");
    assert_eq!(field(&g, "reason"), "score");
    // A 2 s move against a 1 s absolute clock loses on time.
    let g = one_game(&dir, &dir.fake("slow"), &pass, &["--time", "1"]);
    assert_eq!(field(&g, "result"), "W+T", "{g}");
    assert_eq!(field(&g, "reason"), "time");
    // An engine's own clock overrides the match's, either way.
    let untimed = ["--time", "1", "--black-time", "none"];
    let g = one_game(&dir, &dir.fake("slow"), &pass, &untimed);
    assert_eq!(field(&g, "reason"), "score", "{g}");
    let timed = ["--white-time", "1"];
    let g = one_game(&dir, &pass, &dir.fake("slow"), &timed);
    assert_eq!(field(&g, "result"), "B+T", "{g}");
}

#[test]
fn bad_command_lines_fail_with_one_line() {
    let dir = Dir::new();
    let pass = dir.fake("pass");
    let missing_engine =
        "format = \"round-robin\"\n[[engine]]\nname = \"a\"\ncommand = \"bash -c true\"\n\
                          [[engine]]\nname = \"typo\"\ncommand = \"/nonexistent/engine\"\n";
    std::fs::write(dir.path().join("typo.toml"), missing_engine).unwrap();
    let missing_referee = format!(
        "format = \"round-robin\"\nreferee = \"/nonexistent/ref\"\n[[engine]]\nname = \"a\"\ncommand = \"{pass}\"\n\
         [[engine]]\nname = \"b\"\ncommand = \"{pass}\"\n"
    );
    std::fs::write(dir.path().join("referee.toml"), missing_referee).unwrap();
    for args in [
        match_args("x", "y", &["--size", "30"]),
        match_args("x", "y", &["--time", "forever"]),
        match_args("x", "y", &["--white-time", "10x"]),
        match_args("'x", "y", &[]),
        match_args("x", "y", &["--scoring", "referee"]),
        match_args("x", "y", &["--shard", "3/2"]),
        vec!["match", "merge", "/nonexistent.jsonl"],
        // Engines that do not start, or die at once, stop the match before any game.
        match_args("/nonexistent/engine", "true", &[]),
        match_args("true", "false", &[]),
        vec!["tournament", "/nonexistent.toml", "--out", "o"],
        // Faults a fault-injection run found: each is refused before the first game.
        match_args(
            &pass,
            &pass,
            &["--scoring", "referee", "--referee", "/nonexistent/ref"],
        ),
        match_args(&pass, &pass, &["--referee", "/nonexistent/ref"]),
        match_args(&pass, &pass, &["--json", "/proc/version/r.json"]),
        match_args(&pass, &pass, &["--sgf-dir", "/proc/version"]),
        match_args(&pass, &pass, &["--move-timeout", "1e-300"]),
        match_args(&pass, &pass, &["--komi", "1e308"]),
        vec!["tournament", "/dev/zero", "--out", "o"],
        vec!["tournament", "typo.toml", "--out", "o"],
        vec!["tournament", "referee.toml", "--out", "o"],
    ] {
        let out = dir.run(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        // One line saying what is wrong (clap adds a hint line for its own errors).
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("tengen ") || first.starts_with("error: "),
            "{args:?}: {stderr}"
        );
        if first.starts_with("tengen ") {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
        assert!(!dir.path().join("tengen-match.jsonl").exists(), "{args:?}");
        assert!(!dir.path().join("o/journal.jsonl").exists(), "{args:?}");
    }
}

#[test]
fn outputs_get_their_directories_and_a_smaller_rerun_counts_only_its_games() {
    let dir = Dir::new();
    let pass = dir.fake("pass");
    let run = |games: &str| {
        let out = dir.run(&match_args(
            &pass,
            &pass,
            &["--games", games, "--size", "5", "--json", "new/dir/r.json"],
        ));
        assert!(out.status.success());
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("new/dir/r.json")).unwrap(),
        )
        .unwrap();
        json["summary"]["games"].as_u64().unwrap()
    };
    assert_eq!(run("4"), 4);
    assert_eq!(run("2"), 2);
    // Only the finished files are left: no temporary ones.
    let names: Vec<String> = std::fs::read_dir(dir.path().join("new/dir"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["r.json"]);
}

#[test]
fn a_journal_torn_in_its_header_is_started_afresh() {
    let dir = Dir::new();
    let pass = dir.fake("pass");
    std::fs::write(dir.path().join("tengen-match.jsonl"), "{\"header\":{\"eng").unwrap();
    let out = dir.run(&match_args(&pass, &pass, &["--games", "1", "--size", "5"]));
    assert!(out.status.success());
    assert_eq!(
        journal_games(&dir.path().join("tengen-match.jsonl")).len(),
        1
    );
}

/// A journal's game: its result and how it ended, and an SGF file that replays legally with
/// the result and one time per engine move.
fn assert_game_recorded(dir: &Dir, g: &Value) {
    let result = field(g, "result");
    assert!(
        result == "0" || result.starts_with("B+") || result.starts_with("W+"),
        "{g}"
    );
    assert!(
        ["score", "max-moves", "resign"].contains(&field(g, "reason")),
        "{g}"
    );
    // The SGF replays legally and carries the result.
    let sgf = std::fs::read_to_string(dir.path().join(field(g, "sgf"))).unwrap();
    assert!(sgf.contains(&format!("RE[{result}]")), "{sgf}");
    let record = tengen::sgf::read(&sgf).unwrap();
    assert_eq!(record.size, 7);
    let game: Game = record.to_game(Rules::CHINESE, 7.5, None).unwrap();
    assert_eq!(game.moves().len(), g["moves"].as_array().unwrap().len());
    assert_eq!(
        g["move_ms"].as_array().unwrap().len(),
        game.moves().len(),
        "one time per engine move"
    );
}

#[test]
fn random_tengen_games_are_refereed_recorded_and_resumable() {
    let dir = Dir::new();
    let (a, b) = (random_tengen(1), random_tengen(2));
    let args = |games: &'static str| {
        vec![
            "match".to_string(),
            "--black".into(),
            a.clone(),
            "--white".into(),
            b.clone(),
            "--games".into(),
            games.into(),
            "--size".into(),
            "7".into(),
            "--alternate".into(),
            "--parallel".into(),
            "2".into(),
            "--sgf-dir".into(),
            "sgf".into(),
            "--json".into(),
            "r.json".into(),
            "--time".into(),
            "5m".into(),
        ]
    };
    let to_str = |v: &[String]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let run = |games| {
        let v = args(games);
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        let out = dir.run(&refs);
        assert!(out.status.success(), "{:?}", to_str(&v));
        String::from_utf8(out.stdout).unwrap()
    };
    let table = run("2");
    assert!(table.contains("95% CI"), "{table}");
    let journal = dir.path().join("sgf/journal.jsonl");
    let games = journal_games(&journal);
    assert_eq!(games.len(), 2);
    // Colours alternate per game and are recorded per game.
    let mut by_game: Vec<&Value> = games.iter().collect();
    by_game.sort_by_key(|g| g["game"].as_u64());
    assert_eq!(by_game[0]["black_engine"], 0);
    assert_eq!(by_game[1]["black_engine"], 1);
    for g in &games {
        assert_game_recorded(&dir, g);
    }
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(json["summary"]["games"], 2);
    // Rerunning continues: one more game only, and the finished ones are kept.
    let table = run("3");
    assert!(table.contains(": 3 games"), "{table}");
    assert_eq!(journal_games(&journal).len(), 3);
    // Another match refuses to resume someone else's journal.
    let out = dir.run(&match_args(
        &b,
        &a,
        &["--games", "1", "--size", "7", "--sgf-dir", "sgf"],
    ));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("different run"));
}

#[test]
fn ctrl_c_leaves_a_journal_the_rerun_continues() {
    let dir = Dir::new();
    let sleepy = dir.fake("sleepy");
    let args = match_args(
        &sleepy,
        &sleepy,
        &[
            "--games",
            "3",
            "--size",
            "5",
            "--scoring",
            "tromp-taylor",
            "--journal",
            "j.jsonl",
        ],
    );
    // Each game is two passes of 0.4 s.
    let child = tengen()
        .args(&args)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt as soon as the first game is journalled (the rest need at least 1.6 s more).
    let journal = dir.path().join("j.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let finished = |p: &Path| {
        // Count whole lines only: the runner may be writing one right now.
        std::fs::read_to_string(p)
            .map(|t| {
                t.lines()
                    .filter(|l| l.starts_with("{\"game\"") && l.ends_with('}'))
                    .count()
            })
            .unwrap_or(0)
    };
    while finished(&journal) == 0 {
        assert!(std::time::Instant::now() < deadline, "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // bash's own kill: the tests need bash anyway.
    let killed = Command::new("bash")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("run the same command again"), "{stderr}");
    let done = journal_games(&journal).len();
    assert!((1..3).contains(&done), "{done} games before the interrupt");
    // The rerun plays only the missing games.
    let out = dir.run(&args);
    assert!(out.status.success());
    let games = journal_games(&journal);
    assert_eq!(games.len(), 3);
    let mut numbers: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, [0, 1, 2]);
}

#[test]
fn shards_split_the_games_and_merge_back() {
    let dir = Dir::new();
    let (a, b) = (random_tengen(3), random_tengen(4));
    for shard in ["1/2", "2/2"] {
        let out = dir.run(&match_args(
            &a,
            &b,
            &[
                "--games",
                "4",
                "--size",
                "5",
                "--alternate",
                "--shard",
                shard,
            ],
        ));
        assert!(out.status.success());
    }
    let one = dir.path().join("tengen-match.shard-1-of-2.jsonl");
    let two = dir.path().join("tengen-match.shard-2-of-2.jsonl");
    let numbers = |p: &Path| -> Vec<u64> {
        let mut v: Vec<u64> = journal_games(p)
            .iter()
            .map(|g| g["game"].as_u64().unwrap())
            .collect();
        v.sort();
        v
    };
    assert_eq!(numbers(&one), [0, 2]);
    assert_eq!(numbers(&two), [1, 3]);
    let out = dir.run(&[
        "match",
        "merge",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--out",
        "all.jsonl",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains(": 4 games"));
    assert_eq!(numbers(&dir.path().join("all.jsonl")), [0, 1, 2, 3]);
}

#[test]
fn shard_auto_takes_the_task_from_the_batch_system() {
    let dir = Dir::new();
    let pass = dir.fake("pass");
    let run = |spec: &str, vars: &[(&str, &str)]| {
        let mut command = tengen();
        command
            .args(match_args(
                &pass,
                &pass,
                &["--games", "6", "--size", "5", "--shard", spec],
            ))
            .current_dir(dir.path());
        for name in [
            "SLURM_ARRAY_TASK_ID",
            "JOB_COMPLETION_INDEX",
            "PARALLEL_SEQ",
        ] {
            command.env_remove(name);
        }
        for (name, value) in vars {
            command.env(name, value);
        }
        command.output().unwrap()
    };
    // A Slurm array --array=1-3, task 2: the second of three shards.
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "3"),
    ];
    assert!(run("auto", &slurm).status.success());
    let journal = dir.path().join("tengen-match.shard-2-of-3.jsonl");
    let mut games: Vec<u64> = journal_games(&journal)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    games.sort();
    assert_eq!(games, [1, 4]);
    // GNU parallel needs the count; without any batch system, one line and a failure.
    assert!(run("auto/2", &[("PARALLEL_SEQ", "1")]).status.success());
    assert!(dir.path().join("tengen-match.shard-1-of-2.jsonl").exists());
    let none = run("auto", &[]);
    assert!(!none.status.success());
    let stderr = String::from_utf8_lossy(&none.stderr);
    assert!(
        stderr.contains("no batch system") && stderr.lines().count() == 1,
        "{stderr}"
    );
}

#[test]
fn status_and_merge_of_a_directory_tell_missing_and_unfinished_shards() {
    let dir = Dir::new();
    let pass = dir.fake("pass");
    let options = [
        "--games",
        "6",
        "--size",
        "5",
        "--sgf-dir",
        "g",
        "--shard",
        "1/3",
    ];
    assert!(dir
        .run(&match_args(&pass, &pass, &options))
        .status
        .success());
    let out = dir.run(&["match", "status", "g", "--games", "7"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("shard 1/3: 2 of 3 games, unfinished"),
        "{text}"
    );
    assert!(text.contains("shard 2/3: missing") && text.contains("shard 3/3: missing"));
    assert!(
        text.contains("3 of 3 shards still to finish; 7 games"),
        "{text}"
    );
    assert!(text.contains(": 2 games"), "the table so far: {text}");
    let out = dir.run(&["match", "merge", "g", "--json", "all.json"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("shard 1/3: 2 of 2 games, done"), "{text}");
    assert!(dir.path().join("all.json").exists());
}

#[test]
fn games_that_repeat_move_for_move_are_flagged() {
    // Two seeded random players replay the same game whenever they meet in the same colours.
    let dir = Dir::new();
    let (a, b) = (random_tengen(1), random_tengen(2));
    let args = match_args(
        &a,
        &b,
        &[
            "--games",
            "4",
            "--size",
            "5",
            "--alternate",
            "--json",
            "r.json",
        ],
    );
    let out = dir.run(&args);
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("2 of 4 games repeat an earlier game"),
        "{table}"
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(json["summary"]["duplicates"], 2, "{json}");
}

#[test]
fn round_robin_tournament_runs_and_resumes() {
    let dir = Dir::new();
    let config = format!(
        r#"format = "round-robin"
size = 5
komi = 0.5
scoring = "tromp-taylor"
games_per_pairing = 2
[[engine]]
name = "random-a"
command = "{}"
[[engine]]
name = "random-b"
command = "{}"
[[engine]]
name = "resigner"
command = "{}"
"#,
        random_tengen(5),
        random_tengen(6),
        dir.fake("resign")
    );
    std::fs::write(dir.path().join("rr.toml"), config).unwrap();
    let out = dir.run(&["tournament", "rr.toml", "--out", "out"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("Cross-table") && stdout.contains("Standings"),
        "{stdout}"
    );
    let journal = dir.path().join("out/journal.jsonl");
    // 3 pairings of 2 games.
    assert_eq!(journal_games(&journal).len(), 6);
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/tournament.json")).unwrap(),
    )
    .unwrap();
    let standings = json["standings"].as_array().unwrap();
    // The resigner loses all four of its games and is last with 0 points.
    let last = standings.last().unwrap();
    assert_eq!(last["player"], 2);
    assert_eq!(last["points"], 0);
    assert_eq!(last["losses"], 4);
    let total: u64 = standings
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 12, "2 points per game");
    assert_eq!(
        std::fs::read_dir(dir.path().join("out/sgf"))
            .unwrap()
            .count(),
        6
    );
    // Rerunning plays nothing new and prints the same standings.
    let again = dir.run(&["tournament", "rr.toml", "--out", "out"]);
    assert!(again.status.success());
    assert_eq!(journal_games(&journal).len(), 6);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), stdout);
}

#[test]
fn scoring_by_agreement_and_adjudication_after_max_moves() {
    let dir = Dir::new();
    // Black walls off columns A-C, White D-E on 5x5: 15 points to 10, B+4.5 with komi 0.5.
    let black = dir.fake("seq C1,C2,C3,C4,C5");
    let white = dir.fake("seq D1,D2,D3,D4,D5");
    let agree = ["--scoring", "agree"];
    let g = one_game(&dir, &black, &white, &agree);
    assert_eq!(field(&g, "result"), "B+4.5", "{g}");
    assert!(
        field(&g, "detail").contains("agreed by both engines (0 stones)"),
        "{g}"
    );
    // Both call White's wall dead: removed, Black owns the board (25 - 0.5).
    let black_says = dir.fake("seq C1,C2,C3,C4,C5 D3");
    let white_says = dir.fake("seq D1,D2,D3,D4,D5 D1");
    let g = one_game(&dir, &black_says, &white_says, &agree);
    assert_eq!(field(&g, "result"), "B+24.5", "{g}");
    // They disagree and there is no referee: Tromp-Taylor, and the record says so.
    let g = one_game(&dir, &black_says, &white, &agree);
    assert_eq!(field(&g, "result"), "B+4.5", "{g}");
    assert!(field(&g, "detail").contains("disagreed"), "{g}");
    // A game cut at 4 moves is counted as it stands: 2 Black stones to 2 White.
    let g = one_game(&dir, &black, &white, &["--max-moves", "4"]);
    assert_eq!(field(&g, "reason"), "max-moves", "{g}");
    assert_eq!(field(&g, "result"), "W+0.5", "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 4);
}

/// Whether a 5x5 match from `opening` fails before its first game.
fn opening_is_refused(dir: &Dir, opening: &str) -> bool {
    let pass = dir.fake("pass");
    let out = dir.run(&match_args(
        &pass,
        &pass,
        &["--size", "5", "--opening", opening],
    ));
    !out.status.success()
}

#[test]
fn games_start_from_the_opening() {
    let dir = Dir::new();
    std::fs::write(dir.path().join("op.sgf"), "(;GM[1]SZ[5];B[cc];W[dd])").unwrap();
    let pass = dir.fake("pass");
    let g = one_game(
        &dir,
        &pass,
        &pass,
        &["--opening", "op.sgf", "--sgf-dir", "s"],
    );
    let moves: Vec<&str> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves, ["C3", "D2", "pass", "pass"]);
    assert_eq!(
        g["move_ms"].as_array().unwrap().len(),
        2,
        "only engine moves are timed"
    );
    // One stone each: White wins by komi.
    assert_eq!(field(&g, "result"), "W+0.5");
    // An opening for another board size, or an unreadable one, is refused up front.
    for bad in ["(;GM[1]SZ[9];B[cc])", "not sgf"] {
        std::fs::write(dir.path().join("bad.sgf"), bad).unwrap();
        assert!(opening_is_refused(&dir, "bad.sgf"), "{bad}");
    }
}

#[test]
fn a_directory_of_openings_gives_each_one_to_a_pair_of_games() {
    let dir = Dir::new();
    let openings = dir.path().join("openings");
    std::fs::create_dir(&openings).unwrap();
    std::fs::write(openings.join("a.sgf"), "(;GM[1]SZ[5];B[cc])").unwrap();
    std::fs::write(openings.join("b.sgf"), "(;GM[1]SZ[5];B[bb];W[dd])").unwrap();
    std::fs::write(openings.join("notes.txt"), "not an opening").unwrap();
    let pass = dir.fake("pass");
    let out = dir.run(&match_args(
        &pass,
        &pass,
        &[
            "--games",
            "6",
            "--alternate",
            "--size",
            "5",
            "--scoring",
            "tromp-taylor",
            "--opening",
            "openings",
            "--journal",
            "j.jsonl",
        ],
    ));
    assert!(out.status.success(), "tengen match failed");
    let mut games = journal_games(&dir.path().join("j.jsonl"));
    games.sort_by_key(|g| g["game"].as_u64());
    let started: Vec<String> = games
        .iter()
        .map(|g| {
            let moves = g["moves"].as_array().unwrap();
            let engine_moves = g["move_ms"].as_array().unwrap().len();
            let opening = &moves[..moves.len() - engine_moves];
            opening
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(started, ["C3", "C3", "B4 D2", "B4 D2", "C3", "C3"]);
    // A directory without SGF files is refused up front.
    std::fs::remove_file(openings.join("a.sgf")).unwrap();
    std::fs::remove_file(openings.join("b.sgf")).unwrap();
    assert!(opening_is_refused(&dir, "openings"));
}

#[test]
fn sprt_stops_the_match_once_it_decides() {
    let dir = Dir::new();
    let (winner, loser) = (dir.fake("pass"), dir.fake("resign"));
    let args = match_args(
        &winner,
        &loser,
        &[
            "--games",
            "100",
            "--alternate",
            "--size",
            "5",
            "--sprt",
            "0,100",
            "--journal",
            "j.jsonl",
            "--json",
            "r.json",
        ],
    );
    let out = dir.run(&args);
    assert!(out.status.success());
    // Each win adds ln(0.640065 / 0.5) = 0.247 to the log-likelihood ratio: the 12th passes
    // the upper bound ln(19) = 2.944.
    assert_eq!(journal_games(&dir.path().join("j.jsonl")).len(), 12);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("LLR 2.96 in [-2.94, 2.94]: H1 accepted"),
        "{stdout}"
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(json["sprt"]["verdict"], "H1");
    // Run again: already decided, no game is added.
    assert!(dir.run(&args).status.success());
    assert_eq!(journal_games(&dir.path().join("j.jsonl")).len(), 12);
    // A game that was still running when the test decided, and went the other way, finishes
    // after the 12th: the ratio falls back inside the bounds, the verdict stands.
    let journal = dir.path().join("j.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut late: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let game = &mut late["game"];
    game["game"] = 12.into();
    let winner = if game["winner"] == "B" { "W" } else { "B" };
    game["winner"] = winner.into();
    game["result"] = format!("{winner}+R").into();
    std::fs::write(&journal, format!("{text}{late}\n")).unwrap();
    let out = dir.run(&args);
    assert!(out.status.success());
    assert_eq!(journal_games(&journal).len(), 13);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("LLR 2.63 in [-2.94, 2.94]: H1 accepted (engine 1 is nearer +100 Elo than +0) after 12 games"),
        "{stdout}"
    );
    // A sharded match cannot run the test; a malformed test is refused.
    let mut sharded = args.clone();
    sharded.extend(["--shard", "1/2"]);
    assert!(!dir.run(&sharded).status.success());
    let malformed: Vec<&str> = args
        .iter()
        .map(|&a| if a == "0,100" { "50,0" } else { a })
        .collect();
    let out = dir.run(&malformed);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("ELO0 must be below ELO1"));
}

#[test]
fn swiss_and_knockout_tournaments_with_byes() {
    let dir = Dir::new();
    let engines: String = [
        ("passer", dir.fake("pass")),
        ("resigner", dir.fake("resign")),
        ("crasher", dir.fake("crash")),
        ("walls", dir.fake("seq C1,C2,C3,C4,C5")),
        ("random", random_tengen(8)),
    ]
    .iter()
    .map(|(name, command)| format!("[[engine]]\nname = \"{name}\"\ncommand = \"{command}\"\n"))
    .collect();
    let common = "size = 5\nkomi = 0.5\nscoring = \"tromp-taylor\"\nparallel = 2\n";
    for (name, format) in [
        ("swiss", "format = \"swiss\"\nrounds = 3\nseed = 4\n"),
        ("knockout", "format = \"knockout\"\ngames_per_pairing = 3\n"),
        ("double", "format = \"knockout\"\nelimination = 2\n"),
    ] {
        let file = format!("{name}.toml");
        std::fs::write(dir.path().join(&file), format!("{format}{common}{engines}")).unwrap();
        let out = dir.run(&["tournament", &file, "--out", name]);
        assert!(out.status.success(), "{name}");
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(name).join("tournament.json")).unwrap(),
        )
        .unwrap();
        let rounds = json["rounds"].as_array().unwrap();
        // Five players: somebody sits out the first round.
        assert!(!rounds[0]["bye"].is_null(), "{name}: {json}");
        let standings = json["standings"].as_array().unwrap();
        assert_eq!(standings.len(), 5);
        let crasher = standings.iter().find(|s| s["player"] == 2).unwrap();
        assert_ne!(crasher["place"], 1, "{name}: the crasher cannot win");
        assert!(crasher["losses"].as_u64().unwrap() >= 1, "{name}");
        // It crashes in its first pairing and is withdrawn: never paired again.
        assert_eq!(crasher["withdrawn"], true, "{name}");
        let crasher_pairings = rounds
            .iter()
            .flat_map(|r| r["pairings"].as_array().unwrap())
            .filter(|p| p["first"] == 2 || p["second"] == 2)
            .count();
        assert_eq!(crasher_pairings, 1, "{name}: {json}");
        if name == "swiss" {
            assert_eq!(rounds.len(), 3);
            // No pair meets twice.
            let mut met = std::collections::HashSet::new();
            for r in rounds {
                for p in r["pairings"].as_array().unwrap() {
                    let (a, b) = (p["first"].as_u64().unwrap(), p["second"].as_u64().unwrap());
                    assert!(met.insert((a.min(b), a.max(b))), "rematch {a}-{b}");
                }
            }
        } else {
            // One winner, placed alone first.
            assert_eq!(standings[0]["place"], 1);
            assert_eq!(standings[0]["shared"], false);
            assert_ne!(standings[1]["place"], 1);
        }
    }
}

#[test]
fn tournament_shards_share_the_rounds() {
    let dir = Dir::new();
    let engines: String = (1..=4)
        .map(|i| {
            format!(
                "[[engine]]\nname = \"r{i}\"\ncommand = \"{}\"\n",
                random_tengen(10 + i)
            )
        })
        .collect();
    std::fs::write(
        dir.path().join("swiss.toml"),
        format!("format = \"swiss\"\nrounds = 3\nsize = 5\nscoring = \"tromp-taylor\"\n{engines}"),
    )
    .unwrap();
    // Two shards run at once; each plays its board of every round and waits for the other's.
    let shard = |s: &str| {
        tengen()
            .args(["tournament", "swiss.toml", "--out", "out", "--shard", s])
            .current_dir(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    // Before the second shard starts, --status shows the first's games and the missing one.
    let first = tengen()
        .args([
            "tournament",
            "swiss.toml",
            "--out",
            "out",
            "--shard",
            "1/2",
            "--no-wait",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(first.status.code(), Some(3), "{first:?}");
    let status = dir.run(&["tournament", "swiss.toml", "--out", "out", "--status"]);
    assert!(status.status.success());
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        text.contains("shard 1/2: 1 games") && text.contains("shard 2/2: missing"),
        "{text}"
    );
    assert!(text.contains("round 1: 1 games played"), "{text}");
    let (one, two) = (shard("1/2"), shard("2/2"));
    let (one, two) = (
        one.wait_with_output().unwrap(),
        two.wait_with_output().unwrap(),
    );
    assert!(
        one.status.success() && two.status.success(),
        "{one:?} {two:?}"
    );
    assert_eq!(
        one.stdout, two.stdout,
        "both shards print the same final standings"
    );
    let boards = |p: &str| -> Vec<u64> {
        let mut v: Vec<u64> = journal_games(&dir.path().join("out").join(p))
            .iter()
            .map(|g| g["pairing"].as_u64().unwrap())
            .collect();
        v.dedup();
        v
    };
    assert_eq!(boards("journal.shard-1-of-2.jsonl"), [0]);
    assert_eq!(boards("journal.shard-2-of-2.jsonl"), [1]);
    assert_eq!(
        journal_games(&dir.path().join("out/journal.shard-1-of-2.jsonl")).len(),
        3
    );
}

/// Plays a `format` tournament of four fake engines, one of which (engine 1) runs `crasher`,
/// and returns tournament.json and the standings printed.
fn withdrawal_tournament(dir: &Dir, format: &str, crasher: &str) -> (Value, String) {
    let engines: String = [
        ("passer", dir.fake("pass")),
        ("crasher", dir.fake(crasher)),
        ("walls", dir.fake("seq C1,C2,C3,C4,C5")),
        ("resigner", dir.fake("resign")),
    ]
    .iter()
    .map(|(name, command)| format!("[[engine]]\nname = \"{name}\"\ncommand = \"{command}\"\n"))
    .collect();
    let config = format!(
        "format = \"{format}\"\nsize = 5\nkomi = 0.5\nscoring = \"tromp-taylor\"\n{engines}"
    );
    std::fs::write(dir.path().join("t.toml"), config).unwrap();
    let out = dir.run(&["tournament", "t.toml", "--out", "t"]);
    assert!(out.status.success());
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("t/tournament.json")).unwrap(),
    )
    .unwrap();
    (json, String::from_utf8(out.stdout).unwrap())
}

#[test]
fn round_robin_withdrawal_before_half_cancels_the_results() {
    let dir = Dir::new();
    let (json, stdout) = withdrawal_tournament(&dir, "round-robin", "crash");
    // The crasher plays (and crashes in) round 1 only; its two later pairings are forfeits.
    let forfeits: Vec<&Value> = json["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["pairings"].as_array().unwrap())
        .filter(|p| p["forfeit"] == true)
        .collect();
    assert_eq!(forfeits.len(), 2, "{json}");
    assert!(forfeits.iter().all(|p| p["winner"] != 1));
    // One of three pairings played: fewer than half, so its results are cancelled and it is
    // last; nobody scores points from it (3 pairings without it: 6 points in all).
    let standings = json["standings"].as_array().unwrap();
    let last = standings.last().unwrap();
    assert_eq!(last["player"], 1);
    assert_eq!(last["cancelled"], true);
    assert_eq!(last["games"], 0);
    let total: u64 = standings
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 6, "{json}");
    assert!(stdout.contains("withdrawn, results cancelled"), "{stdout}");
}

#[test]
fn double_round_robin_withdrawal_after_half_forfeits_the_rest() {
    // Crashing in its third game (round 3 of 6): half its pairings were played, so they
    // stand, and its three remaining pairings are forfeits.
    let dir = Dir::new();
    let (json, _) = withdrawal_tournament(&dir, "double-round-robin", "crash-third");
    let rounds = json["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 6);
    let crasher_forfeits = rounds
        .iter()
        .flat_map(|r| r["pairings"].as_array().unwrap())
        .filter(|p| p["forfeit"] == true && (p["first"] == 1 || p["second"] == 1))
        .count();
    assert_eq!(crasher_forfeits, 3, "{json}");
    let crasher = json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player"] == 1)
        .unwrap()
        .clone();
    assert_eq!(crasher["withdrawn"], true);
    assert_eq!(crasher["cancelled"], false);
    // Three games played and three forfeits: six games, at least four of them lost.
    assert_eq!(crasher["games"], 6, "{crasher}");
    assert!(crasher["losses"].as_u64().unwrap() >= 4, "{crasher}");
}

fn gnugo() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/games/gnugo");
    if path.exists() {
        Some(path)
    } else {
        eprintln!("SKIPPED: GNU Go is not installed at /usr/games/gnugo (apt-get install gnugo)");
        None
    }
}

#[test]
#[ignore = "needs gnugo; run with --ignored"]
fn random_tengen_against_gnugo_with_every_move_checked() {
    let Some(gnugo) = gnugo() else {
        return;
    };
    let dir = Dir::new();
    let gnugo_cmd = format!("{} --mode gtp --level 1 --chinese-rules", gnugo.display());
    let referee = format!("{} --mode gtp --chinese-rules", gnugo.display());
    let out = dir.run(&match_args(
        &random_tengen(7),
        &gnugo_cmd,
        &[
            "--games",
            "2",
            "--size",
            "9",
            "--alternate",
            "--parallel",
            "2",
            "--scoring",
            "agree",
            "--referee",
            &referee,
            "--sgf-dir",
            "sgf",
        ],
    ));
    assert!(out.status.success());
    let games = journal_games(&dir.path().join("sgf/journal.jsonl"));
    assert_eq!(games.len(), 2);
    for g in &games {
        // GNU Go beats a random player, whatever the colours, with no forfeit on either side.
        let gnugo_colour = if g["black_engine"] == 1 { "B" } else { "W" };
        assert_eq!(field(g, "winner"), gnugo_colour, "{g}");
        assert!(["score", "resign"].contains(&field(g, "reason")), "{g}");
        let sgf = std::fs::read_to_string(dir.path().join(field(g, "sgf"))).unwrap();
        let record = tengen::sgf::read(&sgf).unwrap();
        record.to_game(Rules::CHINESE, 7.5, None).unwrap();
    }
}

#[test]
#[ignore = "needs gnugo; run with --ignored"]
fn gnugo_referee_scores_a_fresh_replay() {
    let Some(gnugo) = gnugo() else {
        return;
    };
    let dir = Dir::new();
    let referee = format!("{} --mode gtp --chinese-rules", gnugo.display());
    // Black walls off columns A-C, White D-E on 5x5: 15 points to 10. The referee's
    // final_score follows the komi of each match (it is set on a fresh referee process, which
    // also sidesteps GNU Go's cached scores, docs/RULES.md §5).
    let black = dir.fake("seq C1,C2,C3,C4,C5");
    let white = dir.fake("seq D1,D2,D3,D4,D5");
    for (komi, expected) in [("0.5", "B+4.5"), ("7.5", "W+2.5")] {
        let out = dir.run(&match_args(
            &black,
            &white,
            &[
                "--games",
                "1",
                "--size",
                "5",
                "--komi",
                komi,
                "--scoring",
                "referee",
                "--referee",
                &referee,
                "--journal",
                "j.jsonl",
            ],
        ));
        assert!(out.status.success());
        let games = journal_games(&dir.path().join("j.jsonl"));
        assert_eq!(field(&games[0], "result"), expected, "{}", games[0]);
        assert!(field(&games[0], "detail").contains("referee final_score"));
        std::fs::remove_file(dir.path().join("j.jsonl")).unwrap();
    }
}
