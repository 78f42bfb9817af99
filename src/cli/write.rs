//! Replacing a user's file whole or not at all (`tb fmt`, `tb eval --write-trf`).
//!
//! The new bytes go to a temporary file beside the target (same folder, so
//! the rename cannot cross file systems), are flushed to disk, and the
//! temporary file is renamed over the target. A full disk, a write error or
//! a kill before the rename leaves the target as it was; a failure removes
//! the temporary file. A target that changed on disk since tb looked at it
//! (an edit saved while `tb fmt` ran) is not replaced.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// What a file was when tb read it: compared again just before it is
/// replaced. The change time (unix) moves on every write, even one that
/// restores the modification time, so a change of the same size is seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    len: u64,
    modified: Option<std::time::SystemTime>,
    /// Device, inode and change time (seconds, nanoseconds); none off unix.
    id: Option<(u64, u64, i64, i64)>,
}

impl Seen {
    fn of(meta: &fs::Metadata) -> Seen {
        #[cfg(unix)]
        let id = {
            use std::os::unix::fs::MetadataExt as _;
            Some((meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec()))
        };
        #[cfg(not(unix))]
        let id = None;
        Seen {
            len: meta.len(),
            modified: meta.modified().ok(),
            id,
        }
    }
}

/// What `path` is now; None when there is no file there.
pub fn seen(path: &Path) -> io::Result<Option<Seen>> {
    match fs::metadata(path) {
        Ok(m) => Ok(Some(Seen::of(&m))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether two paths name the same file: by device and inode, so that a
/// hard link or a symbolic link to the file is the file (by canonical path
/// where there are no inodes). False when either cannot be looked at.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Why a file was not replaced.
#[derive(Debug)]
pub enum WriteError {
    /// The target is not what it was when tb read it (or a file appeared
    /// where there was none): it was left alone.
    Changed,
    /// Creating, writing or renaming failed; the target is as it was.
    Io(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// Replace `path` with `bytes`, whole or not at all; `before` is what the
/// target was when tb read it (None: there was no file), and the target is
/// left alone if it is no longer that. Its permissions are kept.
pub fn replace(path: &Path, before: Option<&Seen>, bytes: &[u8]) -> Result<(), WriteError> {
    replace_with(path, before, &mut |f| f.write_all(bytes))
}

/// [`replace`], the bytes written by `write` (a test makes it fail).
fn replace_with(
    path: &Path,
    before: Option<&Seen>,
    write: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> Result<(), WriteError> {
    // A symbolic link is written through: renaming over the link would
    // replace the link with a file, and leave the file it named as it was.
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    let old = fs::metadata(&target).ok();
    let (mut file, temp) = create_beside(&target)?;
    let guard = Remove(Some(temp.clone()));
    write(&mut file)?;
    file.flush()?;
    if let Some(m) = &old {
        file.set_permissions(m.permissions())?;
    }
    file.sync_all()?;
    drop(file);
    if seen(&target)?.as_ref() != before {
        return Err(WriteError::Changed);
    }
    fs::rename(&temp, &target)?;
    guard.keep();
    // The rename itself reaches the disk with the folder; a folder that
    // cannot be opened or synced (some file systems) changes nothing above.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// A new file beside `target`, with a name no other file has: `.NAME.` then
/// the process id and a counter, `.tmp`.
fn create_beside(target: &Path) -> io::Result<(File, PathBuf)> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "tb".into(), |n| n.to_string_lossy().into_owned());
    let pid = std::process::id();
    let mut last = None;
    for n in 0..1000 {
        let temp = dir.join(format!(".{name}.{pid}-{n}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(f) => return Ok((f, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Removes the temporary file when the write does not get to the rename.
struct Remove(Option<PathBuf>);

impl Remove {
    fn keep(mut self) {
        self.0 = None;
    }
}

impl Drop for Remove {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = fs::remove_file(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tb-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).expect("temp dir");
        d
    }

    fn entries(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_failing_write_leaves_the_target_and_no_temporary_file() {
        let d = dir("fail");
        let t = d.join("r.tb");
        fs::write(&t, "old text\n").expect("write");
        let before = seen(&t).expect("stat");
        let r = replace_with(&t, before.as_ref(), &mut |f| {
            f.write_all(b"new te")?;
            Err(io::Error::other("disk full"))
        });
        assert!(matches!(r, Err(WriteError::Io(_))));
        assert_eq!(fs::read_to_string(&t).expect("read"), "old text\n");
        assert_eq!(entries(&d), ["r.tb"]);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_target_changed_since_it_was_read_is_left_alone() {
        let d = dir("changed");
        let t = d.join("r.tb");
        fs::write(&t, "old\n").expect("write");
        let before = seen(&t).expect("stat");
        // The user's editor saves the file (same size) while tb works.
        fs::write(&t, "new\n").expect("write");
        let r = replace(&t, before.as_ref(), b"formatted\n");
        assert!(matches!(r, Err(WriteError::Changed)));
        assert_eq!(fs::read_to_string(&t).expect("read"), "new\n");
        assert_eq!(entries(&d), ["r.tb"]);
        // A file that appeared where there was none is not replaced either.
        let r = replace(&d.join("new.trf"), None, b"x");
        assert!(r.is_ok());
        let r = replace(&d.join("new.trf"), None, b"y");
        assert!(matches!(r, Err(WriteError::Changed)));
        let _ = fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept_and_links_written_through() {
        use std::os::unix::fs::PermissionsExt as _;
        let d = dir("perm");
        let t = d.join("r.tb");
        fs::write(&t, "old\n").expect("write");
        fs::set_permissions(&t, fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = d.join("link.tb");
        std::os::unix::fs::symlink(&t, &link).expect("symlink");
        let before = seen(&link).expect("stat");
        replace(&link, before.as_ref(), b"new\n").expect("replaced");
        assert_eq!(fs::read_to_string(&t).expect("read"), "new\n");
        assert!(fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
        let mode = fs::metadata(&t).expect("stat").permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert!(same_file(&t, &link));
        let hard = d.join("hard.tb");
        fs::hard_link(&t, &hard).expect("hard link");
        assert!(same_file(&t, &hard));
        assert!(!same_file(&t, &d.join("other")));
        let _ = fs::remove_dir_all(&d);
    }
}
