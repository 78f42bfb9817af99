//! Issue #36, the files tb reads and writes, through the real binary:
//! `tb fmt` and `--write-trf` replace a file whole or not at all and never
//! one that changed meanwhile; imports and tables stay in the ruleset's
//! folder (unless `--allow-path`), name regular files, and a file that is
//! neither a ruleset nor a table is not quoted; folder walks do not follow
//! symbolic links; a byte-order mark and CRLF line ends are kept.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile_files-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

fn tb_cmd(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tb"));
    if !args.contains(&"--diagnostics") {
        c.args(["--diagnostics", "plain"]);
    }
    c.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Wait for `child`, at most 30 s: a run that blocks is a failure, not a
/// test that never ends.
fn finish(mut child: std::process::Child, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{what}: tb still runs after 30 s (blocked)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// Run `tb ARGS` in `dir`: (exit code, stdout, stderr).
fn tb(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let child = tb_cmd(dir, args).spawn().expect("run tb");
    let o = finish(child, &args.join(" "));
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Files in `dir` (names), sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A ruleset of 200 unformatted lines (some 2.7 kB): formatting changes
/// every line.
fn unformatted() -> String {
    (1..=200).map(|i| format!("param  p{i}=1\n")).collect()
}

/// `tb fmt FILE` under `ulimit -f 1` (writes past 1 kB fail): killed by
/// SIGXFSZ when `trap` is empty, else the write fails with EFBIG.
fn fmt_with_file_limit(dir: &Path, file: &str, trap: &str) -> Output {
    let script = format!("{trap} ulimit -f 1; exec \"$0\" --diagnostics plain fmt {file}");
    let child = Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_tb")])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh");
    finish(child, "fmt under ulimit")
}

#[cfg(unix)]
#[test]
fn fmt_killed_mid_write_leaves_the_file_as_it_was() {
    let dir = scratch("killed");
    let text = unformatted();
    std::fs::write(dir.join("r.tb"), &text).expect("write");
    // The kernel kills tb (SIGXFSZ) in the middle of writing: before, the
    // file was truncated to what had been written.
    let o = fmt_with_file_limit(&dir, "r.tb", "");
    assert!(!o.status.success(), "{o:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("r.tb")).expect("read"),
        text
    );
}

#[cfg(unix)]
#[test]
fn fmt_write_error_leaves_the_file_and_no_temporary_file() {
    let dir = scratch("efbig");
    let text = unformatted();
    std::fs::write(dir.join("r.tb"), &text).expect("write");
    // The signal ignored, the write fails (a full disk fails the same way).
    let o = fmt_with_file_limit(&dir, "r.tb", "trap '' XFSZ;");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("error[tb::check::io]"), "{err}");
    assert!(err.contains("cannot write r.tb"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("r.tb")).expect("read"),
        text
    );
    assert_eq!(names(&dir), ["r.tb"]);
    // Without the limit it is formatted, and its permissions kept.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let p = dir.join("r.tb");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o604)).expect("chmod");
        let (code, out, err) = tb(&dir, &["fmt", "r.tb"]);
        assert_eq!((code, out.as_str()), (0, "r.tb\n"), "{err}");
        let mode = std::fs::metadata(&p).expect("stat").permissions().mode() & 0o777;
        assert_eq!(mode, 0o604);
        assert_eq!(names(&dir), ["r.tb"]);
    }
}

const TRF: &str = "tests/fixtures/data/chess/tec_swiss_de.trf";

fn trf_bytes() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(TRF)).expect("fixture")
}

#[cfg(unix)]
#[test]
fn write_trf_refuses_a_hard_link_to_the_input() {
    let dir = scratch("hardlink");
    std::fs::write(dir.join("in.trf"), trf_bytes()).expect("write");
    std::fs::hard_link(dir.join("in.trf"), dir.join("link.trf")).expect("link");
    let (code, _, err) = tb(
        &dir,
        &["eval", "fide/swiss", "in.trf", "--write-trf", "link.trf"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error[tb::cli::write_trf]"), "{err}");
    assert!(err.contains("link.trf is the input file"), "{err}");
    assert_eq!(
        std::fs::read(dir.join("in.trf")).expect("read"),
        trf_bytes()
    );
}

/// Wait until process `pid` has (`open`) or has not a file descriptor on
/// `path`.
#[cfg(target_os = "linux")]
fn until_open(pid: u32, path: &Path, open: bool) {
    let start = Instant::now();
    let fds = PathBuf::from(format!("/proc/{pid}/fd"));
    loop {
        let now = std::fs::read_dir(&fds).is_ok_and(|d| {
            d.flatten()
                .any(|e| std::fs::read_link(e.path()).is_ok_and(|l| l == path))
        });
        if now == open {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{path:?} open: {now}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Give `bytes` to process `pid` through the named pipe `fifo`, in one
/// reading of its: `meanwhile` runs while tb holds the pipe open. A writer
/// that opened the pipe while the reader still held the last reading open
/// would write into that one instead of the next, hence the waits.
#[cfg(target_os = "linux")]
fn feed(pid: u32, fifo: &Path, bytes: &[u8], meanwhile: impl FnOnce()) {
    let mut w = std::fs::OpenOptions::new()
        .write(true)
        .open(fifo)
        .expect("open the pipe");
    w.write_all(bytes).expect("write the pipe");
    // tb cannot see the end before the writer closes: its descriptor shows.
    until_open(pid, fifo, true);
    meanwhile();
    drop(w);
    until_open(pid, fifo, false);
}

/// `--write-trf OUT` when OUT changes while the event is ranked: the data
/// is a named pipe, read once, after tb has looked at OUT, so the test
/// changes OUT while tb reads it.
#[cfg(target_os = "linux")]
#[test]
fn write_trf_leaves_a_file_changed_while_ranking() {
    let dir = scratch("changed");
    let fifo = dir.join("in.trf");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    std::fs::write(dir.join("out.trf"), "old\n").expect("write");
    let child = tb_cmd(
        &dir,
        &["eval", "fide/swiss", "in.trf", "--write-trf", "out.trf"],
    )
    .spawn()
    .expect("run tb");
    let pid = child.id();
    let bytes = trf_bytes();
    // tb has looked at OUT and reads the data (once: it is loaded, then
    // copied); OUT is saved by someone else meanwhile.
    feed(pid, &fifo, &bytes, || {
        std::fs::write(dir.join("out.trf"), "edited meanwhile\n").expect("edit");
    });
    let o = finish(child, "eval --write-trf");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("error[tb::cli::file_changed]"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("out.trf")).expect("read"),
        "edited meanwhile\n"
    );
    let mut left = names(&dir);
    left.retain(|n| n != "in.trf");
    assert_eq!(left, ["out.trf"]);
}

/// A folder `rs` holding rulesets, beside a folder `other`.
fn two_folders(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("rs/sub")).expect("mkdir");
    std::fs::create_dir_all(dir.join("other")).expect("mkdir");
    std::fs::write(dir.join("other/lib.tb"), "metric outside = 1\n").expect("write");
    std::fs::write(dir.join("other/t.txt"), "0 1\n1 2\n").expect("write");
    std::fs::write(dir.join("rs/lib.tb"), "metric inside = 1\n").expect("write");
    dir
}

#[test]
fn imports_stay_in_the_ruleset_folder() {
    let dir = two_folders("confined");
    let abs = dir.join("other/lib").display().to_string();
    let cases = [
        ("up.tb", "import \"../other/lib\"\n".to_string()),
        ("abs.tb", format!("import \"{abs}\"\n")),
        ("table.tb", "table t \"../other/t.txt\"\n".to_string()),
    ];
    for (file, text) in &cases {
        std::fs::write(dir.join("rs").join(file), text).expect("write");
        let (code, _, err) = tb(&dir, &["check", &format!("rs/{file}")]);
        assert_eq!(code, 3, "{file}: {err}");
        assert!(
            err.contains("error[tb::check::path_outside]"),
            "{file}: {err}"
        );
        assert!(err.contains("--allow-path"), "{file}: {err}");
        // Allowed on the command line, it is read.
        let (code, out, err) = tb(
            &dir,
            &["check", "--allow-path", "other", &format!("rs/{file}")],
        );
        assert_eq!(code, 0, "{file}: {err}");
        assert!(out.contains(": ok"), "{out}");
    }
    // An absolute path that does not exist is refused as well (a ruleset
    // does not probe the disk).
    std::fs::write(dir.join("rs/none.tb"), "import \"/no/such/file\"\n").expect("write");
    let (_, _, err) = tb(&dir, &["check", "rs/none.tb"]);
    assert!(err.contains("error[tb::check::path_outside]"), "{err}");
    // `..` that stays in the root ruleset's folder is fine: rs/sub/s.tb
    // imports rs/lib.tb, imported from rs/top.tb.
    std::fs::write(dir.join("rs/sub/s.tb"), "import \"../lib\"\n").expect("write");
    std::fs::write(
        dir.join("rs/top.tb"),
        "import \"sub/s\"\nimport \"fide/lib\"\n",
    )
    .expect("write");
    let (code, _, err) = tb(&dir, &["check", "rs/top.tb"]);
    assert_eq!(code, 0, "{err}");
    // Checked alone, s.tb is the root: `../lib` is out of its folder.
    let (code, _, err) = tb(&dir, &["check", "rs/sub/s.tb"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("error[tb::check::path_outside]"), "{err}");
    // A symbolic link out of the folder is refused.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../other/lib.tb", dir.join("rs/link.tb")).expect("symlink");
        std::fs::write(dir.join("rs/via-link.tb"), "import \"link\"\n").expect("write");
        let (code, _, err) = tb(&dir, &["check", "rs/via-link.tb"]);
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("symbolic link"), "{err}");
    }
}

#[test]
fn allow_path_is_on_every_command_that_reads_rulesets() {
    let dir = two_folders("allow-all");
    std::fs::write(
        dir.join("rs/r.tb"),
        "import \"../other/lib\"\nprocedure p {\n    step score desc\n}\nstandings p\n",
    )
    .expect("write");
    let ev = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/chess-swiss.toml");
    let ev = ev.display().to_string();
    for cmd in ["eval", "explain", "verify"] {
        let (_, _, err) = tb(&dir, &[cmd, "rs/r.tb", &ev]);
        assert!(err.contains("tb::check::path_outside"), "{cmd}: {err}");
        let (_, _, err) = tb(&dir, &[cmd, "--allow-path", "other", "rs/r.tb", &ev]);
        assert!(!err.contains("path_outside"), "{cmd}: {err}");
    }
    let (code, _, err) = tb(&dir, &["doc", "--allow-path", "other", "rs/r.tb"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = tb(
        &dir,
        &["check", "--allow-path", "no-such-folder", "rs/r.tb"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error[tb::cli::usage]"), "{err}");
}

const KEY: &str = "-----BEGIN OPENSSH PRIVATE KEY-----\n\
    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n\
    QyNTUxOQAAACBxSECRETSECRETSECRETSECRETSECRETSECRETSECRETSECRETAAAAJhb\n\
    -----END OPENSSH PRIVATE KEY-----\n";

#[test]
fn a_private_key_is_not_quoted() {
    let dir = scratch("key");
    std::fs::write(dir.join("id_ed25519.pem"), KEY).expect("write");
    std::fs::write(dir.join("table.tb"), "table t \"id_ed25519.pem\"\n").expect("write");
    std::fs::write(dir.join("import.tb"), "import \"id_ed25519.pem\"\n").expect("write");
    for file in ["table.tb", "import.tb"] {
        for style in ["plain", "fancy", "json"] {
            let o = finish(
                tb_cmd(&dir, &["--diagnostics", style, "check", file])
                    .spawn()
                    .expect("run"),
                file,
            );
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(3), "{err}");
            assert!(
                err.contains("tb::check::not_a_ruleset"),
                "{file} {style}: {err}"
            );
            assert!(err.contains("id_ed25519.pem"), "{err}");
            for secret in ["BEGIN", "SECRET", "b3Blbn"] {
                assert!(
                    !err.contains(secret),
                    "{file} {style} quotes the key: {err}"
                );
            }
        }
    }
    // A table with one bad row among good ones is a table: its row is shown.
    std::fs::write(dir.join("t.txt"), "0 1\n1 2\n2 x\n").expect("write");
    std::fs::write(dir.join("typo.tb"), "table t \"t.txt\"\n").expect("write");
    let (_, _, err) = tb(&dir, &["check", "typo.tb"]);
    assert!(err.contains("error[tb::check::table_row]"), "{err}");
    assert!(err.contains("`2 x`"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_fifo_or_folder_is_refused_without_blocking() {
    let dir = scratch("fifo");
    let made = Command::new("mkfifo")
        .arg(dir.join("pipe.tb"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    std::fs::create_dir_all(dir.join("folder.txt")).expect("mkdir");
    std::fs::write(dir.join("pipe-import.tb"), "import \"pipe\"\n").expect("write");
    std::fs::write(dir.join("folder-table.tb"), "table t \"folder.txt\"\n").expect("write");
    for (file, what) in [
        ("pipe-import.tb", "a named pipe"),
        ("folder-table.tb", "a folder"),
    ] {
        let (code, _, err) = tb(&dir, &["check", file]);
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("error[tb::check::not_a_file]"), "{err}");
        assert!(err.contains(what), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn folder_walks_do_not_follow_symbolic_links() {
    let dir = scratch("walks");
    std::fs::create_dir_all(dir.join("rules/sub")).expect("mkdir");
    std::fs::create_dir_all(dir.join("elsewhere")).expect("mkdir");
    std::fs::write(dir.join("elsewhere/theirs.tb"), "param  x=1\n").expect("write");
    std::fs::write(dir.join("rules/mine.tb"), "param  y=1\n").expect("write");
    let link = |to: &str, at: &str| std::os::unix::fs::symlink(to, dir.join(at)).expect("symlink");
    link("../elsewhere/theirs.tb", "rules/theirs.tb");
    link("../../elsewhere", "rules/sub/elsewhere");
    link("..", "rules/sub/loop");
    let (code, out, err) = tb(&dir, &["fmt", "rules"]);
    assert_eq!((code, out.as_str()), (0, "rules/mine.tb\n"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("elsewhere/theirs.tb")).expect("read"),
        "param  x=1\n"
    );
    // `tb test` over a folder with a link to its parent ends.
    std::fs::create_dir_all(dir.join("tests")).expect("mkdir");
    link("..", "tests/loop");
    let (code, _, err) = tb(&dir, &["test", "tests"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("error[tb::test::no_tests]"), "{err}");
}

#[test]
fn a_byte_order_mark_and_crlf_are_kept() {
    let dir = scratch("bom-crlf");
    std::fs::write(dir.join("bom.tb"), "\u{feff}param  x=1\n").expect("write");
    let (code, out, err) = tb(&dir, &["check", "bom.tb"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("bom.tb: ok"), "{out}");
    std::fs::write(dir.join("crlf.tb"), "param  x=1\r\n\r\n\r\nparam y=2\r\n").expect("write");
    let (code, out, err) = tb(&dir, &["fmt", "bom.tb", "crlf.tb"]);
    assert_eq!((code, out.as_str()), (0, "bom.tb\ncrlf.tb\n"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("crlf.tb")).expect("read"),
        "param x = 1\r\n\r\nparam y = 2\r\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bom.tb")).expect("read"),
        "\u{feff}param x = 1\n"
    );
    let (code, out, err) = tb(&dir, &["fmt", "--check", "bom.tb", "crlf.tb"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_error_on_standard_output_exits_1() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let o = Command::new(env!("CARGO_BIN_EXE_tb"))
        .arg("list")
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("tb: cannot write the output"), "{err}");
}
