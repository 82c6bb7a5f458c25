//! Game records as people keep them: PGN texts (in any of the encodings xiangqi sites use) and XQF files
//! (XQ Wizard's binary format). `judge`, `book`, `annotate`, `analyze` and `match` read games through this
//! module; `pgn` and `xqf` are its leaves and know nothing of each other, and both give a [`GameRecord`].
//!
//! Our own self-play format is not here: it is `tools::xqg`, for training data.

mod game;
pub mod pgn;
pub mod xqf;

pub use game::{GameRecord, Replayed};

/// The games of a game file: an XQF record (one game), or a PGN text in any of the encodings [`pgn::decode`]
/// knows.
pub fn read_file(path: &std::path::Path) -> Result<Vec<GameRecord>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    if xqf::is_xqf(&bytes) {
        return xqf::read(&bytes).map(|g| vec![g]).map_err(|e| format!("{}: {e}", path.display()));
    }
    Ok(pgn::parse(&pgn::decode(&bytes).0))
}

/// The game files under `paths`: files as given, directories searched (recursively) for `.pgn` and `.xqf`
/// files.
pub fn game_files(paths: &[String]) -> Result<Vec<std::path::PathBuf>, String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read '{}': {e}", dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("xqf")) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        let path = std::path::PathBuf::from(p);
        if path.is_dir() {
            walk(&path, &mut out)?;
        } else {
            out.push(path);
        }
    }
    Ok(out)
}
