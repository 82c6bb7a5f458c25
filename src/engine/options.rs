//! The engine's options, each declared once in [`OPTIONS`]: its UCI and UCCI names, kind, default, range, how it
//! is applied and what it means. `setoption`, the handshake's `option` lines, the range errors and the option
//! table of docs/protocol.md (checked by a test) all come from it. UCI spells the names `Hash`, `Move
//! Overhead`…; UCCI `hashsize`, `moveoverhead`… Names are matched without regard to case, spaces, `_` or `-`.

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

    /// The largest score loss allowed, in reported units (`cp`/`score`: +100 wins half the games with all pieces
    /// on, a pawn is about 40), so that a level means the same for every evaluation and network scale (in
    /// net9's internal units `large` admitted two of the start position's six best moves, which span about 40
    /// reported units).
    pub fn margin(self) -> i32 {
        [0, 5, 15, 30, 60, 120][self as usize]
    }

    /// Lines the search scores exactly to choose among. A wider margin admits more moves, and the start
    /// position's good moves come in mirror pairs (炮二平五 and 炮八平五 score alike with a symmetric network),
    /// so four lines held only two or three distinct ideas: `large` gave three first moves in eight tries.
    pub fn lines(self) -> usize {
        [1, 2, 3, 4, 6, 8][self as usize]
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

/// The kinds of option, each with how it reads and writes [`Options`].
pub enum Kind {
    Check {
        get: fn(&Options) -> bool,
        set: fn(&mut Options, bool),
    },
    Spin {
        /// The range, inclusive.
        range: fn() -> (i64, i64),
        /// What `0` means when it is outside the range (UCCI: "choose for me").
        zero: Option<Zero>,
        get: fn(&Options) -> i64,
        set: fn(&mut Options, i64),
    },
    Combo {
        /// The values advertised.
        vars: fn() -> Vec<&'static str>,
        /// Other spellings accepted, mapped to an advertised value (`None`: not a value).
        alias: fn(&str) -> Option<&'static str>,
        get: fn(&Options) -> &'static str,
        /// Applies an advertised value.
        set: fn(&mut Options, &str),
    },
    /// A text (file paths); empty or `<empty>` clears it. Setting it may fail (a file that cannot be read).
    Text {
        get: fn(&Options) -> String,
        set: fn(&mut Options, &str) -> Result<(), String>,
    },
    Button(Change),
}

/// A spin option's `0` outside its range: what it means (for the document) and the value it gives.
pub struct Zero {
    pub means: &'static str,
    pub value: fn() -> i64,
}

/// One engine option.
pub struct OptionDef {
    /// The UCI name (`None`: a UCCI-only option).
    pub uci: Option<&'static str>,
    pub ucci: &'static str,
    /// Other names accepted by `setoption` (normalised: lower case, no spaces, `_` or `-`).
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    /// Offered to XBoard as an `option=` feature (not the ones CECP has commands for: `memory`, `cores`,
    /// `hard`/`easy`, `new`, nor UCCI's clock unit).
    pub cecp: bool,
    /// What it does (docs/protocol.md's option table).
    pub meaning: &'static str,
}

/// UCCI options other engines have that this one accepts and ignores (with an `info string`).
pub const IGNORED: &[&str] = &[
    "batch",
    "debug",
    "useegtb",
    "egtbpaths",
    "evalapi",
    "idle",
    "promotion",
    "knowledge",
    "loadbook",
    "usehash",
    "nodestime",
    "debuglogfile",
];

fn no_alias(_: &str) -> Option<&'static str> {
    None
}

fn cores() -> i64 {
    std::thread::available_parallelism().map_or(1, |n| n.get()) as i64
}

/// Every option, in the order of the handshake.
pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        uci: None,
        ucci: "usemillisec",
        aliases: &[],
        kind: Kind::Check { get: |o| o.use_millisec, set: |o, v| o.use_millisec = v },
        cecp: false,
        meaning: "`go time`/`increment` in milliseconds instead of seconds",
    },
    OptionDef {
        uci: Some("Hash"),
        ucci: "hashsize",
        aliases: &[],
        kind: Kind::Spin {
            range: || (1, MAX_HASH_MB as i64),
            zero: Some(Zero { means: "the default", value: || Options::default().hash_mb as i64 }),
            get: |o| o.hash_mb as i64,
            set: |o, v| o.hash_mb = v as usize,
        },
        cecp: false,
        meaning: "hash table size in MB",
    },
    OptionDef {
        uci: Some("Threads"),
        ucci: "threads",
        aliases: &[],
        kind: Kind::Spin {
            range: || (1, MAX_THREADS as i64),
            zero: Some(Zero { means: "all cores", value: cores }),
            get: |o| o.threads as i64,
            set: |o, v| o.threads = v as usize,
        },
        cecp: false,
        meaning: "search threads (Lazy SMP)",
    },
    OptionDef {
        uci: Some("MultiPV"),
        ucci: "multipv",
        aliases: &[],
        kind: Kind::Spin {
            range: || (1, 128),
            zero: None,
            get: |o| o.multipv as i64,
            set: |o, v| o.multipv = v as usize,
        },
        cecp: true,
        meaning: "principal variations reported",
    },
    OptionDef {
        uci: Some("Ponder"),
        ucci: "ponder",
        aliases: &[],
        kind: Kind::Check { get: |o| o.ponder, set: |o, v| o.ponder = v },
        cecp: false,
        meaning: "the GUI may use `go ponder`",
    },
    OptionDef {
        uci: Some("Rules"),
        ucci: "rules",
        aliases: &["rule", "rulesset", "ruleset", "repetitionrule"],
        kind: Kind::Combo {
            vars: || RuleSet::ALL.iter().map(|r| r.name()).collect(),
            alias: |v| v.parse::<RuleSet>().ok().map(RuleSet::name),
            get: |o| o.rules.name(),
            set: |o, v| o.rules = v.parse().expect("an advertised rule set"),
        },
        cecp: true,
        meaning: "repetition rules: `chinese` (中国象棋协会) or `asian` (AXF)",
    },
    OptionDef {
        uci: Some("Natural Limit"),
        ucci: "naturallimit",
        aliases: &["rule60", "movelimit"],
        kind: Kind::Spin {
            range: || (0, 1000),
            zero: None,
            get: |o| o.natural_limit_rounds as i64,
            set: |o, v| o.natural_limit_rounds = v as u32,
        },
        cecp: true,
        meaning: "rounds without a capture that draw (0 = none); at most 10 checks per side count",
    },
    OptionDef {
        uci: Some("Move Overhead"),
        ucci: "moveoverhead",
        aliases: &[],
        kind: Kind::Spin {
            range: || (0, 5000),
            zero: None,
            get: |o| o.move_overhead as i64,
            set: |o, v| o.move_overhead = v as u64,
        },
        cecp: true,
        meaning: "milliseconds kept back per move for GUI and pipe delays",
    },
    OptionDef {
        uci: Some("Pruning"),
        ucci: "pruning",
        aliases: &[],
        kind: Kind::Combo {
            vars: || vec!["none", "large"],
            // UCCI's levels: any selective search is ours.
            alias: |v| match v.to_ascii_lowercase().as_str() {
                "false" | "off" => Some("none"),
                "small" | "medium" | "true" | "on" => Some("large"),
                _ => None,
            },
            get: |o| if o.pruning { "large" } else { "none" },
            set: |o, v| o.pruning = v == "large",
        },
        cecp: true,
        meaning: "`none` turns off the selective search (null move, futility, late-move pruning and reductions, SEE \
                  pruning, singular extensions): full-width alpha-beta with quiescence, for analysis and checks \
                  (UCCI's `small` and `medium` mean `large`)",
    },
    OptionDef {
        uci: Some("Eval"),
        ucci: "eval",
        aliases: &[],
        kind: Kind::Combo {
            vars: || EvalKind::ALL.iter().map(|k| k.name()).collect(),
            alias: no_alias,
            get: |o| o.eval.name(),
            set: |o, v| o.eval = EvalKind::parse(v).expect("an advertised evaluation"),
        },
        cecp: true,
        meaning: "the evaluation: `nnue` (the built-in network, `nnue/README.md` says which, or the one from \
                  `EvalFile`) or `hce` (handcrafted)",
    },
    OptionDef {
        uci: Some("EvalFile"),
        ucci: "evalfile",
        aliases: &[],
        kind: Kind::Text {
            get: |o| o.eval_file.clone(),
            set: |o, path| {
                if path.is_empty() {
                    o.eval_file.clear();
                    o.network = None;
                } else {
                    o.network = Some(Arc::new(Network::load(path)?));
                    o.eval_file = path.to_string();
                }
                Ok(())
            },
        },
        cecp: true,
        meaning: "a network file (`nnue/README.md`); a damaged or wrong file is refused with the reason and the old \
                  network kept",
    },
    OptionDef {
        uci: Some("UCI_ShowWDL"),
        ucci: "showwdl",
        aliases: &[],
        kind: Kind::Check { get: |o| o.show_wdl, set: |o, v| o.show_wdl = v },
        cecp: true,
        meaning: "win/draw/loss permille after the score in `info` lines (`score cp 35 wdl 412 301 287`), from the \
                  model fitted to the evaluation's own games (docs/tools.md, `chuhan wdl`)",
    },
    OptionDef {
        uci: Some("OwnBook"),
        ucci: "usebook",
        aliases: &[],
        kind: Kind::Check { get: |o| o.use_book, set: |o, v| o.use_book = v },
        cecp: true,
        meaning: "play from the opening book while it knows the position (not in `go infinite`, `go ponder` or with \
                  `searchmoves`)",
    },
    OptionDef {
        uci: Some("BookFile"),
        ucci: "bookfiles",
        aliases: &[],
        kind: Kind::Text {
            get: |o| o.book_files.clone(),
            set: |o, paths| {
                if paths.is_empty() {
                    o.book_files.clear();
                    o.book = None;
                } else {
                    o.book = Some(Arc::new(Book::load_list(paths)?));
                    o.book_files = paths.to_string();
                }
                Ok(())
            },
        },
        cecp: true,
        meaning: "book files in ElephantEye's `BOOK.DAT` format, several separated by `;`; a missing or damaged file \
                  is refused with the reason and the old book kept",
    },
    OptionDef {
        uci: Some("BookDepth"),
        ucci: "bookdepth",
        aliases: &[],
        kind: Kind::Spin {
            range: || (0, 1000),
            zero: None,
            get: |o| o.book_depth as i64,
            set: |o, v| o.book_depth = v as u32,
        },
        cecp: true,
        meaning: "the book is asked only in the first N plies of the game (counted from the FEN's move number)",
    },
    OptionDef {
        uci: Some("Style"),
        ucci: "style",
        aliases: &[],
        kind: Kind::Combo {
            vars: || Style::ALL.iter().map(|s| s.name()).collect(),
            alias: no_alias,
            get: |o| o.style.name(),
            set: |o, v| o.style = *Style::ALL.iter().find(|s| s.name() == v).expect("an advertised style"),
        },
        cecp: true,
        meaning: "attitude to draws: `solid` scores a draw +15 for itself in the search and accepts an offered draw \
                  (`go draw`) while its score is at most +60; `normal` 0 and +20; `risky` −30 (plays on) and accepts \
                  only at −60 or worse",
    },
    OptionDef {
        uci: Some("Randomness"),
        ucci: "randomness",
        aliases: &[],
        kind: Kind::Combo {
            vars: || Randomness::ALL.iter().map(|r| r.name()).collect(),
            alias: no_alias,
            get: |o| o.randomness.name(),
            set: |o, v| o.randomness = *Randomness::ALL.iter().find(|r| r.name() == v).expect("an advertised level"),
        },
        cecp: true,
        meaning: "variety in game moves: `none`, `tiny`, `small`, `medium`, `large`, `huge` let a move be chosen \
                  among lines scoring within 0, 5, 15, 30, 60, 120 of the best in reported units (the `cp`/`score` \
                  scale: +100 wins half the games, a pawn is about 40), weighted `margin + 1 − loss`; the search \
                  then scores 1, 2, 3, 4, 6, 8 lines exactly (more if `MultiPV` asks; only `MultiPV` of them are \
                  shown). Analysis (`go infinite`, or `go` with no limit) is \
                  never randomised (a `go ponder` search is: it is a game move once `ponderhit` comes), and a \
                  line lost by mate or by the rules is never chosen while the best is not",
    },
    OptionDef {
        uci: Some("Skill Level"),
        ucci: "skilllevel",
        aliases: &["skill"],
        kind: Kind::Spin {
            range: || (0, strength::FULL_LEVEL as i64),
            zero: None,
            get: |o| o.skill_level as i64,
            set: |o, v| o.skill_level = v as u32,
        },
        cecp: true,
        meaning: "playing strength; the highest is full strength. A lower level stops its search after a node count \
                  and plays one of 4–8 candidate moves with a chance falling with its score loss (never one the \
                  search sees lost while the best is not); the levels are about 120 Elo apart, measured in \
                  [`docs/strength.md`](strength.md). Analysis (`go infinite`) is never weakened; `go ponder` is",
    },
    OptionDef {
        uci: Some("UCI_LimitStrength"),
        ucci: "limitstrength",
        aliases: &[],
        kind: Kind::Check { get: |o| o.limit_strength, set: |o, v| o.limit_strength = v },
        cecp: true,
        meaning: "play at `UCI_Elo` instead of `Skill Level`",
    },
    OptionDef {
        uci: Some("UCI_Elo"),
        ucci: "elo",
        aliases: &[],
        kind: Kind::Spin {
            range: || {
                let (lo, hi) = strength::elo_range();
                (lo as i64, hi as i64)
            },
            zero: None,
            get: |o| o.elo as i64,
            set: |o, v| o.elo = v as i32,
        },
        cecp: true,
        meaning: "the Elo to play at, within the measured range (fractions of a level in between measured levels); \
                  the scale: ElephantEye with its book off at 100 ms a move is 2000 \
                  ([`docs/strength.md`](strength.md))",
    },
    OptionDef {
        uci: Some("Clear Hash"),
        ucci: "clearhash",
        aliases: &[],
        kind: Kind::Button(Change::ClearHash),
        cecp: true,
        meaning: "empty the hash table",
    },
    OptionDef {
        uci: None,
        ucci: "resign",
        aliases: &[],
        kind: Kind::Check { get: |o| o.resign, set: |o, v| o.resign = v },
        cecp: true,
        meaning: "answer `bestmove m resign` after three hopeless searches (score ≤ −1500)",
    },
    OptionDef {
        uci: None,
        ucci: "newgame",
        aliases: &[],
        kind: Kind::Button(Change::NewGame),
        cecp: false,
        meaning: "new game",
    },
];

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

impl OptionDef {
    /// Whether `setoption` with this (normalised) name means this option.
    fn is_named(&self, key: &str) -> bool {
        self.uci.is_some_and(|n| normalize(n) == key) || normalize(self.ucci) == key || self.aliases.contains(&key)
    }

    /// The name in a dialect (`None`: the option is not in it).
    pub fn name(&self, ucci: bool) -> Option<&'static str> {
        if ucci {
            Some(self.ucci)
        } else {
            self.uci
        }
    }

    /// The value now in `o` as the handshake writes it.
    pub fn value(&self, o: &Options) -> String {
        match &self.kind {
            Kind::Check { get, .. } => get(o).to_string(),
            Kind::Spin { get, .. } => get(o).to_string(),
            Kind::Combo { get, .. } => get(o).to_string(),
            Kind::Text { get, .. } => match get(o) {
                s if s.is_empty() => "<empty>".to_string(),
                s => s,
            },
            Kind::Button(_) => String::new(),
        }
    }

    /// The handshake's description after the name: `type spin default 16 min 1 max 65536`.
    pub fn declaration(&self, o: &Options) -> String {
        match &self.kind {
            Kind::Check { .. } => format!("type check default {}", self.value(o)),
            Kind::Spin { range, .. } => {
                let (lo, hi) = range();
                format!("type spin default {} min {lo} max {hi}", self.value(o))
            }
            Kind::Combo { vars, .. } => {
                let vars: String = vars().iter().map(|v| format!(" var {v}")).collect();
                format!("type combo default {}{vars}", self.value(o))
            }
            Kind::Text { .. } => format!("type string default {}", self.value(o)),
            Kind::Button(_) => "type button".to_string(),
        }
    }

    /// Applies a `setoption` value (`name` as the GUI wrote it, for messages).
    fn apply(&self, o: &mut Options, name: &str, value: Option<&str>) -> Result<Change, String> {
        let value = value.map(str::trim);
        let need = || value.filter(|s| !s.is_empty()).ok_or(format!("{name} needs a value"));
        match &self.kind {
            Kind::Check { set, .. } => {
                let v = match value {
                    None | Some("") => true,
                    Some(s) => parse_bool(s).ok_or(format!("{name} value '{s}' is not true or false"))?,
                };
                set(o, v);
            }
            Kind::Spin { range, zero, set, .. } => {
                let v = need()?;
                let (lo, hi) = range();
                let n = match zero {
                    Some(zero) if v == "0" => (zero.value)().clamp(lo, hi),
                    _ => parse_range(name, v, lo..=hi)?,
                };
                set(o, n);
            }
            Kind::Combo { vars, alias, set, .. } => {
                let v = need()?;
                let all = vars();
                let Some(chosen) = all.iter().copied().find(|x| x.eq_ignore_ascii_case(v)).or_else(|| alias(v)) else {
                    return Err(format!("{name} value '{v}' is not one of: {}", all.join(", ")));
                };
                set(o, chosen);
            }
            Kind::Text { set, .. } => {
                let v = value.unwrap_or("");
                set(o, if v == "<empty>" { "" } else { v })?;
            }
            Kind::Button(change) => return Ok(change.clone()),
        }
        Ok(Change::Set { resize_hash: false })
    }
}

/// The option table of docs/protocol.md, as generated from [`OPTIONS`] and the defaults.
pub fn document() -> String {
    let o = Options::default();
    let mut out = String::from("| option | default | values | meaning |\n|---|---|---|---|\n");
    for def in OPTIONS {
        let names = match def.uci {
            Some(uci) => format!("`{uci}` / `{}`", def.ucci),
            None => format!("`{}` (UCCI)", def.ucci),
        };
        let default = match &def.kind {
            Kind::Button(_) => "button".to_string(),
            Kind::Text { .. } => format!("`{}`", def.value(&o)),
            _ => def.value(&o),
        };
        let values = match &def.kind {
            Kind::Check { .. } => "true, false".to_string(),
            Kind::Spin { range, zero, .. } => {
                let (lo, hi) = range();
                match zero {
                    Some(zero) => format!("{lo}–{hi}; 0: {}", zero.means),
                    None => format!("{lo}–{hi}"),
                }
            }
            Kind::Combo { vars, .. } => vars().iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "),
            Kind::Text { .. } => "path".to_string(),
            Kind::Button(_) => "—".to_string(),
        };
        let meaning = def.meaning.split_whitespace().collect::<Vec<_>>().join(" ");
        out.push_str(&format!("| {names} | {default} | {values} | {meaning} |\n"));
    }
    out.push_str(&format!(
        "\nThe UCCI options {} are accepted and ignored (with an `info string`).\n",
        IGNORED.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" ")
    ));
    out
}

impl Options {
    /// The `option=` features of the XBoard protocol (`Style -combo solid /// *normal /// risky`), with the
    /// values in force.
    pub fn cecp_features(&self) -> Vec<String> {
        OPTIONS
            .iter()
            .filter(|d| d.cecp)
            .map(|d| {
                let name = d.uci.unwrap_or(d.ucci);
                match &d.kind {
                    Kind::Check { get, .. } => format!("{name} -check {}", get(self) as u8),
                    Kind::Spin { range, get, .. } => {
                        let (lo, hi) = range();
                        format!("{name} -spin {} {lo} {hi}", get(self))
                    }
                    Kind::Combo { vars, get, .. } => {
                        let now = get(self);
                        let vars: Vec<String> =
                            vars().iter().map(|v| if *v == now { format!("*{v}") } else { v.to_string() }).collect();
                        format!("{name} -combo {}", vars.join(" /// "))
                    }
                    Kind::Text { get, .. } => format!("{name} -string {}", get(self)),
                    Kind::Button(_) => format!("{name} -button"),
                }
            })
            .collect()
    }

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
        if let Some(def) = OPTIONS.iter().find(|d| d.is_named(&key)) {
            let hash = self.hash_mb;
            return match def.apply(self, name, value)? {
                Change::Set { .. } => Ok(Change::Set { resize_hash: self.hash_mb != hash }),
                other => Ok(other),
            };
        }
        if IGNORED.contains(&key.as_str()) {
            return Ok(Change::Ignored);
        }
        #[cfg(feature = "spsa")]
        if let Some(p) = crate::search::params::find(name) {
            let v = value.map(str::trim).filter(|s| !s.is_empty()).ok_or(format!("{name} needs a value"))?;
            p.set(parse_range(name, v, p.min..=p.max)?)?;
            return Ok(Change::Set { resize_hash: false });
        }
        Err(format!("unknown option '{name}'"))
    }

    /// The `option` lines of the handshake.
    pub fn advertise(&self, ucci: bool) -> Vec<String> {
        let mut lines: Vec<String> = OPTIONS
            .iter()
            .filter_map(|def| {
                let name = def.name(ucci)?;
                Some(match ucci {
                    true => format!("option {name} {}", def.declaration(self)),
                    false => format!("option name {name} {}", def.declaration(self)),
                })
            })
            .collect();
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
        assert_eq!((o.randomness, o.randomness.margin(), o.randomness.lines()), (Randomness::Small, 15, 3));
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

    /// docs/protocol.md's option table is the one [`document`] writes from the table (`CHUHAN_BLESS=1 cargo test
    /// the_document_lists_the_table` rewrites it after a change here).
    #[test]
    fn the_document_lists_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md");
        let doc = std::fs::read_to_string(path).unwrap();
        let (begin, end) = ("<!-- options: begin -->\n", "<!-- options: end -->");
        let (a, b) = (doc.find(begin).expect("begin marker") + begin.len(), doc.find(end).expect("end marker"));
        let want = document();
        if doc[a..b] != want && std::env::var_os("CHUHAN_BLESS").is_some() {
            std::fs::write(path, format!("{}{want}{}", &doc[..a], &doc[b..])).unwrap();
            return;
        }
        assert!(doc[a..b] == want, "docs/protocol.md's option table differs from the table; it should read:\n{want}");
    }

    /// Every option has its names once, a meaning, and a default within its range that `set` accepts back.
    #[test]
    fn the_table_holds_together() {
        let o = Options::default();
        let mut names = std::collections::HashSet::new();
        for def in OPTIONS {
            for n in
                def.uci.iter().chain([&def.ucci]).map(|n| normalize(n)).chain(def.aliases.iter().map(|a| a.to_string()))
            {
                assert!(
                    names.insert(n.clone()) || def.uci.is_some_and(|u| normalize(u) == normalize(def.ucci)),
                    "{n} twice"
                );
                assert!(!IGNORED.contains(&n.as_str()), "{n}");
            }
            assert!(!def.meaning.is_empty());
            if let Kind::Spin { range, get, .. } = &def.kind {
                let (lo, hi) = range();
                assert!(lo <= get(&o) && get(&o) <= hi, "{}", def.ucci);
            }
            if !matches!(def.kind, Kind::Button(_)) {
                let mut copy = o.clone();
                let value = def.value(&o);
                assert!(copy.set(def.ucci, Some(&value)).is_ok(), "{} {value}", def.ucci);
                assert_eq!(copy, o, "{}", def.ucci);
            }
        }
    }
}
