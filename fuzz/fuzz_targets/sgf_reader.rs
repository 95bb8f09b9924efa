//! The SGF reader fed arbitrary text: it never panics, and a game it reads is one tengen can
//! write and read back as the same game (setup, moves and position).
#![no_main]

use engine_core::Rules;
use libfuzzer_sys::fuzz_target;
use tengen::sgf::{self, GameInfo};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = sgf::read(&text) else {
        return;
    };
    let Ok(game) = record.to_game(Rules::CHINESE, 7.5, None) else {
        return;
    };
    let written = sgf::write(&game, &GameInfo::default());
    let back = sgf::read(&written)
        .and_then(|r| r.to_game(Rules::CHINESE, 7.5, None))
        .unwrap_or_else(|e| panic!("tengen cannot read its own {written:?}: {e}"));
    assert_eq!(back.setup(), game.setup());
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.board().hash(), game.board().hash());
    assert_eq!(back.komi(), game.komi());
});
