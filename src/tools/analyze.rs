//! `chuhan analyze`: a board diagram, live search progress and principal variations in both notations.

use super::args::{in_range, PositionArgs, SearchArgs};
use crate::board::Position;
use crate::notation::{to_chinese, Script};
use crate::search::{self, mate_moves, Info, Listener, Shared};
use crate::tt::Bound;
use crate::types::{Color, Move, Square};
use std::io::IsTerminal;

const RED: &str = "\x1b[1;31m";
const BLACK: &str = "\x1b[1;37m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// The board with Chinese pieces, Red at the bottom; coloured when `colour`.
pub fn diagram(pos: &Position, colour: bool) -> String {
    let paint = |code: &str, s: &str| if colour { format!("{code}{s}{RESET}") } else { s.to_string() };
    let mut s = String::new();
    s.push_str(&paint(DIM, "   1  2  3  4  5  6  7  8  9"));
    s.push('\n');
    for rank in (0..10u8).rev() {
        s.push_str(&format!("{rank} "));
        for file in 0..9u8 {
            let cell = match pos.piece_at(Square::new(file, rank)) {
                Some(p) if p.color() == Color::Red => paint(RED, &p.chinese().to_string()),
                Some(p) => paint(BLACK, &p.chinese().to_string()),
                None => paint(DIM, "＋"),
            };
            s.push_str(&cell);
            if file < 8 {
                s.push(' ');
            }
        }
        s.push_str(&format!(" {rank}\n"));
        if rank == 5 {
            s.push_str(&paint(DIM, "  ────  楚 河      汉 界  ────"));
            s.push('\n');
        }
    }
    s.push_str(&paint(DIM, "   九 八 七 六 五 四 三 二 一"));
    s.push('\n');
    s.push_str(&paint(DIM, "   a  b  c  d  e  f  g  h  i"));
    s
}

/// A score for people: `+1.25` (a normalised score, `wdl::Model::to_cp`, over 100; from the side to move),
/// `mate in 3`, `mated in 2`.
pub fn human_score(score: i32) -> String {
    match mate_moves(score) {
        Some(n) if score > 0 => format!("mate in {n}"),
        Some(n) => format!("mated in {}", -n),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// The principal variation in Chinese notation, played out from `pos`.
pub fn chinese_line(pos: &Position, pv: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        out.push(to_chinese(&p, m, Script::Simplified));
        p.make_move(m);
    }
    out.join(" ")
}

fn si(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=9_999_999 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

struct Printer {
    pos: Position,
    colour: bool,
    /// The win/draw/loss model of the evaluation searching.
    wdl: &'static crate::wdl::Model,
}

/// Win/draw/loss percentages for the side to move: `W 41% D 38% L 21%`.
fn wdl_text(model: &crate::wdl::Model, pos: &Position, score: i32) -> String {
    let w = model.wdl(score, crate::wdl::material(pos));
    format!("W {}% D {}% L {}%", (w.win + 5) / 10, (w.draw + 5) / 10, (w.loss + 5) / 10)
}

impl Listener for Printer {
    fn info(&self, i: &Info) {
        let bound = match i.bound {
            Bound::Lower => "≥",
            Bound::Upper => "≤",
            _ => "",
        };
        let iccs: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
        let head = format!(
            "depth {:>2}/{:<2} line {}  score {bound}{:<10} {:<18} nodes {:>7}  nps {:>6}  time {:>6.1}s",
            i.depth,
            i.seldepth,
            i.multipv,
            human_score(self.wdl.to_cp(i.score)),
            wdl_text(self.wdl, &self.pos, i.score),
            si(i.nodes),
            si(i.nodes * 1000 / i.time_ms.max(1)),
            i.time_ms as f64 / 1000.0
        );
        let chinese = chinese_line(&self.pos, &i.pv);
        if self.colour {
            println!("{head}\n    {}\n    {DIM}{chinese}{RESET}", iccs.join(" "));
        } else {
            println!("{head}\n    {}\n    {chinese}", iccs.join(" "));
        }
    }
}

/// The position of a game file (PGN in any encoding, or XQF): game `number`, after `ply` moves (all of them
/// when `None`).
fn game_position(path: &str, number: usize, ply: Option<String>) -> Result<crate::board::Position, String> {
    let games = super::records::read_file(std::path::Path::new(path)).map_err(|e| format!("analyze: {e}"))?;
    let g =
        games.get(number - 1).ok_or_else(|| format!("analyze: '{path}' has {} game(s), not {number}", games.len()))?;
    let ply = match ply {
        None => g.moves.len(),
        Some(p) => p.trim().parse::<usize>().ok().filter(|&p| p <= g.moves.len()).ok_or_else(|| {
            format!("analyze: --ply '{p}' is not a number from 0 to {} (the game's length)", g.moves.len())
        })?,
    };
    Ok(g.replay(ply).map_err(|e| format!("analyze: game {number}: {e}"))?.end)
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan analyze --movetime 5000
  chuhan analyze --fen \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\" --depth 18 --multipv 3
  chuhan analyze --moves \"h2e2 h9g7\" --nodes 2000000 --eval nnue
  chuhan analyze --pgn game.pgn --ply 20 --movetime 3000")]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// A game file (PGN in any encoding, or XQF): analyse a position of it instead of --fen/--moves
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    pub pgn: Option<String>,
    /// Which game of the file (from 1)
    #[arg(long, default_value_t = 1, requires = "pgn", value_parser = in_range(1usize..=1_000_000))]
    pub game: usize,
    /// The position after this many plies of the game (default: its end)
    #[arg(long, requires = "pgn")]
    pub ply: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Show this many best lines
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=128))]
    pub multipv: usize,
    /// Plain text: no colours, a FEN-style board
    #[arg(long)]
    pub ascii: bool,
}

/// `chuhan analyze`: searches one position (20 plies when no limit is given) and prints the lines as they come.
pub fn run(args: AnalyzeArgs) -> Result<(), String> {
    let pos = match &args.pgn {
        None => args.position.position()?,
        Some(path) => game_position(path, args.game, args.ply.clone())?,
    };
    let mut settings = args.search.settings().map_err(|e| format!("analyze: {e}"))?;
    settings.multipv = args.multipv;
    let hash = args.search.hash;
    let colour = !args.ascii && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let limits = args.search.limits(20);

    if args.ascii {
        println!("{pos}");
    } else {
        println!("{}", diagram(&pos, colour));
        println!("{}  {} to move{}", pos.to_fen(), pos.side_to_move(), if pos.in_check() { ", in check" } else { "" });
    }
    let verdict = crate::rules::game_state(&pos, &settings.rules);
    if verdict.is_over() {
        println!("The game is over: {} — {}", verdict.result.describe(), verdict.reason.describe());
        return Ok(());
    }
    let shared = Shared::new(hash);
    let wdl = crate::wdl::model(settings.eval);
    let printer = Printer { pos: pos.clone(), colour, wdl };
    let result = search::search(&pos, &limits, &settings, &shared, &printer);
    match result.best {
        Some(m) => {
            println!(
                "best move: {m} ({})  score {} ({})  depth {}  nodes {}",
                to_chinese(&pos, m, Script::Simplified),
                human_score(wdl.to_cp(result.score)),
                wdl_text(wdl, &pos, result.score),
                result.depth,
                result.nodes
            );
        }
        None => println!("no legal move: {} has lost", pos.side_to_move()),
    }
    Ok(())
}
