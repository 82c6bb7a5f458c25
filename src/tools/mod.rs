//! Command-line tools: each subcommand of the `chuhan` binary lives here.
//!
//! A one-way tree (checked by `tests/layering.rs`): `cli` (the command list and the dispatch) on top; one file
//! or folder per subcommand below it, each with its arguments and a `run` entry point; below those the parts
//! several subcommands share — `args` (argument groups, range checks), `records` (PGN and XQF game files),
//! `xqg` (our self-play game format), `openings`, `progress`. No file uses one above it.

pub mod analyze;
pub mod annotate;
pub mod args;
pub mod bench;
pub mod book;
pub mod cli;
pub mod datagen;
pub mod judge;
pub mod r#match;
pub mod openings;
pub mod params;
pub mod perft;
pub mod progress;
pub mod records;
pub mod train;
pub mod tune;
pub mod wdl;
pub mod xqg;
