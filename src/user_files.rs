//! The files a user names. Inputs (SGF games and openings, tournament configurations) are
//! read from regular files only, up to a size cap, so that `/dev/zero`, `/dev/urandom` or a
//! FIFO is refused at once instead of filling memory or blocking the engine. Outputs (results,
//! SGF records) are checked before any game is played and written whole or not at all: a
//! temporary file beside the target, then a rename, so a full disk leaves no torn file.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Largest file read: SGF games and configurations are a few KiB, a whole game collection a
/// few MiB.
pub const MAX_BYTES: u64 = 16 << 20;

/// The text of the regular file at `path` (bytes that are not UTF-8 replaced), or why not.
pub fn read_small_text(path: &Path) -> Result<String, String> {
    // Looked at before opening: opening a FIFO for reading blocks until a writer comes.
    if !std::fs::metadata(path)
        .map_err(|e| e.to_string())?
        .is_file()
    {
        return Err("not a regular file".into());
    }
    let file = open_without_blocking(path).map_err(|e| e.to_string())?;
    let metadata = file.metadata().map_err(|e| e.to_string())?;
    if !metadata.is_file() {
        return Err("not a regular file".into());
    }
    if metadata.len() > MAX_BYTES {
        return Err(format!("larger than {} MiB", MAX_BYTES >> 20));
    }
    // The file may still grow while it is read: never take more than the cap.
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("larger than {} MiB", MAX_BYTES >> 20));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Makes sure `path` can be written before hours of games depend on it: creates its directory
/// and writes and removes a temporary file there.
pub fn check_writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{} is a directory", path.display()));
    }
    let dir = parent_dir(path);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let probe = temporary_beside(path);
    File::create(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes `bytes` to `path` whole or not at all. The directory must exist.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temporary = temporary_beside(path);
    let written = File::create(&temporary)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot write {}: {e}", path.display())
    })
}

/// The directory `path` is in (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A hidden temporary name beside `path`, unique to this process and call.
fn temporary_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let unique = COUNT.fetch_add(1, Ordering::Relaxed);
    parent_dir(path).join(format!(".{name}.{}-{unique}.tmp", std::process::id()))
}

/// Opens for reading; on Unix without waiting, should the path have become a FIFO since it was
/// looked at.
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(unsafe_code)] // libc::mkfifo, to have a FIFO to refuse
    fn devices_directories_fifos_and_missing_files_are_refused() {
        for path in ["/dev/zero", "/dev/urandom", "/", "/nonexistent/file.sgf"] {
            assert!(read_small_text(Path::new(path)).is_err(), "{path}");
        }
        #[cfg(unix)]
        {
            let fifo = std::env::temp_dir().join(format!("tengen-fifo-{}", std::process::id()));
            let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: `name` is a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            assert_eq!(read_small_text(&fifo).unwrap_err(), "not a regular file");
            std::fs::remove_file(&fifo).unwrap();
        }
    }

    #[test]
    fn a_regular_file_is_read_and_a_huge_one_refused() {
        let dir = std::env::temp_dir().join(format!("tengen-input-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("small.sgf");
        std::fs::write(&small, b"(;SZ[9]\xff)").unwrap();
        assert_eq!(read_small_text(&small).unwrap(), "(;SZ[9]\u{fffd})");
        let huge = dir.join("huge.sgf");
        File::create(&huge).unwrap().set_len(MAX_BYTES + 1).unwrap();
        assert!(read_small_text(&huge).unwrap_err().contains("larger"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn outputs_are_checked_and_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new/sub/r.json");
        check_writable(&target).unwrap();
        assert!(target.parent().unwrap().is_dir() && !target.exists());
        write_atomically(&target, b"{}").unwrap();
        write_atomically(&target, b"[1]").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"[1]");
        // Nothing but the target is left beside it.
        assert_eq!(
            std::fs::read_dir(target.parent().unwrap()).unwrap().count(),
            1
        );
        assert!(check_writable(dir.path()).is_err());
        assert!(check_writable(Path::new("/proc/version/x.json")).is_err());
        assert!(write_atomically(&dir.path().join("none/x.sgf"), b"").is_err());
    }
}
