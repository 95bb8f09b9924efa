//! Hand-made positions, drawn as diagrams (top row first): captures, snapback, suicide, ko,
//! superko cycles, positional against situational superko, area scoring with dame and dead
//! stones, tiny and huge boards, handicap and undo.

mod common;

use common::{at, diagram, game_from, play_all, Reference};
use engine_core::{seki_stones, Color, Game, KoRule, Move, MoveError, Point, Rules, Score};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const CHINESE: Rules = Rules::CHINESE;
const SITUATIONAL: Rules = Rules {
    ko: KoRule::Situational,
    ..Rules::CHINESE
};

fn point(game: &Game, vertex: &str) -> Point {
    match at(game, vertex) {
        Move::Play(p) => p,
        Move::Pass => panic!("{vertex} is not a point"),
    }
}

fn strip(d: &str) -> String {
    d.lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn capture_in_the_corner_and_on_the_edge() {
    let mut game = game_from(
        "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        X O O X O",
        CHINESE,
        Color::White,
    );
    play_all(&mut game, "A2"); // the corner stone's last liberty
    assert_eq!(game.board().color_at(point(&game, "A1")), None);
    play_all(&mut game, "pass D2"); // the edge stone's last liberty
    assert_eq!(game.board().color_at(point(&game, "D1")), None);
    assert_eq!(game.board().captures(Color::White), 2);
}

#[test]
fn snapback_and_a_capture_that_looks_like_suicide() {
    let mut game = game_from(
        "
        . . . . .
        . . . . .
        O O O O .
        X X X O .
        . . X O .",
        CHINESE,
        Color::White,
    );
    play_all(&mut game, "B1"); // White throws in
    let a1 = point(&game, "A1");
    let g = game.geometry();
    assert!(g.neighbors(a1).iter().all(|&n| !game.board().is_empty(n)));
    play_all(&mut game, "A1"); // no empty neighbour, but it captures: legal
    assert_eq!(game.board().chain_liberties(a1), 1);
    play_all(&mut game, "B1"); // White takes five back; no ko, since five were taken
    assert_eq!(game.board().captures(Color::White), 5);
    assert_eq!(game.board().ko_point(), None);
    assert_eq!(
        diagram(&game),
        strip(
            "
            . . . . .
            . . . . .
            O O O O .
            . . . O .
            . O . O ."
        )
    );
}

const SUICIDE_POSITION: &str = "
    . . . .
    O . . .
    X O . .
    . O . .";

#[test]
fn single_and_multi_stone_suicide_are_illegal_under_chinese_rules() {
    let mut game = game_from(SUICIDE_POSITION, CHINESE, Color::Black);
    let before = diagram(&game);
    assert_eq!(
        game.play(Color::Black, at(&game, "A1")),
        Err(MoveError::Suicide)
    );
    assert_eq!(diagram(&game), before, "a refused move changes nothing");
    // White at A1 captures the black stone instead.
    play_all(&mut game, "pass A1");
    assert_eq!(game.board().color_at(point(&game, "A2")), None);

    let single = game_from(
        "
        . . .
        O . .
        . O .",
        CHINESE,
        Color::Black,
    );
    assert_eq!(
        single.check(Color::Black, at(&single, "A1")),
        Err(MoveError::Suicide)
    );
}

#[test]
fn multi_stone_suicide_removes_the_chain_under_tromp_taylor() {
    let mut game = game_from(SUICIDE_POSITION, Rules::TROMP_TAYLOR, Color::Black);
    play_all(&mut game, "A1");
    assert_eq!(game.board().color_at(point(&game, "A1")), None);
    assert_eq!(game.board().color_at(point(&game, "A2")), None);
    assert_eq!(game.board().captures(Color::White), 2);
    // A single-stone suicide only repeats the position: positional superko forbids it.
    let single = game_from(
        "
        . . .
        O . .
        . O .",
        Rules::TROMP_TAYLOR,
        Color::Black,
    );
    assert_eq!(
        single.check(Color::Black, at(&single, "A1")),
        Err(MoveError::Superko)
    );
}

const KO_POSITION: &str = "
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .";

#[test]
fn simple_ko_and_retaking_after_an_intervening_move() {
    let mut game = game_from(KO_POSITION, CHINESE, Color::Black);
    play_all(&mut game, "C4");
    assert_eq!(game.board().ko_point(), Some(point(&game, "B4")));
    assert_eq!(
        game.check(Color::White, at(&game, "B4")),
        Err(MoveError::Ko)
    );
    play_all(&mut game, "E1 E2"); // a ko threat and an answer elsewhere
    play_all(&mut game, "B4"); // now White may retake
    assert_eq!(game.board().color_at(point(&game, "C4")), None);
    assert_eq!(
        game.check(Color::Black, at(&game, "C4")),
        Err(MoveError::Ko)
    );
}

#[test]
fn a_pass_lifts_the_ko_for_the_capturer_only_by_history() {
    let mut game = game_from(KO_POSITION, CHINESE, Color::Black);
    play_all(&mut game, "C4 pass");
    // Black fills its own ko: legal (the ko forbids White's recapture, not Black's fill).
    assert_eq!(game.check(Color::Black, at(&game, "B4")), Ok(()));
}

#[test]
fn triple_ko_cycle_is_forbidden_by_superko() {
    let position = "
        . X O . . . . . .
        X O . O . . . . .
        . X O . . . . . .
        . X O . . . . . .
        X . X O . . . . .
        . X O . . . . . .
        . X O . . . . . .
        X O . O . . . . .
        . X O . . . . . .";
    for rules in [CHINESE, SITUATIONAL] {
        let mut game = game_from(position, rules, Color::Black);
        play_all(&mut game, "C2 B5 C8 B2 C5");
        // The sixth move would bring back the starting position with Black to move.
        let b8 = point(&game, "B8");
        assert!(
            game.board().is_legal(Color::White, b8),
            "simple ko allows it"
        );
        assert_eq!(
            game.check(Color::White, Move::Play(b8)),
            Err(MoveError::Superko)
        );
    }
}

const SEND_TWO_RETURN_ONE: &str = "
    . . . .
    . . . .
    X O O .
    . X . O";

#[test]
fn send_two_return_one_is_legal_only_under_situational_superko() {
    let mut positional = game_from(SEND_TWO_RETURN_ONE, CHINESE, Color::Black);
    let start = diagram(&positional);
    play_all(&mut positional, "C1 A1");
    assert_eq!(
        positional.check(Color::Black, at(&positional, "B1")),
        Err(MoveError::Superko)
    );

    let mut situational = game_from(SEND_TWO_RETURN_ONE, SITUATIONAL, Color::Black);
    play_all(&mut situational, "C1 A1 B1");
    assert_eq!(
        diagram(&situational),
        start,
        "same stones, now White to move"
    );
    assert_eq!(situational.to_move(), Color::White);
}

#[test]
fn situational_superko_never_forbids_what_positional_allows() {
    // Every (board, player) key is also a board key, so the reverse case cannot exist: check it
    // on random games on small boards.
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..60 {
        let size = rng.random_range(2..=5);
        let mut game = Game::new(size, SITUATIONAL, 0.5).unwrap();
        for _ in 0..(4 * size * size) {
            let color = game.to_move();
            let mut positional = game.clone();
            positional.set_rules(CHINESE);
            for p in game.geometry().points() {
                let m = Move::Play(p);
                if game.check(color, m) == Err(MoveError::Superko) {
                    assert!(positional.check(color, m).is_err());
                }
            }
            let legal = game.legal_points(color);
            let m = if legal.is_empty() || rng.random_ratio(1, 10) {
                Move::Pass
            } else {
                Move::Play(legal[rng.random_range(0..legal.len())])
            };
            game.play(color, m).unwrap();
        }
    }
}

#[test]
fn undo_rolls_back_board_and_history() {
    let mut game = game_from(KO_POSITION, CHINESE, Color::Black);
    let start = diagram(&game);
    play_all(&mut game, "C4");
    assert!(game.undo());
    assert_eq!(diagram(&game), start);
    assert_eq!(game.to_move(), Color::Black);
    play_all(&mut game, "C4"); // the undone move is legal again
    assert!(game.undo());
    assert!(!game.undo(), "setup stones are not moves");
}

#[test]
fn handicap_stones_are_setup_and_white_moves_first() {
    let mut game = Game::new(19, CHINESE, 0.5).unwrap();
    let stones = game.place_fixed_handicap(4).unwrap();
    assert_eq!(stones.len(), 4);
    assert_eq!(game.to_move(), Color::White);
    assert!(!game.undo());
    assert_eq!(
        game.place_fixed_handicap(2),
        Err(engine_core::SetupError::BoardNotEmpty)
    );
    // White gets one point per handicap stone under the Chinese rules.
    let score = game.score(&[]);
    assert_eq!(score.compensation, 4.0);
    assert_eq!(score.black_area, 361);
    let mut free = Game::new(9, CHINESE, 0.5).unwrap();
    let g = free.geometry();
    let a1 = g.point(0, 0).unwrap();
    assert_eq!(
        free.place_handicap(&[a1, a1]),
        Err(engine_core::SetupError::BadVertexList)
    );
    assert_eq!(
        free.place_handicap(&[a1]),
        Err(engine_core::SetupError::BadVertexList)
    );
    assert!(free.place_handicap(&[a1, g.point(8, 8).unwrap()]).is_ok());
}

#[test]
fn area_scoring_counts_dame_for_neither_side() {
    let game = game_from(
        "
        . X . O .
        X X . O O
        X X . O O
        X X . O O
        . X . O .",
        CHINESE,
        Color::Black,
    );
    let score = game.score(&[]);
    assert_eq!(
        (score.black_area, score.white_area, score.dame),
        (10, 10, 5)
    );
    assert_eq!(score.to_string(), "W+7.5");
}

#[test]
fn dead_stones_are_removed_before_counting() {
    let game = game_from(
        "
        . . . O .
        . X . O .
        . . . O .
        . . . O .
        . . . O .",
        CHINESE,
        Color::Black,
    );
    // As it stands the black stone's region touches both colours: columns A-C are dame.
    assert_eq!(game.score(&[]).black_area, 1);
    let dead = [point(&game, "B4")];
    let score = game.score(&dead);
    assert_eq!((score.black_area, score.white_area), (0, 25));
}

#[test]
fn chinese_count_of_a_19x19_game() {
    let score = |black: u32| Score {
        black_area: black,
        white_area: 361 - black,
        dame: 0,
        komi: 7.5,
        compensation: 0.0,
    };
    assert_eq!(score(185).to_string(), "B+1.5");
    assert!(score(185)
        .chinese_count()
        .contains("needs 184¼: Black wins by ¾ stone"));
    assert_eq!(score(184).to_string(), "W+0.5");
    assert!(score(184)
        .chinese_count()
        .ends_with("White wins by ¼ stone"));
    assert_eq!(score(190).to_string(), "B+11.5");
    assert_eq!(score(176).to_string(), "W+16.5");
    let jigo = Score {
        black_area: 181,
        white_area: 180,
        dame: 0,
        komi: 1.0,
        compensation: 0.0,
    };
    assert_eq!(jigo.to_string(), "0");
    assert_eq!(jigo.winner(), None);
}

#[test]
fn seki_liberties_count_for_nobody_and_mark_both_chains() {
    // Black and White share C5 and C4, their only liberties: whoever fills one is captured.
    let seki = game_from(
        "XX.OO
         XX.OO
         XXXOO
         XXXOO
         XXXOO",
        CHINESE,
        Color::Black,
    );
    let stones = seki_stones(seki.board(), &[]);
    assert_eq!(stones.len(), 23, "every stone is in seki");
    let score = seki.score(&[]);
    assert_eq!(
        (score.black_area, score.white_area, score.dame),
        (13, 10, 2)
    );

    // With a spare liberty (E1) White can fill C4 and then capture: a race, no seki.
    let race = game_from(
        "XX.OO
         XX.OO
         XXXOO
         XXXOO
         XXXO.",
        CHINESE,
        Color::Black,
    );
    assert!(seki_stones(race.board(), &[]).is_empty());
    // Dead stones come off first: with Black's chain dead there is nothing to share.
    let black = race
        .board()
        .chain_stones(point(&race, "A1"))
        .collect::<Vec<_>>();
    assert!(seki_stones(race.board(), &black).is_empty());
}

#[test]
fn tiny_boards() {
    let mut two = Game::new(2, CHINESE, 7.5).unwrap();
    play_all(&mut two, "A1 B2 A2 B1");
    assert_eq!(diagram(&two), ".O\n.O");
    assert_eq!(two.score(&[]).to_string(), "W+11.5");

    let mut three = Game::new(3, CHINESE, 7.5).unwrap();
    play_all(&mut three, "B2 pass pass");
    assert!(three.is_over());
    assert_eq!(three.score(&[]).to_string(), "B+1.5");
}

#[test]
fn the_largest_board() {
    let mut game = Game::new(25, CHINESE, 7.5).unwrap();
    play_all(&mut game, "Z25 Y25 A1 Z24");
    assert_eq!(game.board().color_at(point(&game, "Z25")), None);
    assert_eq!(game.geometry().vertex(point(&game, "Z24")), "Z24");
    assert!(Game::new(26, CHINESE, 7.5).is_err());
    assert!(Game::new(1, CHINESE, 7.5).is_err());
    let mut handicap = Game::new(25, CHINESE, 0.5).unwrap();
    assert_eq!(handicap.place_fixed_handicap(9).unwrap().len(), 9);
}

#[test]
fn resignation_ends_the_game() {
    let mut game = Game::new(9, CHINESE, 7.5).unwrap();
    game.resign(Color::White);
    assert!(game.is_over());
    assert_eq!(
        game.play(Color::Black, Move::Pass),
        Err(MoveError::GameOver)
    );
}

#[test]
fn random_games_agree_with_the_reference_on_legality_and_position() {
    let mut rng = SmallRng::seed_from_u64(11);
    for _ in 0..40 {
        let size = rng.random_range(2..=7);
        let mut game = Game::new(size, CHINESE, 7.5).unwrap();
        let mut reference = Reference::new(size);
        let mut seen = vec![reference.grid.clone()];
        for _ in 0..(3 * size * size) {
            let c = game.to_move();
            let points: Vec<Point> = game.geometry().points().collect();
            let p = points[rng.random_range(0..points.len())];
            let i = reference.index(game.geometry(), p);
            let mut next = reference.clone();
            let expected = if reference.grid[i].is_some() {
                Err(MoveError::Occupied)
            } else if reference.is_suicide(c, i) {
                Err(MoveError::Suicide)
            } else {
                next.play(c, i);
                if seen.contains(&next.grid) {
                    Err(MoveError::Ko) // Ko or Superko: compared below as "repetition"
                } else {
                    Ok(())
                }
            };
            let got = game.play(c, Move::Play(p));
            match (expected, got) {
                (Err(MoveError::Ko), Err(MoveError::Ko | MoveError::Superko)) => {}
                (e, g) => assert_eq!(e, g),
            }
            if got.is_ok() {
                reference = next;
                seen.push(reference.grid.clone());
            } else if rng.random_ratio(1, 3) {
                game.play(c, Move::Pass).unwrap();
            }
        }
    }
}
