//! Command-line tools: each subcommand of the `chuhan` binary lives here.

pub mod cli;
pub mod perft;
