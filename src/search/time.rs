//! Time management: how long to think, from the clock the GUI sends.
//!
//! Two limits per move. The *soft* limit is the time we aim to use: iterative deepening does not start an
//! iteration it is unlikely to finish, and stable best moves stop earlier. The *hard* limit is never passed:
//! the search polls the clock and stops. Both keep a safety margin (the move overhead, for the GUI's and the
//! pipe's delays) so that the engine never loses on time.

use std::time::Duration;

/// The clock as the GUI gives it, all in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Our remaining time.
    pub time: u64,
    /// Our increment per move.
    pub increment: u64,
    /// Moves until the next time control (0 = sudden death or increment).
    pub moves_to_go: u32,
}

/// Soft and hard limits for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    pub soft: Duration,
    pub hard: Duration,
}

/// Computes the limits. `overhead` is subtracted from every move's budget; `ply` (plies played so far) lets the
/// share of the clock grow as the game goes on.
///
/// The shape is Stockfish's (and Pikafish's): the clock is spread over a horizon of at most 50 moves (the
/// numbers are `tm_*` parameters in `search::params`), counting
/// the increments to come; a move's optimum share starts near 2 % of that and grows with the game ply, and the
/// hard limit is a few times the optimum but never more than 80 % of the clock. Games are mostly decided in the
/// middlegame, and an engine that saves its time for move 60 has often lost by then.
pub fn allocate(clock: Clock, overhead: u64, ply: usize) -> Allocation {
    use crate::search::params::{self as p, ratio};
    let time = clock.time as f64;
    let inc = clock.increment as f64;
    let horizon = p::tm_horizon() as u32;
    let mtg = if clock.moves_to_go > 0 { clock.moves_to_go.min(horizon) } else { horizon } as f64;
    let left = (time + inc * (mtg - 1.0) - overhead as f64 * (2.0 + mtg)).max(1.0);
    let ply = ply as f64;
    let (opt_scale, max_scale) = if clock.moves_to_go == 0 {
        // A large increment pays for a little more now.
        let extra =
            (1.0 + p::tm_inc_bonus() as f64 * inc / time.max(1.0)).clamp(1.0, ratio(p::tm_inc_bonus_max(), 1000.0));
        let by_ply = (ply + 3.0).powf(ratio(p::tm_ply_exp(), 100.0)) * ratio(p::tm_ply_share(), 10000.0);
        let share = (ratio(p::tm_base_share(), 10000.0) + by_ply).min(ratio(p::tm_max_share(), 1000.0) * time / left);
        let hard =
            (ratio(p::tm_hard_base(), 10.0) + ply / p::tm_hard_ply_div() as f64).min(ratio(p::tm_hard_max(), 10.0));
        (share * extra, hard)
    } else {
        let share = (ratio(p::tm_mtg_base(), 1000.0) + ply / ratio(p::tm_mtg_ply_div(), 10.0)) / mtg;
        let hard = ratio(p::tm_mtg_hard_base(), 100.0) + ratio(p::tm_mtg_hard_step(), 100.0) * mtg;
        (share.min(ratio(p::tm_mtg_base(), 1000.0) * time / left), hard.min(ratio(p::tm_mtg_hard_max(), 10.0)))
    };
    let soft = (opt_scale * left) as u64;
    let hard =
        ((ratio(p::tm_clock_fraction(), 1000.0) * time - overhead as f64).max(1.0)).min(max_scale * soft as f64) as u64;
    let soft = soft.min(hard).max(1);
    let hard = hard.max(soft);
    Allocation { soft: Duration::from_millis(soft), hard: Duration::from_millis(hard) }
}

/// For a fixed time per move (UCI `movetime`, match runners): use it all, less the overhead.
pub fn fixed(movetime: u64, overhead: u64) -> Allocation {
    let t = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
    Allocation { soft: t, hard: t }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn sudden_death_keeps_a_reserve() {
        let a = allocate(Clock { time: 60_000, increment: 0, moves_to_go: 0 }, 30, 0);
        assert!(ms(a.soft) > 500 && ms(a.soft) < 3_000, "{a:?}");
        assert!(ms(a.hard) >= ms(a.soft) && ms(a.hard) <= 20_000, "{a:?}");
        // Whatever the clock, the hard limit leaves the reserve untouched.
        for time in [10, 50, 200, 1_000, 5_000, 300_000] {
            let a = allocate(Clock { time, increment: 0, moves_to_go: 0 }, 30, 40);
            assert!(ms(a.hard) + 30 <= time.max(31), "time {time}: {a:?}");
            assert!(ms(a.soft) >= 1);
        }
    }

    #[test]
    fn increment_is_spent() {
        let a = allocate(Clock { time: 10_000, increment: 100, moves_to_go: 0 }, 10, 20);
        let b = allocate(Clock { time: 10_000, increment: 0, moves_to_go: 0 }, 10, 20);
        assert!(a.soft > b.soft);
        // Nearly out of time with an increment: play on the increment, never past the clock.
        let c = allocate(Clock { time: 150, increment: 100, moves_to_go: 0 }, 10, 20);
        assert!(ms(c.hard) < 150 - 10, "{c:?}");
    }

    #[test]
    fn the_share_grows_with_the_game() {
        // 10 s + 0.1 s at the start: about a third of a second, as Pikafish spends it; at most 80 % of the clock.
        let start = allocate(Clock { time: 10_000, increment: 100, moves_to_go: 0 }, 10, 0);
        assert!((250..=400).contains(&ms(start.soft)), "{start:?}");
        assert!(ms(start.hard) >= 3 * ms(start.soft) && ms(start.hard) <= 8_000, "{start:?}");
        let later = allocate(Clock { time: 10_000, increment: 100, moves_to_go: 0 }, 10, 60);
        assert!(later.soft > start.soft && later.hard > start.hard, "{later:?}");
    }

    #[test]
    fn moves_to_go() {
        let a = allocate(Clock { time: 60_000, increment: 0, moves_to_go: 10 }, 30, 0);
        assert!(ms(a.soft) > 4_000 && ms(a.soft) <= 6_000, "{a:?}");
        let last = allocate(Clock { time: 5_000, increment: 0, moves_to_go: 1 }, 30, 0);
        assert!(ms(last.hard) < 5_000 - 30, "{last:?}");
        assert!(ms(last.soft) > 2_000, "{last:?}");
    }

    #[test]
    fn fixed_time() {
        let a = fixed(1000, 50);
        assert_eq!((ms(a.soft), ms(a.hard)), (950, 950));
        assert_eq!(ms(fixed(10, 50).hard), 1);
    }
}
