//! Time management: how long to think, from the clock the GUI sends ([`allocate`]), and when to stop
//! iterating ([`TimeManager`]).
//!
//! Two limits per move. The *soft* limit is the time we aim to use: iterative deepening does not start an
//! iteration it is unlikely to finish, and stable best moves stop earlier. The *hard* limit is never passed:
//! the search polls the clock and stops. Both keep a safety margin (the move overhead, for the GUI's and the
//! pipe's delays) so that the engine never loses on time.

use crate::types::Move;
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
    use super::params as p;
    let time = clock.time as f64;
    let inc = clock.increment as f64;
    let horizon = p::tm_horizon() as u32;
    let mtg = if clock.moves_to_go > 0 { clock.moves_to_go.min(horizon) } else { horizon } as f64;
    let left = (time + inc * (mtg - 1.0) - overhead as f64 * (2.0 + mtg)).max(1.0);
    let ply = ply as f64;
    let (opt_scale, max_scale) = if clock.moves_to_go == 0 {
        // A large increment pays for a little more now.
        let extra = (1.0 + p::tm_inc_bonus() as f64 * inc / time.max(1.0)).clamp(1.0, p::tm_inc_bonus_max());
        let by_ply = (ply + 3.0).powf(p::tm_ply_exp()) * p::tm_ply_share();
        let share = (p::tm_base_share() + by_ply).min(p::tm_max_share() * time / left);
        let hard = (p::tm_hard_base() + ply / p::tm_hard_ply_div() as f64).min(p::tm_hard_max());
        (share * extra, hard)
    } else {
        let share = (p::tm_mtg_base() + ply / p::tm_mtg_ply_div()) / mtg;
        let hard = p::tm_mtg_hard_base() + p::tm_mtg_hard_step() * mtg;
        (share.min(p::tm_mtg_base() * time / left), hard.min(p::tm_mtg_hard_max()))
    };
    let soft = (opt_scale * left) as u64;
    let hard = ((p::tm_clock_fraction() * time - overhead as f64).max(1.0)).min(max_scale * soft as f64) as u64;
    let soft = soft.min(hard).max(1);
    let hard = hard.max(soft);
    Allocation { soft: Duration::from_millis(soft), hard: Duration::from_millis(hard) }
}

/// For a fixed time per move (UCI `movetime`, match runners): use it all, less the overhead.
pub fn fixed(movetime: u64, overhead: u64) -> Allocation {
    let t = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
    Allocation { soft: t, hard: t }
}

/// What time management carries from one search of a game to the next: the last search's score and its
/// time-reduction factor. A new game starts from [`Carry::default`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Carry {
    score: Option<i32>,
    reduction: f64,
}

impl Default for Carry {
    fn default() -> Self {
        Carry { score: None, reduction: 1.0 }
    }
}

/// The time manager of one search: the move's limits, and after each iteration whether to start another.
///
/// Stockfish's scheme on the soft limit: more time when the score is falling (against the last move's search
/// and the iterations before) or the best move keeps changing, less when it has held for long. A fixed time per
/// move (soft = hard) is used in full: only the hard limit stops it.
#[derive(Clone, Debug)]
pub struct TimeManager {
    allocation: Option<Allocation>,
    infinite: bool,
    carried: Carry,
    /// This search's latest time-reduction factor (the carried one until an iteration sets it).
    reduction: f64,
    best: Option<Move>,
    best_since: i32,
    /// Best-move changes, halved each iteration so that recent ones weigh most.
    changes: f64,
    /// The best score of the last four iterations (seeded with the last search's).
    scores: [i32; 4],
    next: usize,
}

impl TimeManager {
    pub fn new(allocation: Option<Allocation>, infinite: bool, carried: Carry) -> TimeManager {
        TimeManager {
            allocation,
            infinite,
            carried,
            reduction: carried.reduction,
            best: None,
            best_since: 0,
            changes: 0.0,
            scores: [carried.score.unwrap_or(0); 4],
            next: 0,
        }
    }

    /// Whether the hard limit has passed (never while pondering or in infinite mode). `elapsed_ms` is asked only
    /// when it matters.
    #[inline]
    pub fn out_of_time(&self, pondering: bool, elapsed_ms: impl FnOnce() -> u64) -> bool {
        !pondering && !self.infinite && self.allocation.is_some_and(|t| elapsed_ms() >= t.hard.as_millis() as u64)
    }

    /// Records a finished iteration (its depth, best move and score; the score within the mate bounds) and says
    /// whether to stop: the scaled soft limit is nearly spent, or the only legal move has been searched a while.
    pub fn iteration_done(
        &mut self,
        depth: i32,
        best: Move,
        score: i32,
        elapsed_ms: u64,
        pondering: bool,
        only_move: bool,
    ) -> bool {
        use super::params as p;
        if self.best != Some(best) {
            if self.best.is_some() {
                self.changes += 1.0;
            }
            self.best = Some(best);
            self.best_since = depth;
        }
        let Some(t) = self.allocation else { return false };
        if self.infinite || pondering || t.soft >= t.hard {
            return false;
        }
        let now = score as f64;
        let before = self.carried.score.map_or(now, |v| v as f64);
        let drop_since_search = p::tm_falling_prev() as f64 * (before - now);
        let drop_since_iter = p::tm_falling_iter() as f64 * (self.scores[self.next] as f64 - now);
        let falling = ((p::tm_falling_base() as f64 + drop_since_search + drop_since_iter)
            / p::tm_falling_div() as f64)
            .clamp(p::tm_falling_min(), p::tm_falling_max());
        self.reduction = if self.best_since + p::tm_stable_depth() < depth {
            p::tm_stable_factor()
        } else {
            p::tm_unstable_factor()
        };
        let reduction = (p::tm_reduction_base() + self.carried.reduction) / (p::tm_reduction_div() * self.reduction);
        let instability = 1.0 + p::tm_instability() * self.changes;
        let total = t.soft.as_millis() as f64 * falling * reduction * instability;
        self.scores[self.next] = score;
        self.next = (self.next + 1) & 3;
        self.changes /= 2.0;
        // The next iteration would take about twice this one: stop a little short of the budget rather than
        // start one that runs far past it (the hard limit stops it in any case).
        elapsed_ms as f64 >= p::tm_stop_fraction() * total || only_move && depth >= 4
    }

    /// What the next search of the game starts from, given this one's final score (within the mate bounds).
    pub fn carry(&self, score: i32) -> Carry {
        Carry { score: Some(score), reduction: self.reduction }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

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

    /// The elapsed time at which a search with `allocation` stops iterating, the best move changing at every
    /// iteration or never, each iteration taking a twentieth of the soft limit.
    fn stops_at(allocation: Allocation, changing: bool, carried: Carry) -> Option<u64> {
        let mut tm = TimeManager::new(Some(allocation), false, carried);
        let moves = [
            Move::new(Square::from_index(1), Square::from_index(2)),
            Move::new(Square::from_index(3), Square::from_index(4)),
        ];
        (1..=100).find_map(|depth| {
            let best = moves[if changing { depth as usize % 2 } else { 0 }];
            let elapsed = ms(allocation.soft) / 20 * depth as u64;
            tm.iteration_done(depth, best, 0, elapsed, false, false).then_some(elapsed)
        })
    }

    #[test]
    fn the_time_manager_spends_less_on_a_stable_best_move() {
        let a = allocate(Clock { time: 60_000, increment: 0, moves_to_go: 0 }, 30, 20);
        let stable = stops_at(a, false, Carry::default()).unwrap();
        let changing = stops_at(a, true, Carry::default()).unwrap();
        assert!(stable < changing, "{stable} {changing}");
        // Never past the hard limit's share, never long before a third of the soft limit.
        assert!(changing <= ms(a.hard) && stable >= ms(a.soft) / 3, "{a:?} {stable} {changing}");
        // A falling score (the last search said +200, this one 0) buys more time.
        let falling = stops_at(a, false, Carry { score: Some(200), reduction: 1.0 }).unwrap();
        assert!(falling > stable, "{falling} {stable}");
    }

    #[test]
    fn the_time_manager_leaves_fixed_and_open_searches_alone() {
        let m = Move::new(Square::from_index(1), Square::from_index(2));
        // A fixed time per move is used in full; so is a search without a time limit, infinite or pondering.
        let mut fixed_tm = TimeManager::new(Some(fixed(100, 0)), false, Carry::default());
        assert!((1..50).all(|d| !fixed_tm.iteration_done(d, m, 0, 10_000, false, false)));
        assert!(fixed_tm.out_of_time(false, || 100) && !fixed_tm.out_of_time(false, || 99));
        let mut open = TimeManager::new(None, false, Carry::default());
        assert!(
            (1..50).all(|d| !open.iteration_done(d, m, 0, 10_000, false, true)) && !open.out_of_time(false, || 1 << 40)
        );
        let a = allocate(Clock { time: 1_000, increment: 0, moves_to_go: 0 }, 0, 0);
        let mut pondering = TimeManager::new(Some(a), false, Carry::default());
        assert!(!pondering.iteration_done(30, m, 0, 1_000_000, true, true) && !pondering.out_of_time(true, || 1 << 40));
        let infinite = TimeManager::new(Some(a), true, Carry::default());
        assert!(!infinite.out_of_time(false, || 1 << 40));
        // The only legal move: stop once it has been searched four plies deep.
        let mut only = TimeManager::new(Some(a), false, Carry::default());
        assert!(!only.iteration_done(3, m, 0, 0, false, true) && only.iteration_done(4, m, 0, 0, false, true));
    }

    #[test]
    fn the_carry_holds_the_last_score_and_reduction() {
        let a = allocate(Clock { time: 60_000, increment: 0, moves_to_go: 0 }, 30, 20);
        let m = Move::new(Square::from_index(1), Square::from_index(2));
        let mut tm = TimeManager::new(Some(a), false, Carry::default());
        assert_eq!(tm.carry(5), Carry { score: Some(5), reduction: 1.0 });
        for depth in 1..=12 {
            tm.iteration_done(depth, m, 0, 0, false, false);
        }
        // Stable for more than `tm_stable_depth` iterations: the stable factor.
        assert_eq!(tm.carry(-7), Carry { score: Some(-7), reduction: super::super::params::tm_stable_factor() });
    }
}
