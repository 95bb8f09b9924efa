//! Session tests with a fake player that reports fixed analysis snapshots: they check the GTP
//! side (framing, streaming, formats, dispatch), not any search.

use super::*;
use crate::player::{
    Analysis, AnalysisRequest, Candidate, Decision, FinalStatus, MoveRequest, Player, Reporter,
};
use engine_core::{Game, Move, Rules};
use std::io::Cursor;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Always likes C3 (then D4), passes in cleanup; thinks about a move for a tenth of a second
/// unless stopped sooner, analyses and ponders until stopped; calls the stone on C3 dead;
/// analyses 30 ms at a time; ponders when told to.
struct FakePlayer {
    ponders: bool,
}

/// How often a fake player pondered (only `pondering_waits_for_input` enables it).
static PONDERED: AtomicUsize = AtomicUsize::new(0);

fn c3(game: &Game) -> Move {
    game.geometry().parse_move("C3").unwrap()
}

fn snapshot(game: &Game) -> Analysis {
    let g = game.geometry();
    Analysis {
        candidates: vec![
            Candidate {
                mv: c3(game),
                visits: 10,
                winrate: 0.6,
                prior: 0.5,
                lcb: 0.55,
                score_lead: 2.0,
                pv: vec![c3(game), g.parse_move("D4").unwrap()],
                pv_visits: vec![10, 4],
            },
            Candidate {
                mv: Move::Pass,
                visits: 5,
                winrate: 0.1,
                prior: 0.1,
                lcb: 0.0,
                score_lead: -9.0,
                pv: vec![Move::Pass],
                pv_visits: vec![5],
            },
        ],
        ownership: vec![0.5; g.area()],
        playouts: 15,
        winrate: 0.55,
        score_lead: 1.0,
    }
}

/// How long the fake player thinks about a move when nothing stops it.
const THINKING: Duration = Duration::from_millis(100);
/// How long it analyses or ponders at most when nothing stops it: a broken session must not
/// hang the tests.
const GIVE_UP: Duration = Duration::from_secs(5);

/// Waits for the stop flag, at most `at_most`.
fn wait(stop: &AtomicBool, at_most: Duration) {
    let give_up = Instant::now() + at_most;
    while !stop.load(Ordering::SeqCst) && Instant::now() < give_up {
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl Player for FakePlayer {
    fn genmove(
        &mut self,
        request: &MoveRequest<'_>,
        report: Option<&mut Reporter<'_>>,
    ) -> Decision {
        if let Some(report) = report {
            (report.callback)(&snapshot(request.game));
        }
        wait(request.stop, THINKING);
        let m = c3(request.game);
        Decision::Play(if request.cleanup {
            Move::Pass
        } else if request.game.check(request.color, m).is_ok() {
            m
        } else {
            Move::Pass
        })
    }

    fn analyze(&mut self, request: &AnalysisRequest<'_>, report: &mut Reporter<'_>) {
        let mut analysis = snapshot(request.game);
        let (color, restrictions) = (request.color, request.restrictions);
        analysis
            .candidates
            .retain(|c| restrictions.permits(color, c.mv, 0));
        (report.callback)(&analysis);
        wait(request.stop, GIVE_UP);
    }

    fn ponders(&self) -> bool {
        self.ponders
    }

    fn ponder(&mut self, _game: &Game, stop: &AtomicBool) {
        PONDERED.fetch_add(1, Ordering::SeqCst);
        wait(stop, GIVE_UP);
    }

    fn analysis_time(&self) -> Duration {
        Duration::from_millis(30)
    }

    fn final_status(&mut self, game: &Game) -> FinalStatus {
        let Move::Play(p) = c3(game) else {
            unreachable!()
        };
        FinalStatus {
            dead: vec![p],
            seki: Vec::new(),
        }
    }
}

/// Everything the session writes for `input`, ended by end of input.
fn transcript(input: &str) -> String {
    let mut out = Vec::new();
    let reader = InputReader::spawn(Cursor::new(input.as_bytes().to_vec()));
    Session::new(
        Box::new(FakePlayer { ponders: false }),
        Rules::CHINESE,
        7.5,
        reader,
        &mut out,
    )
    .run()
    .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn lz_analyze_streams_until_the_next_line() {
    assert_eq!(
        transcript("boardsize 5\nlz-analyze B 50\nprotocol_version\n"),
        "=\n\n=\ninfo move C3 visits 10 winrate 6000 prior 5000 lcb 5500 order 0 pv C3 D4\n\n\
         = 2\n\n"
    );
}

#[test]
fn analysis_passes_avoid_and_allow_to_the_player_and_genmove_refuses_them() {
    assert_eq!(
        transcript(
            "boardsize 5\nlz-analyze B 50 avoid w C3 1\n\nlz-analyze B 50 avoid b C3,D4 1\n\n\
             lz-genmove_analyze b allow b C3 1\nkata-analyze b allow b zz 1\n"
        ),
        "=\n\n=\ninfo move C3 visits 10 winrate 6000 prior 5000 lcb 5500 order 0 pv C3 D4\n\n\
         =\n\n? avoid and allow apply to analysis only\n\n? syntax error\n\n"
    );
}

#[test]
fn kata_analyze_with_ownership_from_the_movers_side() {
    let out = transcript(
        "boardsize 5\n3 kata-analyze w interval 10 ownership true pvVisits true rootInfo true\n",
    );
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines[..3], ["=", "", "=3"]);
    assert!(lines[3].starts_with(
        "info move C3 visits 10 winrate 0.600000 scoreMean 2.000000 scoreLead 2.000000 \
         prior 0.500000 lcb 0.550000 order 0 pv C3 D4 pvVisits 10 4 rootInfo visits 15 \
         winrate 0.550000 scoreMean 1.000000 scoreLead 1.000000 ownership -0.500000 "
    ));
    let (_, ownership) = lines[3].split_once(" ownership ").unwrap();
    assert_eq!(ownership.split(' ').count(), 25);
    assert_eq!(lines[4..], ["", ""]);
}

#[test]
fn genmove_analyze_streams_then_plays() {
    let out = transcript("boardsize 5\n7 kata-genmove_analyze b 10\nlz-genmove_analyze w\n");
    assert_eq!(
        out,
        "=\n\n=7\ninfo move C3 visits 10 winrate 0.600000 scoreMean 2.000000 scoreLead 2.000000 \
         prior 0.500000 lcb 0.550000 order 0 pv C3 D4\nplay C3\n\n=\ninfo move C3 visits 10 winrate 6000 \
         prior 5000 lcb 5500 order 0 pv C3 D4\nplay pass\n\n"
    );
}

#[test]
fn interrupt_stops_genmove_without_a_response_of_its_own() {
    assert_eq!(
        transcript("boardsize 5\ngenmove b\n# interrupt\nundo\nundo\n"),
        "=\n\n= C3\n\n=\n\n? cannot undo\n\n"
    );
}

#[test]
fn reg_genmove_does_not_play_and_cleanup_reaches_the_player() {
    assert_eq!(
        transcript(
            "boardsize 5\nkgs-genmove_cleanup b\nundo\nreg_genmove b\ngenmove b\nreg_genmove w\n"
        ),
        "=\n\n= pass\n\n=\n\n= C3\n\n= C3\n\n= pass\n\n"
    );
}

#[test]
fn scoring_uses_the_players_dead_stones() {
    let out = transcript(
        "boardsize 5\nplay b C3\nplay w D4\nfinal_status_list dead\nfinal_status_list alive\n\
         final_status_list seki\nfinal_score\nfinal_status_list black\n",
    );
    assert_eq!(
        out,
        "=\n\n=\n\n=\n\n= C3\n\n= D4\n\n=\n\n= W+32.5\n\n? syntax error\n\n"
    );
}

#[test]
fn scoring_extensions_of_gnu_go_use_the_players_dead_stones() {
    // The fake player calls C3 dead: the point counts for White.
    let out = transcript(
        "boardsize 5\nplay b C3\nplay w D4\nestimate_score\nfinal_status_list white_territory\n\
         top_moves_black\n",
    );
    let responses: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(responses[3], "= W+32.5 (upper bound: 32.5, lower: 32.5)");
    assert!(responses[4].starts_with("= A5 B5 C5 D5 E5 A4 B4 C4 E4 A3 B3 C3 D3"));
    assert_eq!(
        responses[5], "= C3 60.00",
        "the candidates with win rates, no pass"
    );
}

#[test]
fn gogui_views_show_the_last_snapshot() {
    let out = transcript(
        "boardsize 5\ntengen-ownership\ntengen-winrates b\ntengen-pv w\ntengen-summary\n\
         tengen-pv x\n",
    );
    let responses: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(responses[1].lines().count(), 5);
    assert!(responses[1].starts_with("= 0.50 0.50 0.50 0.50 0.50\n0.50"));
    assert_eq!(
        responses[2],
        "= INFLUENCE C3 1.00\nLABEL C3 60\nTEXT black to move, 15 playouts, win rate 60.0%"
    );
    assert!(responses[3].starts_with("= VAR w C3 b D4\nTEXT white to move"));
    assert!(responses[4].contains("\nC3 visits 10 winrate 60.0% lcb 55.0% score +2.0 pv C3 D4"));
    assert_eq!(responses[5], "? invalid color");
}

#[test]
fn every_listed_command_has_a_handler() {
    let names = command_names();
    let mut script: String = names
        .iter()
        .filter(|&&name| name != "quit")
        .map(|name| format!("{name}\n"))
        .collect();
    script.push_str("quit\nname\n");
    let out = transcript(&script);
    assert!(!out.contains("unknown command"), "{out}");
    assert_eq!(
        out.matches("\n\n").count(),
        names.len(),
        "one response each: {out}"
    );
    assert!(
        out.ends_with("\n=\n\n"),
        "quit answers last, then nothing: {out}"
    );
    let listed = transcript("list_commands\nknown_command play\nknown_command foo\n");
    assert!(listed.starts_with("= protocol_version\nname\n"));
    assert!(listed.ends_with("top_moves_white\n\n= true\n\n= false\n\n"));
}

/// Input that arrives when the test sends it; end of input when the sender is dropped.
struct ChannelReader {
    chunks: std::sync::mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl std::io::Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.chunks.recv() {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Waits until the fake player has pondered `count` times since `base`.
fn pondered(base: usize, count: usize) -> bool {
    let give_up = Instant::now() + Duration::from_secs(10);
    while PONDERED.load(Ordering::SeqCst) - base < count {
        if Instant::now() > give_up {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    true
}

#[test]
fn pondering_waits_for_input() {
    let base = PONDERED.load(Ordering::SeqCst);
    let (sender, chunks) = std::sync::mpsc::channel();
    let reader = ChannelReader {
        chunks,
        chunk: Vec::new(),
        at: 0,
    };
    let mut out = Vec::new();
    std::thread::scope(|scope| {
        let input = InputReader::spawn(reader);
        let out = &mut out;
        scope.spawn(move || {
            Session::new(
                Box::new(FakePlayer { ponders: true }),
                Rules::CHINESE,
                7.5,
                input,
                out,
            )
            .run()
            .unwrap()
        });
        // The player ponders while the controller is silent, and stops when it speaks.
        assert!(pondered(base, 1));
        sender.send(b"boardsize 5\n".to_vec()).unwrap();
        assert!(pondered(base, 2));
        sender.send(b"name\n".to_vec()).unwrap();
        assert!(pondered(base, 3));
        drop(sender);
    });
    assert_eq!(String::from_utf8(out).unwrap(), "=\n\n= tengen\n\n");
}
