//! Every tunable number of the search and the time manager, in one place: its name, default and range.
//!
//! A new evaluation changes the score scale, and then every margin below must be fitted again. In a normal
//! build each parameter is a constant (`params::razor_base()` compiles to its literal). Built with the `spsa`
//! feature (`cargo build --release --features spsa`), each one is a UCI/UCCI option of the same name, so that a
//! tuner can change them between games without a rebuild; `chuhan params --spsa` prints them in the input
//! format of SPSA tuners (OpenBench's `name, int, default, min, max, c_end, r_end`).
//!
//! All values are integers (what a tuner moves). Where the search needs a fraction, the parameter declares a
//! scale (`tm_stable_factor: 1967 / 1000`) and its accessor returns the fraction (1.967): integer-over-power-of-
//! ten divisions give exactly the same `f64` as the decimal literal they replace, so the default build plays bit
//! for bit as the literals did.

#[cfg(feature = "spsa")]
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// One tunable number.
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// 1 for a plain integer; otherwise the parameter stands for the fraction `value / scale` (its accessor
    /// returns that fraction as `f64`).
    pub scale: i32,
    /// What it does.
    pub doc: &'static str,
    #[cfg(feature = "spsa")]
    cell: &'static AtomicI32,
}

impl Param {
    /// The value in force.
    pub fn value(&self) -> i32 {
        #[cfg(feature = "spsa")]
        return self.cell.load(Relaxed);
        #[cfg(not(feature = "spsa"))]
        return self.default;
    }

    /// Sets the value (only in a build with the `spsa` feature; elsewhere the parameters are constants).
    #[cfg(feature = "spsa")]
    pub fn set(&self, v: i32) -> Result<(), String> {
        if !(self.min..=self.max).contains(&v) {
            return Err(format!("{} value {v} is out of range {}-{}", self.name, self.min, self.max));
        }
        self.cell.store(v, Relaxed);
        Ok(())
    }

    /// The SPSA step at the end of a tuning run (OpenBench's `c_end`): a twentieth of the range, at least 1.
    pub fn c_end(&self) -> f64 {
        ((self.max - self.min) as f64 / 20.0).max(1.0)
    }
}

/// The learning rate at the end of a tuning run (OpenBench's `r_end`), the same for every parameter.
pub const R_END: f64 = 0.002;

macro_rules! params {
    ($($(#[doc = $doc:literal])+ $name:ident: $default:literal $(/ $scale:literal)?, $min:literal..=$max:literal;)+) => {
        /// Each parameter's value: a constant, or with the `spsa` feature an atomic cell set through the options.
        #[allow(non_upper_case_globals)]
        mod cells {
            #[cfg(feature = "spsa")]
            use std::sync::atomic::AtomicI32;
            $(
                #[cfg(feature = "spsa")]
                pub static $name: AtomicI32 = AtomicI32::new($default);
            )+
        }

        $(
            accessor!($(#[doc = $doc])+ $name: $default $(/ $scale)?);
        )+

        /// Every parameter, in the order they are listed here.
        pub static ALL: &[Param] = &[$(
            Param {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                scale: scale!($($scale)?),
                doc: concat!($($doc),+),
                #[cfg(feature = "spsa")]
                cell: &cells::$name,
            },
        )+];
    };
}

/// A parameter's integer value in force (a literal in a normal build).
macro_rules! raw {
    ($name:ident, $default:literal) => {{
        #[cfg(feature = "spsa")]
        let v = cells::$name.load(Relaxed);
        #[cfg(not(feature = "spsa"))]
        let v = $default;
        v
    }};
}

/// The accessor: the integer itself, or with a scale the fraction it stands for (`value / scale` as `f64`).
macro_rules! accessor {
    ($(#[doc = $doc:literal])+ $name:ident: $default:literal) => {
        $(#[doc = $doc])+
        #[inline(always)]
        pub fn $name() -> i32 {
            raw!($name, $default)
        }
    };
    ($(#[doc = $doc:literal])+ $name:ident: $default:literal / $scale:literal) => {
        $(#[doc = $doc])+
        #[doc = concat!("\n\nA fraction: the integer parameter over ", stringify!($scale), ".")]
        #[inline(always)]
        pub fn $name() -> f64 {
            raw!($name, $default) as f64 / $scale as f64
        }
    };
}

macro_rules! scale {
    () => {
        1
    };
    ($scale:literal) => {
        $scale
    };
}

params! {
    // ----- Late-move reductions ---------------------------------------------------------------------------
    /// LMR table: reduction = base + ln(depth) ln(moves) / divisor.
    lmr_base: 101 / 100, 0..=200;
    /// LMR table divisor.
    lmr_divisor: 244 / 100, 100..=500;
    /// Late-move reductions start at this depth.
    lmr_min_depth: 3, 1..=6;
    /// A quiet move's history shortens its reduction by one ply per this much.
    lmr_history_div: 8228, 2000..=30000;
    /// LMR: extra reduction at non-PV nodes.
    lmr_non_pv: 1, 0..=3;
    /// LMR: extra reduction at expected cut nodes.
    lmr_cut_node: 1, 0..=3;
    /// LMR: less reduction when the static evaluation improves.
    lmr_improving: 1, 0..=3;
    /// LMR: less reduction for checking moves.
    lmr_check: 1, 0..=3;
    /// Root moves after the first few are reduced a ply from this depth on.
    root_reduction_depth: 4, 2..=10;
    /// Root moves from this one on (counted after the principal line's) are reduced.
    root_reduction_moves: 4, 1..=12;
    // ----- Node pruning ------------------------------------------------------------------------------------
    /// Razoring: only at or below this depth.
    razor_depth: 3, 1..=6;
    /// Razoring margin: base + mul × depth².
    razor_base: 450, 100..=1500;
    /// Razoring margin's depth² factor.
    razor_mul: 450, 100..=1500;
    /// Reverse futility: only at or below this depth.
    rfp_depth: 8, 2..=14;
    /// Reverse futility margin per ply of depth (one ply less when improving).
    rfp_margin: 195, 50..=800;
    /// Null move: only from this depth on.
    nmp_min_depth: 3, 1..=6;
    /// Null-move reduction: base + depth / depth_div + min((eval − beta) / eval_div, eval_max).
    nmp_base: 3, 1..=6;
    /// Null-move reduction's depth divisor.
    nmp_depth_div: 4, 2..=8;
    /// Null-move reduction's eval-margin divisor.
    nmp_eval_div: 143, 50..=800;
    /// Null-move reduction's largest eval-margin term.
    nmp_eval_max: 3, 0..=6;
    /// Null-move cut-offs are verified from this depth on (and always with neither rook nor cannon left).
    nmp_verify_depth: 12, 6..=30;
    /// Internal iterative reduction: a node without a hash move loses a ply from this depth on.
    iir_depth: 4, 2..=10;
    // ----- Move pruning ------------------------------------------------------------------------------------
    /// Late-move pruning: only at or below this depth.
    lmp_depth: 8, 2..=14;
    /// Late-move pruning: quiets after (base + depth²) / (improving ? 1 : 2) are skipped.
    lmp_base: 7, 0..=10;
    /// Futility pruning of quiets: only at or below this reduced depth.
    futility_depth: 6, 1..=12;
    /// Futility margin: base + mul × reduced depth + history / history_div.
    futility_base: 148, 0..=600;
    /// Futility margin per ply of reduced depth.
    futility_mul: 220, 50..=600;
    /// Futility margin's history divisor.
    futility_history_div: 64, 16..=256;
    /// History pruning: only at or below this reduced depth.
    history_prune_depth: 4, 1..=8;
    /// History pruning: quiets whose history is below −mul × depth are skipped.
    history_prune_mul: 3443, 500..=8000;
    /// SEE pruning of quiets: threshold −(sq × d² + lin × d), d the reduced depth.
    see_quiet_sq: 35, 0..=120;
    /// SEE pruning of quiets, linear term.
    see_quiet_lin: 61, 0..=200;
    /// SEE pruning of captures and checks: only at or below this depth.
    see_capture_depth: 7, 2..=12;
    /// SEE pruning of captures: threshold −mul × depth + base.
    see_capture_mul: 300, 50..=800;
    /// SEE pruning of captures, constant term.
    see_capture_base: 50, -200..=300;
    // ----- Extensions -------------------------------------------------------------------------------------
    /// Check extension: a side in check gains a ply while ply < root depth × mul / 100 + add.
    check_ext_mul: 100, 0..=300;
    /// Check extension's constant term.
    check_ext_add: 0, 0..=16;
    /// Singular extension: only from this depth on.
    singular_depth: 7, 4..=12;
    /// Singular extension: the hash entry may be this much shallower than the node.
    singular_tt_depth: 3, 1..=6;
    /// Singular extension: the margin below the hash score, per ply of depth.
    singular_margin: 2, 1..=8;
    // ----- Quiescence -------------------------------------------------------------------------------------
    /// Quiescence futility: a capture must be able to lift stand-pat + this to alpha.
    qs_futility: 100, 0..=400;
    /// Quiescence: past this many captures, only checks and recaptures are searched.
    qs_captures: 2, 0..=8;
    /// Quiescence: a capture's futility gain is its victim's SEE value times this (SEE counts a rook 900).
    qs_see_scale: 2, 1..=4;
    /// Quiescence in check: stop after this many quiet evasions once one saved us from mate.
    qs_quiet_evasions: 2, 1..=6;
    // ----- Aspiration windows -----------------------------------------------------------------------------
    /// Aspiration windows from this depth on.
    aspiration_depth: 4, 2..=10;
    /// Initial aspiration half-width.
    aspiration_delta: 30, 5..=150;
    /// Aspiration: the window grows by this percentage after each fail.
    aspiration_growth: 50, 10..=200;
    // ----- Histories --------------------------------------------------------------------------------------
    /// History bonus for a cut-off: min(mul × depth − sub, max).
    history_bonus_mul: 170, 50..=400;
    /// History bonus, subtracted term.
    history_bonus_sub: 80, 0..=300;
    /// History bonus, largest value.
    history_bonus_max: 2400, 800..=4000;
    /// A quiet move all of whose replies failed low earns this many quarters of a cutoff's history bonus.
    prior_bonus: 4, 0..=8;
    /// Capture ordering: capture history counts this fraction (1/div) against MVV-LVA.
    capture_history_div: 8, 2..=32;
    /// Correction history: weight of the king-and-pawn table, in sixteenths.
    correction_pawn_weight: 2, 0..=6;
    /// Correction history: weight of the material table, in sixteenths.
    correction_material_weight: 1, 0..=6;
    /// Correction history: an update moves the entry by (search − static eval) × depth / this.
    correction_update_div: 8, 2..=32;
    // ----- Time: when to stop iterating (the soft limit scaled, Stockfish's shape) -------------------------
    /// Falling-score factor: (base + prev × (last search − score) + iter × (older iteration − score)) / div.
    tm_falling_base: 75, 0..=300;
    /// Falling-score factor: weight of the drop since the last search.
    tm_falling_prev: 12, 0..=40;
    /// Falling-score factor: weight of the drop since four iterations ago.
    tm_falling_iter: 6, 0..=20;
    /// Falling-score factor: divisor.
    tm_falling_div: 694, 200..=2000;
    /// Falling-score factor: lower bound.
    tm_falling_min: 500 / 1000, 200..=1000;
    /// Falling-score factor: upper bound.
    tm_falling_max: 1500 / 1000, 1000..=3000;
    /// Best move stable for more than this many iterations: time shrinks.
    tm_stable_depth: 8, 2..=16;
    /// Time-reduction factor while the best move is stable.
    tm_stable_factor: 1967 / 1000, 1000..=3000;
    /// Time-reduction factor otherwise.
    tm_unstable_factor: 821 / 1000, 400..=1500;
    /// Reduction: (base + last reduction) / (div × reduction factor).
    tm_reduction_base: 1664 / 1000, 500..=3000;
    /// Reduction divisor.
    tm_reduction_div: 2068 / 1000, 1000..=4000;
    /// Instability: 1 + this × (decayed best-move changes).
    tm_instability: 1700 / 1000, 0..=4000;
    /// Stop when this fraction of the scaled budget is used (the next iteration would overrun).
    tm_stop_fraction: 750 / 1000, 300..=1000;
    // ----- Time: the budget for one move (time.rs) ---------------------------------------------------------
    /// The clock is spread over at most this many moves.
    tm_horizon: 50, 10..=100;
    /// Increment bonus: 1 + this × increment / time, capped by `tm_inc_bonus_max`.
    tm_inc_bonus: 12, 0..=40;
    /// Increment bonus cap.
    tm_inc_bonus_max: 1120 / 1000, 1000..=1500;
    /// Sudden death: optimum share = base + (ply + 3)^exp × ply_share.
    tm_base_share: 120 / 10000, 0..=500;
    /// Sudden death: the ply term's factor.
    tm_ply_share: 39 / 10000, 0..=200;
    /// Sudden death: the ply term's exponent.
    tm_ply_exp: 45 / 100, 10..=90;
    /// Sudden death: optimum share at most this of time / horizon budget.
    tm_max_share: 200 / 1000, 50..=500;
    /// Sudden death: hard limit at most (base + ply / ply_div) × optimum, capped.
    tm_hard_base: 40 / 10, 10..=100;
    /// Sudden death: hard-limit growth, one unit per this many plies.
    tm_hard_ply_div: 12, 4..=40;
    /// Sudden death: hard-limit factor cap.
    tm_hard_max: 70 / 10, 20..=150;
    /// Moves to go: optimum share (base + ply / ply_div) / moves to go.
    tm_mtg_base: 880 / 1000, 300..=2000;
    /// Moves to go: the ply divisor.
    tm_mtg_ply_div: 1164 / 10, 300..=3000;
    /// Moves to go: hard factor base + step × moves to go, capped.
    tm_mtg_hard_base: 150 / 100, 50..=400;
    /// Moves to go: hard factor per move to go.
    tm_mtg_hard_step: 11 / 100, 0..=50;
    /// Moves to go: hard factor cap.
    tm_mtg_hard_max: 63 / 10, 20..=150;
    /// The hard limit never passes this fraction of the clock.
    tm_clock_fraction: 800 / 1000, 300..=950;
}

/// A parameter by name (case-insensitive).
pub fn find(name: &str) -> Option<&'static Param> {
    ALL.iter().find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

/// The tuner's input: one `name, int, default, min, max, c_end, r_end` line per parameter.
pub fn spsa_lines() -> Vec<String> {
    ALL.iter()
        .map(|p| format!("{}, int, {}, {}, {}, {}, {}", p.name, p.value(), p.min, p.max, p.c_end(), R_END))
        .collect()
}

/// The option lines of the handshake, when the parameters are settable (`spsa` feature); none otherwise.
pub fn advertise(ucci: bool) -> Vec<String> {
    if !cfg!(feature = "spsa") {
        return Vec::new();
    }
    ALL.iter()
        .map(|p| {
            let rest = format!("type spin default {} min {} max {}", p.value(), p.min, p.max);
            if ucci {
                format!("option {} {rest}", p.name)
            } else {
                format!("option name {} {rest}", p.name)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        for (i, p) in ALL.iter().enumerate() {
            assert!((p.min..=p.max).contains(&p.default), "{}", p.name);
            assert!(p.min < p.max, "{}", p.name);
            assert!(ALL[..i].iter().all(|q| !q.name.eq_ignore_ascii_case(p.name)), "{} twice", p.name);
            assert!(!p.doc.is_empty());
        }
        assert!(ALL.len() >= 70, "{}", ALL.len());
        assert_eq!(find("LMR_BASE").map(|p| p.default), Some(101));
        assert!(find("nonesuch").is_none());
    }

    /// The accessors give the table's values, and the fractions are the literals they replaced.
    #[test]
    fn accessors_and_fractions() {
        assert_eq!(razor_base(), find("razor_base").unwrap().value());
        assert_eq!(lmr_base(), 1.01);
        assert_eq!(lmr_divisor(), 2.44);
        assert_eq!(tm_stable_factor(), 1.967);
        assert_eq!(tm_base_share(), 0.012);
        assert_eq!(tm_ply_share(), 0.0039);
        assert_eq!(tm_mtg_ply_div(), 116.4);
        assert_eq!((find("tm_mtg_ply_div").unwrap().scale, find("razor_base").unwrap().scale), (10, 1));
    }

    #[test]
    fn spsa_format() {
        let lines = spsa_lines();
        assert_eq!(lines.len(), ALL.len());
        assert_eq!(lines[0], "lmr_base, int, 101, 0, 200, 10, 0.002");
        assert!(lines.iter().all(|l| l.split(", ").count() == 7));
    }
}
