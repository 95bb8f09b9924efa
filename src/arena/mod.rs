//! The base match and tournament share: refereed games between GTP engines. `referee.rs` plays
//! one game (clocks, every move checked, scoring); `setup.rs` checks the settings all games
//! share and reads the openings; `journal.rs` keeps finished games resumably; `shard.rs` splits
//! the games over machines; `pool.rs` plays them on worker threads; `timespec.rs` reads the
//! clock notation; `repeats.rs` finds games that repeat earlier ones. Here: Ctrl-C handling,
//! the engines' preflight, logging and SGF output.

pub mod journal;
pub mod pool;
pub mod referee;
pub mod repeats;
pub mod setup;
pub mod shard;
pub mod timespec;

use crate::sgf;
use crate::user_files;
use referee::Played;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The Ctrl-C flag shared by every game; the handler is installed on first use. A second
/// Ctrl-C exits at once (journals stay consistent: each record is one flushed line).
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        let installed = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("tengen: interrupted; finishing the journal (Ctrl-C again to quit now)");
        });
        if let Err(e) = installed {
            log::warn!("cannot install the Ctrl-C handler: {e}");
        }
        flag
    }))
}

/// Logging for the match and tournament runners: warnings by default, `RUST_LOG=info` for one
/// line per finished game, `debug` for the engines' stderr, `trace` for every GTP exchange.
pub fn init_logging() {
    let env = env_logger::Env::default().default_filter_or("warn");
    let _ = env_logger::Builder::from_env(env).try_init();
}

/// Starts an engine and asks its name: a command line that does not start a working GTP
/// engine is refused before the first game.
pub fn preflight(command: &str) -> Result<(), String> {
    let mut engine =
        gtp::controller::Engine::spawn(command, "preflight").map_err(|e| e.to_string())?;
    engine
        .ask("name", Duration::from_secs(60))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Writes the SGF of a finished game to `dir/name`; returns its path.
pub fn write_sgf(
    dir: &Path,
    name: &str,
    played: &Played,
    root_comment: &str,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let o = &played.outcome;
    let total = played.game.moves().len();
    let mut move_comments = vec![String::new(); total];
    // The last genmove of a game lost by resignation or forfeit has no move: get_mut skips it.
    for (i, ms) in o.move_ms.iter().enumerate() {
        if let Some(c) = move_comments.get_mut(played.opening + i) {
            *c = format!("{:.2} s", *ms as f64 / 1000.0);
        }
    }
    if let Some(last) = move_comments.last_mut() {
        if !last.is_empty() {
            last.push('\n');
        }
        last.push_str(&played.comment);
    }
    let mut comment = root_comment.to_string();
    if total == 0 {
        comment.push('\n');
        comment.push_str(&played.comment);
    }
    let info = sgf::GameInfo {
        black: o.black_name.clone(),
        white: o.white_name.clone(),
        result: Some(o.result.clone()),
        date: Some(sgf::today()),
        rules: Some("Chinese".into()),
        comment: Some(comment),
        move_comments,
    };
    let path = dir.join(name);
    user_files::write_atomically(&path, sgf::write(&played.game, &info).as_bytes())?;
    Ok(path)
}
