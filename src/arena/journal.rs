//! Append-only journals (JSON lines) that make matches and tournaments resumable.
//!
//! The first line is a header describing the run; every later line is one finished game, written
//! with a single `write` and flushed as soon as the game ends, so an interrupted run (Ctrl-C, a
//! crash, a killed machine) leaves at worst a torn last line, which is closed off before the next
//! append and skipped on reading.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Line<H, R> {
    Header(H),
    Game(R),
}

/// An open journal to append games to.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

/// The journals in `dir`, in name order: its `.jsonl` files whose names start with one of
/// `prefixes`.
pub fn journals_in(dir: &Path, prefixes: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into());
            prefixes.iter().any(|prefix| name.starts_with(prefix)) && name.ends_with(".jsonl")
        })
        .collect();
    found.sort();
    Ok(found)
}

/// Reads a journal: its header and games. Torn lines are skipped with a warning.
pub fn read<H: DeserializeOwned, R: DeserializeOwned>(path: &Path) -> Result<(H, Vec<R>), String> {
    let mut text = String::new();
    File::open(path)
        .and_then(|mut f| f.read_to_string(&mut text))
        .map_err(|e| format!("cannot read journal {}: {e}", path.display()))?;
    match parse(&text) {
        Ok((Some(header), games)) => Ok((header, games)),
        Ok((None, _)) => Err(format!("journal {}: no header line", path.display())),
        Err(e) => Err(format!("journal {}: {e}", path.display())),
    }
}

/// The header, if a whole one was written, and the games.
fn parse<H: DeserializeOwned, R: DeserializeOwned>(
    text: &str,
) -> Result<(Option<H>, Vec<R>), String> {
    let mut header = None;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line<H, R>>(line) {
            Ok(Line::Header(h)) if header.is_none() && games.is_empty() => header = Some(h),
            Ok(Line::Header(_)) => return Err(format!("line {}: a second header", i + 1)),
            Ok(Line::Game(g)) => games.push(g),
            // A line torn by an interrupted write (closed off by the next append): the game
            // it described is simply played again.
            Err(e) => log::warn!(
                "journal line {} skipped ({e}): an interrupted write?",
                i + 1
            ),
        }
    }
    if header.is_none() && !games.is_empty() {
        return Err("no header line".into());
    }
    Ok((header, games))
}

impl Journal {
    /// Opens `path` for `header`: creates it, or reads the games of an earlier run with the same
    /// header. A journal of a different run is an error (the caller names the option to fix it).
    pub fn open<H, R>(path: &Path, header: &H) -> Result<(Journal, Vec<R>), String>
    where
        H: Serialize + DeserializeOwned + PartialEq,
        R: DeserializeOwned,
    {
        // A journal whose header was never wholly written (the run was killed at its start)
        // holds no game: it is started afresh.
        let exists = path.exists() && !has_no_header(path)?;
        let games = if exists {
            let (old, games): (H, Vec<R>) = read(path)?;
            if old != *header {
                return Err(format!(
                    "journal {} belongs to a different run (other engines or settings); \
                     delete it or choose another journal",
                    path.display()
                ));
            }
            games
        } else {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            Vec::new()
        };
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("cannot open journal {}: {e}", path.display()))?;
        let journal_error =
            |e: std::io::Error| format!("cannot write journal {}: {e}", path.display());
        if exists {
            // Close off a torn last line so the next record starts on a line of its own.
            let len = file.metadata().map_err(journal_error)?.len();
            if len > 0 {
                let mut last = [0u8; 1];
                let mut reader = File::open(path).map_err(journal_error)?;
                std::io::Seek::seek(&mut reader, std::io::SeekFrom::Start(len - 1))
                    .and_then(|_| reader.read_exact(&mut last))
                    .map_err(journal_error)?;
                if last[0] != b'\n' {
                    file.write_all(b"\n").map_err(journal_error)?;
                }
            }
        } else {
            file.set_len(0).map_err(journal_error)?;
            write_line(&mut file, &Line::<&H, ()>::Header(header)).map_err(journal_error)?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file: Mutex::new(file),
            },
            games,
        ))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one finished game and flushes it to disk.
    pub fn append<R: Serialize>(&self, game: &R) -> Result<(), String> {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        write_line(&mut file, &Line::<(), &R>::Game(game))
            .map_err(|e| format!("cannot write journal {}: {e}", self.path.display()))
    }
}

/// Whether the journal at `path` lacks a whole header line and so holds no game: empty, blank,
/// or cut inside its first line.
fn has_no_header(path: &Path) -> Result<bool, String> {
    let mut text = String::new();
    File::open(path)
        .and_then(|mut f| f.read_to_string(&mut text))
        .map_err(|e| format!("cannot read journal {}: {e}", path.display()))?;
    let parsed = parse::<serde_json::Value, serde_json::Value>(&text)?;
    Ok(matches!(parsed, (None, games) if games.is_empty()))
}

fn write_line<T: Serialize>(file: &mut File, line: &T) -> std::io::Result<()> {
    let mut text = serde_json::to_string(line).map_err(std::io::Error::other)?;
    text.push('\n');
    file.write_all(text.as_bytes())?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct H {
        name: String,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct G {
        n: u32,
    }

    #[test]
    fn resumes_and_survives_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/j.jsonl");
        let h = H { name: "a".into() };
        let (j, games) = Journal::open::<H, G>(&path, &h).unwrap();
        assert!(games.is_empty());
        j.append(&G { n: 1 }).unwrap();
        j.append(&G { n: 2 }).unwrap();
        drop(j);
        // A write torn by a crash.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"game":{"n":"#).unwrap();
        drop(f);
        let (j, games) = Journal::open::<H, G>(&path, &h).unwrap();
        assert_eq!(games, [G { n: 1 }, G { n: 2 }]);
        j.append(&G { n: 3 }).unwrap();
        drop(j);
        let (_, games): (H, Vec<G>) = read(&path).unwrap();
        assert_eq!(games, [G { n: 1 }, G { n: 2 }, G { n: 3 }]);
        // Another run's header is refused.
        let other = H { name: "b".into() };
        assert!(Journal::open::<H, G>(&path, &other).is_err());
        // No header, or two, is an error.
        assert!(parse::<H, G>("{\"game\":{\"n\":1}}\n").is_err());
        assert!(
            parse::<H, G>("{\"header\":{\"name\":\"a\"}}\n{\"header\":{\"name\":\"a\"}}\n")
                .is_err()
        );
    }

    #[test]
    fn a_journal_without_a_whole_header_starts_afresh() {
        let dir = tempfile::tempdir().unwrap();
        let h = H { name: "a".into() };
        for (i, text) in ["", "\n", "  \n", "{\"header\":{\"na"].iter().enumerate() {
            let path = dir.path().join(format!("j{i}.jsonl"));
            std::fs::write(&path, text).unwrap();
            let (j, games) = Journal::open::<H, G>(&path, &h).unwrap();
            assert!(games.is_empty());
            j.append(&G { n: 1 }).unwrap();
            drop(j);
            let (header, games): (H, Vec<G>) = read(&path).unwrap();
            assert_eq!((header, games), (H { name: "a".into() }, vec![G { n: 1 }]));
        }
    }
}
