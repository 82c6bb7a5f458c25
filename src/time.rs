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

/// Computes the limits. `overhead` is subtracted from every move's budget; `ply` (moves played so far)
/// spends a little more in the opening-to-middlegame than in long endings.
pub fn allocate(clock: Clock, overhead: u64, ply: usize) -> Allocation {
    let time = clock.time;
    // What must stay on the clock whatever happens: the overhead for this move and a reserve.
    let reserve = overhead + (time / 50).min(1000);
    let usable = time.saturating_sub(reserve);
    let (soft, hard) = if clock.moves_to_go > 0 {
        let mtg = clock.moves_to_go.min(50) as u64;
        let base = usable / mtg + clock.increment * 3 / 4;
        // With only a few moves left before the control, do not spend the last move's time on this one.
        let cap = if mtg == 1 { usable * 9 / 10 } else { usable * 4 / 10 };
        (base.min(cap), (base * 4).min(cap.max(base)))
    } else {
        // Sudden death or increment: assume about 30 more moves, fewer as the game goes on.
        let expected = (40u64.saturating_sub(ply as u64 / 8)).max(20);
        let base = usable / expected + clock.increment * 3 / 4;
        let cap = usable / 3;
        (base.min(cap), (base * 5).min(cap.max(1)))
    };
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
