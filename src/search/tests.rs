//! The MCTS player on small positions: determinism, tactics, tree reuse, passing, resigning and
//! dead stones. Budgets are fixed playout counts on one thread, so nothing depends on speed.

use super::*;
use crate::clock::{Clock, TimeSystem};
use crate::player::AnalysisRequest;
use engine_core::{Board, Rules};

fn player(playouts: u64) -> MctsPlayer {
    MctsPlayer::new(SearchConfig {
        threads: 1,
        playouts: Some(playouts),
        max_memory_mb: 64,
        resign_threshold: 0.0,
        seed: Some(5),
        ..SearchConfig::default()
    })
}

/// A game from a diagram (top row first; `X` black, `O` white) with `to_move` to play.
pub(super) fn position(diagram: &str, to_move: Color) -> Game {
    let rows: Vec<&str> = diagram.split_whitespace().collect();
    let mut game = Game::new(rows.len(), Rules::CHINESE, 7.5).unwrap();
    let g = game.geometry();
    let size = rows.len();
    for (c, letter) in [(Color::Black, 'X'), (Color::White, 'O')] {
        let points: Vec<Point> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, row)| {
                row.chars()
                    .enumerate()
                    .filter(move |&(_, ch)| ch == letter)
                    .map(move |(col, _)| g.point(col, size - 1 - i).unwrap())
            })
            .collect();
        game.add_setup_stones(c, &points).unwrap();
    }
    game.set_first_to_move(to_move).unwrap();
    game
}

fn genmove(player: &mut MctsPlayer, game: &Game, color: Color) -> Decision {
    let clock = Clock::new(TimeSystem::Unlimited);
    let stop = AtomicBool::new(false);
    let request = MoveRequest {
        game,
        color,
        clock: &clock,
        cleanup: false,
        stop: &stop,
    };
    player.genmove(&request, None)
}

/// The point of a GTP vertex such as `D4`.
pub(super) fn point(board: &Board, vertex: &str) -> Point {
    match board.geometry().parse_move(vertex) {
        Ok(Move::Play(p)) => p,
        other => panic!("{vertex} is no point: {other:?}"),
    }
}

fn vertex(game: &Game, decision: Decision) -> String {
    match decision {
        Decision::Play(m) => game.geometry().move_text(m),
        Decision::Resign => "resign".to_string(),
    }
}

#[test]
fn one_thread_with_a_seed_is_deterministic() {
    let game = Game::new(9, Rules::CHINESE, 7.5).unwrap();
    let first = genmove(&mut player(800), &game, Color::Black);
    let second = genmove(&mut player(800), &game, Color::Black);
    assert_eq!(first, second);
}

#[test]
fn captures_a_large_chain_in_atari() {
    // The white chain of five has one liberty left, at F5.
    let game = position(
        "......... ......... ..XXXXX.. .XOOOOOX. .XXXX.XX. ......... ......... ......... .........",
        Color::Black,
    );
    let decision = genmove(&mut player(2000), &game, Color::Black);
    assert_eq!(vertex(&game, decision), "F5");
}

#[test]
fn saves_its_own_chain_from_atari() {
    // Black's chain of four is in atari at F5; extending there gives it two liberties, and the
    // black stone on G3 breaks the ladder White would start (without it the chain is lost).
    let game = position(
        "......... ......... ..OOOOO.. .OXXXXO.. .OOOO.... ......... ......X.. ......... .........",
        Color::Black,
    );
    let decision = genmove(&mut player(3000), &game, Color::Black);
    assert_eq!(vertex(&game, decision), "F5");
}

#[test]
fn does_not_run_out_a_chain_caught_in_a_ladder() {
    // Move 73 of a game against Pachi: Black's eight stones from G5 to L7 are in atari at M7,
    // and running there, White's ataris drive them to the upper right edge. The playouts do
    // not play ladders out, so by them the chain escapes; tengen ran it out for twenty stones.
    let game = position(
        "................... \
         ..XXO.............. \
         ..XOO...O.......... \
         .XXXO..........O... \
         .OOXO.............. \
         .O.OXX............. \
         ..OO............... \
         .O.....X........... \
         .....XXOO.......... \
         .....XO............ \
         .....XO............ \
         ..X..XO...O........ \
         .....XO..OX........ \
         ....XOXOOXXO....... \
         ....XOXXXXO........ \
         ...XOOOXOO......... \
         .....OOOX.....X.... \
         ...X.X.X........... \
         ...................",
        Color::Black,
    );
    assert_eq!(game.board().chain_liberties(point(game.board(), "L7")), 1);
    let decision = genmove(&mut player(3000), &game, Color::Black);
    assert_ne!(vertex(&game, decision), "M7");
}

#[test]
fn the_tree_is_reused_after_the_opponents_answer() {
    let mut game = Game::new(9, Rules::CHINESE, 7.5).unwrap();
    let mut p = player(3000);
    let Decision::Play(mv) = genmove(&mut p, &game, Color::Black) else {
        panic!("no move")
    };
    game.play(Color::Black, mv).unwrap();
    // White answers with its most visited reply, which the tree has explored.
    let reply = p
        .tree
        .node(Tree::ROOT)
        .children()
        .find(|&id| p.tree.node(id).mv() == mv)
        .and_then(|id| {
            p.tree
                .node(id)
                .children()
                .max_by_key(|&c| p.tree.node(c).visits())
        })
        .map(|id| p.tree.node(id).mv())
        .expect("the chosen move was explored");
    game.play(Color::White, reply).unwrap();
    p.prepare(&game, Color::Black, &MoveRestrictions::NONE);
    assert!(
        p.tree.node(Tree::ROOT).visits() > 0,
        "the new root keeps the visits it had as a grandchild"
    );
}

#[test]
fn passes_after_the_opponent_when_winning_on_the_board() {
    // Black owns the left, White the right; Black leads by far more than komi.
    let mut game = position(
        ".....XO.. .....XO.. .....XO.. .....XO.. .....XO.. .....XO.. .....XO.. .....XO.. .....XO..",
        Color::White,
    );
    game.play(Color::White, Move::Pass).unwrap();
    let decision = genmove(&mut player(1500), &game, Color::Black);
    assert_eq!(decision, Decision::Play(Move::Pass));
}

#[test]
fn resigns_a_hopeless_game() {
    let game = position(
        "OOOOOOO.O OOOOOOOOO OOOOOOOOO OOOOOOOOO OO.OOOOOO OOOOOOOOO OOOOOOOOO X.OOOOOOO XX.OOOOOO",
        Color::Black,
    );
    let mut p = MctsPlayer::new(SearchConfig {
        resign_threshold: 0.1,
        ..player(1000).config
    });
    let decisions: Vec<Decision> = (0..RESIGN_STREAK)
        .map(|_| genmove(&mut p, &game, Color::Black))
        .collect();
    assert_eq!(decisions.last(), Some(&Decision::Resign));
}

#[test]
fn lone_stones_in_enemy_territory_are_dead() {
    let mut game = position(
        "...X.O... ...X.O... ...X.O... ...X.O... ...X.O.X. ...X.O... ...X.O... .O.X.O... ...X.O...",
        Color::Black,
    );
    game.play(Color::Black, Move::Pass).unwrap();
    let status = player(1500).final_status(&game);
    let mut dead: Vec<String> = status
        .dead
        .iter()
        .map(|&p| game.geometry().vertex(p))
        .collect();
    dead.sort();
    assert_eq!(dead, vec!["B2", "H5"]);
}

#[test]
fn chains_sharing_their_last_liberties_are_in_seki() {
    let mut game = position("XX.OO XX.OO XXXOO XXXOO XXXOO", Color::Black);
    game.play(Color::Black, Move::Pass).unwrap();
    let status = player(1500).final_status(&game);
    assert!(status.dead.is_empty(), "{:?}", status.dead);
    assert_eq!(status.seki.len(), 23);
}

#[test]
fn kills_a_straight_three_at_its_vital_point() {
    // White's group has one eye space, B7-C7-D7: Black C7 kills, anything else lets White live
    // with C7. With komi 30.5 White wins if it lives. (The search finds it without the nakade
    // prior too; the prior's shapes are tested in nakade.rs.)
    let mut game = position(
        "O...OX. OOOOOX. XXXXXX. ....... ....... ....... .......",
        Color::Black,
    );
    game.set_komi(30.5);
    let decision = genmove(&mut player(1000), &game, Color::Black);
    assert_eq!(vertex(&game, decision), "C7");
}

/// Lets `player` analyse `game` for `color` within `restrictions` until the tree holds 2,000
/// playouts; returns the first and the last report.
fn analyze_with(
    player: &mut MctsPlayer,
    game: &Game,
    color: Color,
    restrictions: &MoveRestrictions,
) -> (Analysis, Analysis) {
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    let mut callback = |analysis: &Analysis| {
        reports.push(analysis.clone());
        if analysis.playouts >= 2000 {
            stop.store(true, Relaxed);
        }
    };
    let mut reporter = Reporter {
        interval: Duration::from_millis(10),
        callback: &mut callback,
    };
    let request = AnalysisRequest {
        game,
        color,
        restrictions,
        stop: &stop,
    };
    player.analyze(&request, &mut reporter);
    (reports[0].clone(), reports.pop().unwrap())
}

fn analyze(game: &Game, color: Color, restrictions: &MoveRestrictions) -> Analysis {
    analyze_with(&mut player(1000), game, color, restrictions).1
}

#[test]
fn analysis_rates_stay_between_0_and_1() {
    let game = Game::new(9, Rules::CHINESE, 7.5).unwrap();
    let analysis = analyze_with(
        &mut player(200),
        &game,
        Color::Black,
        &MoveRestrictions::NONE,
    )
    .1;
    assert!(!analysis.candidates.is_empty());
    for c in &analysis.candidates {
        assert!((0.0..=1.0).contains(&c.lcb) && c.lcb <= c.winrate, "{c:?}");
    }
}

#[test]
fn analysis_avoids_and_allows_root_moves() {
    let game = Game::new(7, Rules::CHINESE, 7.5).unwrap();
    let g = game.geometry();
    let mv = |v: &str| g.parse_move(v).unwrap();
    let moves = |a: &Analysis| a.candidates.iter().map(|c| c.mv).collect::<Vec<_>>();

    let free = analyze(&game, Color::Black, &MoveRestrictions::NONE);
    let best = free.candidates[0].mv;
    let mut avoid = MoveRestrictions::default();
    avoid.add(false, Color::Black, vec![best], 1);
    let avoided = moves(&analyze(&game, Color::Black, &avoid));
    assert!(
        !avoided.is_empty() && !avoided.contains(&best),
        "{avoided:?}"
    );

    let mut allow = MoveRestrictions::default();
    allow.add(true, Color::Black, vec![mv("B2"), mv("F6")], 1);
    let allowed = moves(&analyze(&game, Color::Black, &allow));
    assert!(!allowed.is_empty(), "no candidate");
    assert!(
        allowed.iter().all(|m| [mv("B2"), mv("F6")].contains(m)),
        "{allowed:?}"
    );
}

#[test]
fn the_tree_is_reused_only_under_the_same_restrictions() {
    let game = Game::new(7, Rules::CHINESE, 7.5).unwrap();
    let mut avoid = MoveRestrictions::default();
    avoid.add(
        false,
        Color::White,
        vec![game.geometry().parse_move("D4").unwrap()],
        2,
    );
    let mut p = player(1000);
    analyze_with(&mut p, &game, Color::Black, &avoid);
    let (again, _) = analyze_with(&mut p, &game, Color::Black, &avoid);
    assert!(again.playouts >= 2000, "reused: {}", again.playouts);
    let (free, _) = analyze_with(&mut p, &game, Color::Black, &MoveRestrictions::NONE);
    assert!(free.playouts < 2000, "fresh: {}", free.playouts);
}

#[test]
fn new_settings_apply_but_the_memory_bound_stays() {
    let mut p = player(1000);
    p.change_setting("playouts", "300").unwrap();
    p.change_setting("threads", "2").unwrap();
    assert!(p.change_setting("max_memory", "4096").is_err());
    assert!(p.change_setting("threads", "0").is_err());
    assert_eq!((p.config.playouts, p.config.threads), (Some(300), 2));
    assert_eq!(p.config.max_memory_mb, 64);
    assert!(p.describe_settings().contains("[string] playouts 300"));
}

#[test]
fn without_a_seed_every_player_draws_its_own() {
    let config = SearchConfig {
        seed: None,
        max_memory_mb: 1,
        ..SearchConfig::default()
    };
    let (a, b) = (MctsPlayer::new(config.clone()), MctsPlayer::new(config));
    assert_ne!(a.seed, b.seed, "two engines started alike would play alike");
}
