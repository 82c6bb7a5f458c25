//! Command-line tools: each subcommand of the `chuhan` binary lives here.

pub mod analyze;
pub mod annotate;
pub mod arena;
pub mod bench;
pub mod book;
pub mod cli;
pub mod datagen;
pub mod gamefile;
pub mod judge;
pub mod openings;
pub mod params;
pub mod pgn;
pub mod progress;
pub mod train;
pub mod tune;
pub mod wdl;
pub mod xqf;
