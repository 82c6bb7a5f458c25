//! Progress for long commands: a bar with rate and ETA on a terminal, plain periodic lines when stderr is a
//! file or a pipe (logs stay readable), nothing with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the plain lines come when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

pub struct Progress {
    label: String,
    total: u64,
    mode: Mode,
}

enum Mode {
    Quiet,
    Bar(ProgressBar),
    Plain(Mutex<Plain>),
}

struct Plain {
    done: u64,
    message: String,
    start: Instant,
    last: Instant,
}

impl Progress {
    /// Progress over `total` units (0: unknown).
    pub fn new(label: &str, total: u64, quiet: bool) -> Progress {
        let mode = if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total).filter(|&t| t > 0), ProgressDrawTarget::stderr());
            let template = if total > 0 {
                "{prefix} [{bar:30}] {human_pos}/{human_len} {per_sec} ETA {eta} {wide_msg}"
            } else {
                "{prefix} {spinner} {human_pos} {per_sec} {wide_msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(label.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            Mode::Bar(bar)
        } else {
            let now = Instant::now();
            Mode::Plain(Mutex::new(Plain { done: 0, message: String::new(), start: now, last: now }))
        };
        Progress { label: label.to_string(), total, mode }
    }

    /// Whether a bar is drawn (stderr is a terminal and not quiet).
    pub fn is_bar(&self) -> bool {
        matches!(self.mode, Mode::Bar(_))
    }

    pub fn inc(&self, n: u64) {
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(b) => b.inc(n),
            Mode::Plain(p) => {
                let mut p = p.lock().unwrap_or_else(|e| e.into_inner());
                p.done += n;
                if p.last.elapsed() >= PLAIN_EVERY {
                    p.last = Instant::now();
                    eprintln!("{}", self.line(&p));
                }
            }
        }
    }

    /// A status text shown beside the bar (and in the plain lines).
    pub fn set_message(&self, message: String) {
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(b) => b.set_message(message),
            Mode::Plain(p) => p.lock().unwrap_or_else(|e| e.into_inner()).message = message,
        }
    }

    /// A line on stderr, above the bar when there is one (printed even when quiet: callers decide).
    pub fn println(&self, line: &str) {
        match &self.mode {
            Mode::Bar(b) => b.println(line),
            Mode::Quiet | Mode::Plain(_) => eprintln!("{line}"),
        }
    }

    /// Clears the bar, or prints the last plain line.
    pub fn finish(&self) {
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(b) => b.finish_and_clear(),
            Mode::Plain(p) => {
                let p = p.lock().unwrap_or_else(|e| e.into_inner());
                if p.done > 0 && p.start.elapsed() >= PLAIN_EVERY {
                    eprintln!("{}", self.line(&p));
                }
            }
        }
    }

    fn line(&self, p: &Plain) -> String {
        let secs = p.start.elapsed().as_secs_f64().max(1e-9);
        let rate = p.done as f64 / secs;
        let mut s = match self.total {
            0 => format!("{}: {} done", self.label, p.done),
            t => format!("{}: {}/{t}", self.label, p.done),
        };
        s.push_str(&format!(", {secs:.0} s, {rate:.2}/s"));
        if self.total > p.done && rate > 0.0 {
            s.push_str(&format!(", ETA {:.0} s", (self.total - p.done) as f64 / rate));
        }
        if !p.message.is_empty() {
            s.push_str(&format!(" ({})", p.message));
        }
        s
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Mode::Bar(b) = &self.mode {
            if !b.is_finished() {
                b.finish_and_clear();
            }
        }
    }
}
