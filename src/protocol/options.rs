//! The engine's options, one table for both dialects. UCI spells them `Hash`, `Move Overhead`…; UCCI
//! `hashsize`, `moveoverhead`… Names are matched without regard to case, spaces or underscores.

use crate::book::Book;
use crate::eval::EvalKind;
use crate::nnue::Network;
use crate::rules::RuleSet;
use crate::strength::{self, Strength};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    /// UCCI: `go time` values are milliseconds instead of seconds.
    pub use_millisec: bool,
    pub rules: RuleSet,
    /// Rounds (move pairs) without a capture that draw; 0 = no limit.
    pub natural_limit_rounds: u32,
    pub move_overhead: u64,
    /// UCCI: resign hopeless positions (`bestmove … resign`).
    pub resign: bool,
    /// Selective search (the UCCI `pruning` option: `none` turns it off).
    pub pruning: bool,
    /// The evaluation the search uses.
    pub eval: EvalKind,
    /// The network file loaded by `EvalFile` (empty: none), and the network.
    pub eval_file: String,
    pub network: Option<Arc<Network>>,
    /// Win/draw/loss permille after the score in `info` lines (`UCI_ShowWDL`, UCCI `showwdl`).
    pub show_wdl: bool,
    /// Play from the opening book (UCI `OwnBook`, UCCI `usebook`).
    pub use_book: bool,
    /// The book files (UCI `BookFile`, UCCI `bookfiles`: several separated by `;`), and the books read.
    pub book_files: String,
    pub book: Option<Arc<Book>>,
    /// The book is asked only up to this many plies into the game (`BookDepth`).
    pub book_depth: u32,
    /// Variety in game moves (UCCI `randomness`, UCI `Randomness`).
    pub randomness: Randomness,
    /// Attitude to draws (UCCI `style`, UCI `Style`).
    pub style: Style,
    /// `Skill Level` (UCCI `skilllevel`): 0–20, 20 full strength.
    pub skill_level: u32,
    /// `UCI_LimitStrength` (UCCI `limitstrength`): play at `UCI_Elo` (UCCI `elo`) instead of the skill level.
    pub limit_strength: bool,
    pub elo: i32,
}

/// UCCI's `style`: how the engine values a draw. `solid` takes a draw for a little (a draw is worth 15 units to
/// it in the search, and it accepts an offer while its score is at most +60); `risky` plays on (a draw costs it
/// 30 units, and it accepts an offer only at −60 or worse); `normal` scores a draw 0 and accepts at +20.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    Solid,
    #[default]
    Normal,
    Risky,
}

impl Style {
    pub const ALL: [Style; 3] = [Style::Solid, Style::Normal, Style::Risky];

    pub fn name(self) -> &'static str {
        ["solid", "normal", "risky"][self as usize]
    }

    /// The search's contempt: what a draw costs the engine.
    pub fn contempt(self) -> i32 {
        [-15, 0, 30][self as usize]
    }

    /// The highest score at which a draw offer is accepted.
    pub fn draw_accept(self) -> i32 {
        [60, 20, -60][self as usize]
    }
}

/// How far from the best move a game move may be chosen, by level (UCCI's names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Randomness {
    #[default]
    None,
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
}

impl Randomness {
    pub const ALL: [Randomness; 6] = [
        Randomness::None,
        Randomness::Tiny,
        Randomness::Small,
        Randomness::Medium,
        Randomness::Large,
        Randomness::Huge,
    ];

    pub fn name(self) -> &'static str {
        ["none", "tiny", "small", "medium", "large", "huge"][self as usize]
    }

    /// The largest score loss allowed (the evaluation's units, 100 about a pawn).
    pub fn margin(self) -> i32 {
        [0, 5, 15, 30, 60, 120][self as usize]
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            use_millisec: false,
            rules: RuleSet::Chinese,
            natural_limit_rounds: 60,
            move_overhead: 10,
            resign: false,
            pruning: true,
            eval: EvalKind::default(),
            eval_file: String::new(),
            network: None,
            show_wdl: false,
            use_book: false,
            book_files: String::new(),
            book: None,
            book_depth: 40,
            randomness: Randomness::None,
            style: Style::Normal,
            skill_level: strength::FULL_LEVEL,
            limit_strength: false,
            elo: strength::elo_range().0,
        }
    }
}

pub const MAX_HASH_MB: usize = 65536;
pub const MAX_THREADS: usize = 256;

/// What a `setoption` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A value changed (the hash table must be resized when `resize_hash`).
    Set {
        resize_hash: bool,
    },
    ClearHash,
    NewGame,
    /// A standard UCCI option this engine accepts and ignores (book, tablebases, style…).
    Ignored,
}

fn normalize(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace() && *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// `v` as a number in `range`; the error names the setting (`name`) and says what was wrong. One reading of
/// numbers for the options and the command-line flags.
pub fn parse_range<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    v: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String> {
    match v.trim().parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        Ok(_) => Err(format!("{name} value {} is out of range {}-{}", v.trim(), range.start(), range.end())),
        Err(_) => Err(format!("{name} value '{}' is not a number", v.trim())),
    }
}

/// A combo option's value among `all` (case-insensitive), or the sentence naming the choices.
fn choice<T: Copy>(name: &str, v: &str, all: &[T], label: fn(T) -> &'static str) -> Result<T, String> {
    all.iter().copied().find(|&x| label(x).eq_ignore_ascii_case(v)).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&x| label(x)).collect();
        format!("{name} value '{v}' is not one of: {}", names.join(", "))
    })
}

impl Options {
    /// The strength to play at: `UCI_Elo`'s level while `UCI_LimitStrength` is on, else `Skill Level`'s.
    pub fn strength(&self) -> Strength {
        if self.limit_strength {
            Strength::from_elo(self.elo)
        } else {
            Strength::level(self.skill_level)
        }
    }

    /// Applies `setoption`; an error sentence for unknown names and bad values (nothing is changed then).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        let key = normalize(name);
        fn need<'v>(name: &str, v: Option<&'v str>) -> Result<&'v str, String> {
            v.map(str::trim).filter(|s| !s.is_empty()).ok_or(format!("{name} needs a value"))
        }
        let flag = |v: Option<&str>| -> Result<bool, String> {
            match v {
                None => Ok(true),
                Some(s) => parse_bool(s).ok_or(format!("{name} value '{s}' is not true or false")),
            }
        };
        match key.as_str() {
            "hash" | "hashsize" => {
                let v = need(name, value)?;
                // UCCI: 0 means "choose for me".
                let mb = if v == "0" { 16 } else { parse_range(name, v, 1..=MAX_HASH_MB)? };
                let changed = mb != self.hash_mb;
                self.hash_mb = mb;
                Ok(Change::Set { resize_hash: changed })
            }
            "threads" => {
                let v = need(name, value)?;
                self.threads = if v == "0" {
                    std::thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    parse_range(name, v, 1..=MAX_THREADS)?
                };
                Ok(Change::Set { resize_hash: false })
            }
            "multipv" => {
                self.multipv = parse_range(name, need(name, value)?, 1..=128)?;
                Ok(Change::Set { resize_hash: false })
            }
            "ponder" => {
                self.ponder = flag(value)?;
                Ok(Change::Set { resize_hash: false })
            }
            "usemillisec" => {
                self.use_millisec = flag(value)?;
                Ok(Change::Set { resize_hash: false })
            }
            "rules" | "rule" | "rulesset" | "ruleset" | "repetitionrule" => {
                self.rules = need(name, value)?.parse()?;
                Ok(Change::Set { resize_hash: false })
            }
            "naturallimit" | "rule60" | "movelimit" => {
                self.natural_limit_rounds = parse_range(name, need(name, value)?, 0..=1000)?;
                Ok(Change::Set { resize_hash: false })
            }
            "moveoverhead" => {
                self.move_overhead = parse_range(name, need(name, value)?, 0..=5000)?;
                Ok(Change::Set { resize_hash: false })
            }
            "resign" => {
                self.resign = flag(value)?;
                Ok(Change::Set { resize_hash: false })
            }
            "pruning" => {
                self.pruning = match need(name, value)?.to_ascii_lowercase().as_str() {
                    "none" | "false" | "off" => false,
                    "small" | "medium" | "large" | "true" | "on" => true,
                    v => return Err(format!("{name} value '{v}' is not none, small, medium or large")),
                };
                Ok(Change::Set { resize_hash: false })
            }
            "eval" => {
                self.eval = choice(name, need(name, value)?.trim(), &EvalKind::ALL, EvalKind::name)?;
                Ok(Change::Set { resize_hash: false })
            }
            "evalfile" => {
                let path = value.map(str::trim).unwrap_or("");
                if path.is_empty() || path == "<empty>" {
                    self.eval_file.clear();
                    self.network = None;
                } else {
                    self.network = Some(Arc::new(Network::load(path)?));
                    self.eval_file = path.to_string();
                }
                Ok(Change::Set { resize_hash: false })
            }
            "clearhash" => Ok(Change::ClearHash),
            "newgame" => Ok(Change::NewGame),
            "batch" | "debug" | "useegtb" | "egtbpaths" | "evalapi" | "idle" | "promotion" | "knowledge"
            | "loadbook" | "usehash" | "nodestime" | "debuglogfile" => Ok(Change::Ignored),
            "ownbook" | "usebook" => {
                self.use_book = flag(value)?;
                Ok(Change::Set { resize_hash: false })
            }
            "bookfile" | "bookfiles" => {
                let paths = value.map(str::trim).unwrap_or("");
                if paths.is_empty() || paths == "<empty>" {
                    self.book_files.clear();
                    self.book = None;
                } else {
                    self.book = Some(Arc::new(Book::load_list(paths)?));
                    self.book_files = paths.to_string();
                }
                Ok(Change::Set { resize_hash: false })
            }
            "style" => {
                self.style = choice(name, need(name, value)?, &Style::ALL, Style::name)?;
                Ok(Change::Set { resize_hash: false })
            }
            "randomness" => {
                self.randomness = choice(name, need(name, value)?, &Randomness::ALL, Randomness::name)?;
                Ok(Change::Set { resize_hash: false })
            }
            "bookdepth" => {
                self.book_depth = parse_range(name, need(name, value)?, 0..=1000)?;
                Ok(Change::Set { resize_hash: false })
            }
            "skilllevel" | "skill" => {
                self.skill_level = parse_range(name, need(name, value)?, 0..=strength::FULL_LEVEL)?;
                Ok(Change::Set { resize_hash: false })
            }
            "ucilimitstrength" | "limitstrength" => {
                self.limit_strength = flag(value)?;
                Ok(Change::Set { resize_hash: false })
            }
            "ucielo" | "elo" => {
                let (lo, hi) = strength::elo_range();
                self.elo = parse_range(name, need(name, value)?, lo..=hi)?;
                Ok(Change::Set { resize_hash: false })
            }
            "ucishowwdl" | "showwdl" => {
                self.show_wdl = flag(value)?;
                Ok(Change::Set { resize_hash: false })
            }
            #[cfg(feature = "spsa")]
            _ if crate::search::params::find(name).is_some() => {
                let p = crate::search::params::find(name).expect("just found");
                p.set(parse_range(name, need(name, value)?, p.min..=p.max)?)?;
                Ok(Change::Set { resize_hash: false })
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    /// The `option` lines of the handshake.
    pub fn advertise(&self, ucci: bool) -> Vec<String> {
        let rules = format!("type combo default {} var chinese var asian", self.rules.name());
        let evals: String = EvalKind::ALL.iter().map(|k| format!(" var {}", k.name())).collect();
        let eval = format!("type combo default {}{evals}", self.eval.name());
        let table: Vec<(&str, &str, String)> = vec![
            ("Hash", "hashsize", format!("type spin default {} min 1 max {MAX_HASH_MB}", self.hash_mb)),
            ("Threads", "threads", format!("type spin default {} min 1 max {MAX_THREADS}", self.threads)),
            ("MultiPV", "multipv", format!("type spin default {} min 1 max 128", self.multipv)),
            ("Ponder", "ponder", format!("type check default {}", self.ponder)),
            ("Rules", "rules", rules),
            (
                "Natural Limit",
                "naturallimit",
                format!("type spin default {} min 0 max 1000", self.natural_limit_rounds),
            ),
            ("Move Overhead", "moveoverhead", format!("type spin default {} min 0 max 5000", self.move_overhead)),
            (
                "Pruning",
                "pruning",
                format!("type combo default {} var none var large", if self.pruning { "large" } else { "none" }),
            ),
            ("Eval", "eval", eval),
            (
                "EvalFile",
                "evalfile",
                format!("type string default {}", if self.eval_file.is_empty() { "<empty>" } else { &self.eval_file }),
            ),
            ("UCI_ShowWDL", "showwdl", format!("type check default {}", self.show_wdl)),
            ("OwnBook", "usebook", format!("type check default {}", self.use_book)),
            (
                "BookFile",
                "bookfiles",
                format!(
                    "type string default {}",
                    if self.book_files.is_empty() { "<empty>" } else { &self.book_files }
                ),
            ),
            ("BookDepth", "bookdepth", format!("type spin default {} min 0 max 1000", self.book_depth)),
            (
                "Style",
                "style",
                format!(
                    "type combo default {}{}",
                    self.style.name(),
                    Style::ALL.iter().map(|s| format!(" var {}", s.name())).collect::<String>()
                ),
            ),
            (
                "Randomness",
                "randomness",
                format!(
                    "type combo default {}{}",
                    self.randomness.name(),
                    Randomness::ALL.iter().map(|r| format!(" var {}", r.name())).collect::<String>()
                ),
            ),
            (
                "Skill Level",
                "skilllevel",
                format!("type spin default {} min 0 max {}", self.skill_level, strength::FULL_LEVEL),
            ),
            ("UCI_LimitStrength", "limitstrength", format!("type check default {}", self.limit_strength)),
            ("UCI_Elo", "elo", {
                let (lo, hi) = strength::elo_range();
                format!("type spin default {} min {lo} max {hi}", self.elo)
            }),
            ("Clear Hash", "clearhash", "type button".to_string()),
        ];
        let mut lines: Vec<String> = table
            .into_iter()
            .map(
                |(uci, ucci_name, rest)| {
                    if ucci {
                        format!("option {ucci_name} {rest}")
                    } else {
                        format!("option name {uci} {rest}")
                    }
                },
            )
            .collect();
        if ucci {
            lines.insert(0, format!("option usemillisec type check default {}", self.use_millisec));
            lines.push(format!("option resign type check default {}", self.resign));
            lines.push("option newgame type button".to_string());
        }
        lines.extend(crate::search::params::advertise(ucci));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_both_dialects() {
        let mut o = Options::default();
        assert_eq!(o.set("Hash", Some("64")), Ok(Change::Set { resize_hash: true }));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.set("hashsize", Some("64")), Ok(Change::Set { resize_hash: false }));
        o.set("Move Overhead", Some("100")).unwrap();
        o.set("moveoverhead", Some("50")).unwrap();
        assert_eq!(o.move_overhead, 50);
        o.set("usemillisec", Some("true")).unwrap();
        assert!(o.use_millisec);
        o.set("Rules", Some("asian")).unwrap();
        assert_eq!(o.rules, RuleSet::Asian);
        assert_eq!(o.set("newgame", None), Ok(Change::NewGame));
        assert_eq!(o.set("Clear Hash", None), Ok(Change::ClearHash));
        assert_eq!(o.set("promotion", Some("false")), Ok(Change::Ignored));
        o.set("randomness", Some("Small")).unwrap();
        assert_eq!((o.randomness, o.randomness.margin()), (Randomness::Small, 15));
        assert!(o.set("Randomness", Some("wild")).unwrap_err().contains("is not one of: none, tiny, small"));
        o.set("style", Some("risky")).unwrap();
        assert_eq!((o.style.contempt(), o.style.draw_accept()), (30, -60));
        assert!(o.set("Style", Some("wild")).unwrap_err().contains("is not one of: solid, normal, risky"));
        o.set("usebook", Some("true")).unwrap();
        o.set("OwnBook", Some("false")).unwrap();
        assert!(!o.use_book);
        o.set("Book Depth", Some("12")).unwrap();
        assert_eq!(o.book_depth, 12);
        o.set("UCI_ShowWDL", Some("true")).unwrap();
        assert!(o.show_wdl);
        o.set("Eval", Some("HCE")).unwrap();
        assert_eq!(o.eval, EvalKind::Hce);
        // Strength: the skill level unless UCI_LimitStrength, then UCI_Elo's level.
        assert!(o.strength().is_full());
        o.set("Skill Level", Some("3")).unwrap();
        assert_eq!(o.strength(), Strength::level(3));
        let (lo, hi) = strength::elo_range();
        o.set("elo", Some(&hi.to_string())).unwrap();
        assert_eq!(o.strength(), Strength::level(3), "UCI_Elo alone changes nothing");
        o.set("UCI_LimitStrength", Some("true")).unwrap();
        assert_eq!(o.strength(), Strength::from_elo(hi));
        o.set("limitstrength", Some("false")).unwrap();
        o.set("skilllevel", Some("20")).unwrap();
        assert!(o.strength().is_full());
        assert!(o.set("UCI_Elo", Some(&(lo - 1).to_string())).unwrap_err().contains("out of range"));
        assert!(o.set("Skill Level", Some("21")).unwrap_err().contains("out of range"));
    }

    #[test]
    fn refusals_leave_values_alone() {
        let mut o = Options::default();
        assert!(o.set("Hash", Some("0x10")).unwrap_err().contains("not a number"));
        assert!(o.set("Threads", Some("100000")).unwrap_err().contains("out of range"));
        assert!(o.set("MultiPV", None).unwrap_err().contains("needs a value"));
        assert!(o.set("Ponder", Some("maybe")).unwrap_err().contains("not true or false"));
        assert!(o.set("Frobnicate", Some("1")).unwrap_err().contains("unknown option"));
        assert_eq!(o.set("Eval", Some("nn")).unwrap_err(), "Eval value 'nn' is not one of: hce, nnue");
        assert!(o.set("EvalFile", Some("/nonexistent/x.nnue")).unwrap_err().starts_with("/nonexistent/x.nnue: "));
        assert!(o.set("BookFile", Some("/nonexistent/b.dat")).unwrap_err().contains("cannot read book"));
        assert!(o.set("BookDepth", Some("-1")).is_err());
        assert_eq!(o, Options::default());
    }

    #[test]
    fn advertised_lines() {
        let o = Options::default();
        assert!(o.advertise(false).contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(o.advertise(true).contains(&"option hashsize type spin default 16 min 1 max 65536".to_string()));
        assert_eq!(o.advertise(true)[0], "option usemillisec type check default false");
        assert!(o.advertise(false).contains(&"option name Eval type combo default nnue var hce var nnue".to_string()));
        assert!(o.advertise(true).contains(&"option evalfile type string default <empty>".to_string()));
    }
}
