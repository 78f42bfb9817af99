//! The checker reads no files: imports come from the resolver the caller
//! gives it. A ruleset held in memory, importing a library also held in
//! memory and a shipped one.

use crate::common::InMemory;
use std::collections::HashMap;
use tb::diag::Source;

#[test]
fn a_ruleset_checks_with_an_in_memory_resolver() {
    let files = InMemory(HashMap::from([(
        "club/lib",
        "import \"fide/lib\"\nmetric club_bh \"Club BH\" higher is better = sum(buchholz_values(forfeits: false, fore: false))\n",
    )]));
    let root = Source::new(
        "club/swiss",
        "import \"club/lib\"\nprocedure p { step club_bh }\nstandings p\n",
    );
    let rs = tb::check::check(root, &files, &[]).expect("checks");
    assert!(rs.files.iter().any(|f| f.name == "club/lib"));
    assert!(rs.files.iter().any(|f| f.name == "fide/lib"));
    // A name neither in memory nor shipped: the resolver's message, at the import.
    let d = tb::check::check(Source::new("m.tb", "import \"club/nope\"\n"), &files, &[])
        .expect_err("unknown");
    let hit = d.related.first().unwrap_or(&d);
    assert_eq!(hit.code, "tb::check::unknown_import");
    assert!(hit.message.contains("club/nope"), "{}", hit.message);
}

#[test]
fn the_shipped_resolver_reads_no_files() {
    // A file next to the root on disk is not found through `Shipped`
    // (only the command line's resolver reads the disk).
    let dir = std::env::temp_dir().join(format!("tb-resolver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.tb"), "metric x = 1\n").unwrap();
    let root_path = dir.join("a.tb");
    std::fs::write(&root_path, "import \"lib\"\n").unwrap();
    let root = crate::files::load_root(root_path.to_str().unwrap()).unwrap();
    assert!(tb::check::check(root.clone(), &tb::shipped::Shipped, &[]).is_err());
    assert!(tb::check::check(root, &crate::files::DiskResolver::default(), &[]).is_ok());
    // Shipped libraries resolve relative to the importing file's folder.
    let rs = tb::check::check(
        tb::shipped::source("fide/swiss").unwrap(),
        &tb::shipped::Shipped,
        &[],
    )
    .expect("shipped");
    assert!(rs.files.iter().any(|f| f.name == "fide/lib"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A shipped ruleset copied to a folder of one's own imports its library
/// by the old relative name (`import "lib"`): the error names the shipped
/// library meant, the federation the file names itself first.
#[test]
fn a_copied_ruleset_is_told_which_shipped_library_it_meant() {
    let dir = std::env::temp_dir().join(format!("tb-copied-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("swiss.tb");
    std::fs::write(&path, tb::shipped::get("fide/swiss").expect("shipped")).unwrap();
    let src = crate::files::read_file(&path).expect("reads");
    let d = tb::check::check(src, &crate::files::DiskResolver::default(), &[])
        .expect_err("no lib.tb beside it");
    let plain = d.plain();
    assert!(plain.contains("tb::check::unknown_import"), "{plain}");
    assert!(
        plain.contains("write e.g. `import \"fide/lib\"`"),
        "{plain}"
    );
    // Written as the shipped name, it checks from anywhere.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("import \"lib\"", "import \"fide/lib\"");
    std::fs::write(&path, text).unwrap();
    let src = crate::files::read_file(&path).expect("reads");
    tb::check::check(src, &crate::files::DiskResolver::default(), &[])
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    std::fs::remove_dir_all(&dir).ok();
}
