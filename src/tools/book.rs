//! `chuhan book build` and `chuhan book show`: opening books in ElephantEye's format ([`crate::book`]) made from
//! a user's game collection, and a position's book moves listed.

use super::args::{in_range, PositionArgs};
use super::progress::Progress;
use super::records;
use crate::book::{encode_move, lock, mirror_move, Book, Record};
use crate::notation::{to_chinese, Script};
use crate::types::Color;
use std::collections::HashMap;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan book build --pgn games/ more.pgn --out my.book --min-games 3 --max-ply 30
  chuhan book show --book my.book
  chuhan book show --book BOOK.DAT --moves \"h2e2 h9g7\"

Books are ElephantEye's BOOK.DAT format: XiangQi Wizard and ElephantEye read the books made here, and \
Chuhan reads theirs (UCCI usebook/bookfiles, UCI OwnBook/BookFile).")]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Make a book from game files (PGN in any encoding, XQF), moves weighted by their results
    Build(BuildArgs),
    /// List a position's book moves with their weights
    Show(ShowArgs),
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Game files or folders (searched for .pgn and .xqf)
    #[arg(long, value_name = "FILE|DIR", num_args = 1.., required = true)]
    pub pgn: Vec<String>,
    /// The book file to write
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Keep a move only when at least this many games played it
    #[arg(long, default_value_t = 2, value_parser = in_range(1u32..=1_000_000))]
    pub min_games: u32,
    /// Only the first P plies of each game
    #[arg(long, default_value_t = 30, value_parser = in_range(1usize..=300))]
    pub max_ply: usize,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The book file(s), `;`-separated
    #[arg(long, value_name = "FILE")]
    pub book: String,
    #[command(flatten)]
    pub position: PositionArgs,
}

pub fn run(args: BookArgs) -> Result<(), String> {
    match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Show(a) => show(a),
    }
}

/// Games and points (a win 2, a draw 1, for the side that played the move) of each (lock, move).
#[derive(Default)]
struct Tally {
    games: u32,
    points: u32,
}

/// `chuhan book build`: weight = 2 × wins + draws of the side that played the move (games without a result are
/// not counted); moves played in fewer than `--min-games` games, or never without losing, are left out. Each
/// position is stored in whichever of its two mirror forms has the smaller lock, so that both wings' games add
/// up (ElephantEye merges them the same way; its lookup tries both forms).
fn build(args: BuildArgs) -> Result<(), String> {
    let files = super::records::game_files(&args.pgn).map_err(|e| format!("book: {e}"))?;
    let mut tally: HashMap<(u32, u16), Tally> = HashMap::new();
    let (mut games, mut skipped) = (0, 0);
    let bar = Progress::new("book", files.len() as u64, args.quiet);
    for path in &files {
        bar.inc(1);
        let parsed = match records::read_file(path) {
            Ok(g) => g,
            Err(e) => {
                bar.println(&format!("book: skipping {}: {e}", path.display()));
                continue;
            }
        };
        for g in parsed {
            let result = g.tag("Result").map(str::to_string).or_else(|| g.result.clone()).unwrap_or_default();
            let red_points = match result.trim() {
                "1-0" => 2,
                "0-1" => 0,
                "1/2-1/2" | "½-½" => 1,
                _ => {
                    skipped += 1;
                    continue;
                }
            };
            let Ok(mut pos) = g.start() else {
                skipped += 1;
                continue;
            };
            games += 1;
            for text in g.moves.iter().take(args.max_ply) {
                let Ok(m) = crate::notation::parse_move(&pos, text) else { break };
                let points = if pos.side_to_move() == Color::Red { red_points } else { 2 - red_points };
                let (plain, mirrored) = (lock(&pos, false), lock(&pos, true));
                let key =
                    if mirrored < plain { (mirrored, encode_move(mirror_move(m))) } else { (plain, encode_move(m)) };
                let t = tally.entry(key).or_default();
                t.games += 1;
                t.points += points;
                pos.make_move(m);
            }
        }
    }
    bar.finish();
    let records: Vec<Record> = tally
        .into_iter()
        .filter(|(_, t)| t.games >= args.min_games && t.points > 0)
        .map(|((lock, mv), t)| Record { lock, mv, weight: t.points.min(u16::MAX as u32) as u16 })
        .collect();
    let book = Book::from_records(records);
    std::fs::write(&args.out, book.to_bytes()).map_err(|e| format!("book: cannot write '{}': {e}", args.out))?;
    eprintln!(
        "book: {games} games read ({skipped} without a result or start left out), {} moves written to {}",
        book.len(),
        args.out
    );
    Ok(())
}

/// `chuhan book show`: the position, then one line per book move (heaviest first).
fn show(args: ShowArgs) -> Result<(), String> {
    let book = Book::load_list(&args.book)?;
    let pos = args.position.position()?;
    println!("{}", pos.to_fen());
    let moves = book.moves(&pos);
    if moves.is_empty() {
        println!("no book moves ({} records in the book)", book.len());
        return Ok(());
    }
    let total: u32 = moves.iter().map(|b| b.weight as u32).sum();
    for b in moves {
        println!(
            "{}  {:<6} weight {:>5}  {:>5.1} %",
            b.mv,
            to_chinese(&pos, b.mv, Script::Simplified),
            b.weight,
            100.0 * b.weight as f64 / total.max(1) as f64
        );
    }
    Ok(())
}
