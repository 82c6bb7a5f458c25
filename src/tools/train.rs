//! `chuhan train`: the command line of `nnue::train`. It reads the game files (`chuhan datagen`), holds out a
//! share of the games for validation by a hash of their (seed, number), and trains.

use super::args::in_range;
use super::progress::Progress;
use super::xqg;
use crate::nnue::features::FeatureSet;
use crate::nnue::network::{Network, MAX_OUTPUT_BUCKETS};
use crate::nnue::train::checkpoint::{load_checkpoint, save_checkpoint};
use crate::nnue::train::TrainConfig;
use crate::nnue::train::DEFAULT_LAYOUT;
use crate::nnue::train::{
    encode_records, quantisation_error, records, streamed_losses, train, Adam, Layout, Loader, Model, Sample,
};
use std::time::Instant;

/// The positions of a game worth learning from: past the first `min_ply` plies, not in check, the move
/// played not a capture, the score not a mate or a won game.
pub fn samples_of(game: &xqg::Game, min_ply: usize, out: &mut Vec<Sample>) -> Result<(), String> {
    let red = game.result_for_red();
    let mut ply = 0;
    game.replay(|pos, m, score| {
        if ply >= min_ply && !pos.in_check() && !pos.is_capture(m) && (score as i32).abs() < 2000 {
            out.push(Sample::from_position(pos, score as i32, red));
        }
        ply += 1;
    })
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan train --data data/gen6-s61.xqg --out data/net.nnue --epochs 4 --threads 2
  chuhan train --data data/gen9.xqg --init nnue/net8.nnue --features king-buckets-2 --hidden 512 \\
               --out data/wide.nnue --epochs 2 --lr 0.0005
  chuhan train --data data/gen1.xqg --out data/net.nnue --checkpoint data/net.ckpt --resume data/net.ckpt
  chuhan train --data data/gen9.xqg --init nnue/net8.nnue --epochs 0 --out data/same.nnue   # only measure
  chuhan train --data data/gen9.xqg --init nnue/net8.nnue --epochs 1 --lr 0.0002 --lr-end 0.00001 \
               --average 3 --out data/soup.nnue   # the mean of three runs

The held-out loss is shown three ways: against the training target (--wdl's blend), against the search scores
alone and against the game results alone; the last is the fair one between networks that did not play the games.

A new network is king-bucketed (king-buckets-2: six planes chosen by the own king's point, the board reflected so
that a position and its mirror image read alike, and its colour-flipped twin too), 512 hidden units and 8 output
buckets unless told otherwise. --init starts from a network's weights; given a larger layout than that network's,
it grows it so that it starts as the same function (each king bucket a copy of its plane, each output bucket of
its output, new hidden units silent); given the other king-bucket rule, it takes the weights as they are.
The same data, seed and options give the same network, whatever the number of threads.")]
pub struct TrainArgs {
    /// Game files from `chuhan datagen` (several words, or one quoted list)
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub data: Vec<String>,
    /// The network file to write
    #[arg(long, value_name = "NET")]
    pub out: String,
    /// Inputs: plain (net0–net5), king-buckets (net6–net8) or king-buckets-2 (net9 on: colour-symmetric too)
    /// [default: king-buckets-2, or --init's]
    #[arg(long, value_name = "SET", value_parser = parse_features)]
    pub features: Option<FeatureSet>,
    /// Hidden units per side, a multiple of 16 [default: 512, or --init's]
    #[arg(long, value_parser = in_range(16usize..=4096))]
    pub hidden: Option<usize>,
    /// Output buckets, chosen by the number of pieces on the board [default: 8, or --init's]
    #[arg(long, value_parser = in_range(1usize..=MAX_OUTPUT_BUCKETS))]
    pub output_buckets: Option<usize>,
    /// Passes over the training positions (without --lr-end the learning rate drops tenfold from 70 % of the run
    /// on: for the last of 4 epochs, the last 3 of 10, not at all in runs of 1 to 3); 0 measures the --init network on the
    /// held-out positions and writes it as it is (grown into the asked layout)
    #[arg(long, default_value_t = 30, value_parser = in_range(0usize..=10_000))]
    pub epochs: usize,
    /// Positions per mini-batch
    #[arg(long, default_value_t = 16384, value_parser = in_range(1usize..=1 << 24))]
    pub batch: usize,
    /// AdamW learning rate (at the run's start)
    #[arg(long, default_value_t = 0.001, value_parser = in_range(1e-6f32..=1.0))]
    pub lr: f32,
    /// Let the learning rate fall from --lr to this one along a cosine, position by position over the whole
    /// run (without it: --lr, dropped tenfold for the last epochs as --epochs says)
    #[arg(long, value_name = "LR", value_parser = in_range(0.0f32..=1.0))]
    pub lr_end: Option<f32>,
    /// Weight of the game result in the target (the rest is the search score)
    #[arg(long, default_value_t = 0.3, value_parser = in_range(0.0f32..=1.0))]
    pub wdl: f32,
    /// Seed of the initial weights and the shuffles
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=256))]
    pub threads: usize,
    /// Percentage of the games held out for validation (chosen by a hash of the game)
    #[arg(long, default_value_t = 5, value_parser = in_range(0u64..=50))]
    pub val_percent: u64,
    /// Positions before this ply are not used
    #[arg(long, default_value_t = 8, value_parser = in_range(0usize..=200))]
    pub min_ply: usize,
    /// Add every training position mirrored left to right (plain networks only: king-bucketed ones read a
    /// position and its mirror image alike, so the copies would add nothing)
    #[arg(long)]
    pub mirror: bool,
    /// Where the training records go (36 bytes a position, streamed from disk every epoch; the held-out ones
    /// to FILE.val), kept afterwards [default: OUT.records, removed at the end]
    #[arg(long, value_name = "FILE")]
    pub records: Option<String>,
    /// Write a checkpoint here after every epoch
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<String>,
    /// Continue from a checkpoint
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
    /// Start from this network's weights instead of random ones (a generation trained on from the last)
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    pub init: Option<String>,
    /// Train K runs from the same start (--init's network, or --seed's random one) on the shuffles of seeds
    /// S, S + 1 … and write the mean of their weights, which generalises better than one run (a "model soup");
    /// K times the training time
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = in_range(1usize..=64),
          conflicts_with_all = ["checkpoint", "resume"])]
    pub average: usize,
    /// No progress bar (the per-epoch lines stay)
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_features(s: &str) -> Result<FeatureSet, String> {
    FeatureSet::parse(s).ok_or_else(|| {
        let names: Vec<&str> = FeatureSet::ALL.iter().map(|f| f.name()).collect();
        format!("'{s}' is not a feature set ({})", names.join(", "))
    })
}

/// The layout asked for: each of --features, --hidden and --output-buckets, or `base`'s where not given.
fn asked_layout(args: &TrainArgs, base: Layout) -> Result<Layout, String> {
    let layout = Layout {
        features: args.features.unwrap_or(base.features),
        hidden: args.hidden.unwrap_or(base.hidden),
        output_buckets: args.output_buckets.unwrap_or(base.output_buckets),
    };
    if !layout.hidden.is_multiple_of(16) {
        return Err(format!("train: --hidden {} is not a multiple of 16", layout.hidden));
    }
    Ok(layout)
}

/// Held-out positions on which the float model and the quantised network are compared at the end.
const QUANTISATION_SAMPLE: usize = 20_000;

/// The game files in groups that can be taken one after another in (seed, number) order: files whose ranges of
/// (seed, number) overlap (shards of one seed, say) share a group, and the groups come in the order of their
/// ranges. Each file is read once here and once more when its group is written out, so memory holds one
/// group's games, never the whole data set. A file without games is left out.
fn file_groups<'a>(paths: &[&'a str]) -> Result<Vec<Vec<&'a str>>, String> {
    let mut ranges = Vec::new();
    for &path in paths {
        // Damage is reported when the group is read.
        let games = xqg::decode(&std::fs::read(path).map_err(|e| format!("{path}: {e}"))?).games;
        let keys = games.iter().map(|g| (g.seed, g.index));
        if let (Some(lo), Some(hi)) = (keys.clone().min(), keys.max()) {
            ranges.push((lo, hi, path));
        }
    }
    ranges.sort_unstable();
    let mut groups: Vec<((u64, u64), Vec<&str>)> = Vec::new();
    for (lo, hi, path) in ranges {
        match groups.last_mut() {
            Some((end, group)) if lo <= *end => {
                group.push(path);
                *end = (*end).max(hi);
            }
            _ => groups.push((hi, vec![path])),
        }
    }
    Ok(groups.into_iter().map(|(_, g)| g).collect())
}

/// The held-out loss against the training target, then against the search scores alone and the game results
/// alone. The results are the fair judge between networks whose own searches did not make the scores: a
/// symmetric network cannot follow the asymmetry of the network that played the games.
fn validation(model: &Model, val_set: &mut Loader, wdl: f32) -> Result<String, String> {
    let [target, scores, results] = streamed_losses(model, val_set, [wdl, 0.0, 1.0])?;
    Ok(format!("{target:.6} (scores {scores:.6}, results {results:.6})"))
}

/// `chuhan train`: a network from game files.
pub fn run(args: TrainArgs) -> Result<(), String> {
    let out = args.out.clone();
    let cfg = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_end: args.lr_end,
        wdl: args.wdl,
        seed: args.seed,
    };
    let (threads, val_percent, min_ply) = (args.threads, args.val_percent, args.min_ply);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;

    // `--epochs 0` writes the --init network as it is: with its own output scale.
    let mut init_qb = None;
    let (mut model, mut adam, first) = match &args.resume {
        Some(path) => {
            let (m, a, e) = load_checkpoint(path)?;
            eprintln!("train: resuming {path} after epoch {e}");
            (m, a, e)
        }
        None => {
            let m = match &args.init {
                Some(path) => {
                    let net = Network::load(path).map_err(|e| format!("train: {e}"))?;
                    init_qb = Some(net.qb);
                    let m = Model::from_network(&net).map_err(|e| format!("train: {e}"))?;
                    let layout = asked_layout(&args, m.layout)?;
                    if layout == m.layout {
                        m
                    } else {
                        m.widen(layout, cfg.seed).map_err(|e| format!("train: {e}"))?
                    }
                }
                None => Model::new(asked_layout(&args, DEFAULT_LAYOUT)?, cfg.seed),
            };
            let n = m.params();
            (m, Adam::new(n), 0)
        }
    };
    let layout = model.layout;

    let start = Instant::now();
    let paths: Vec<&str> = args.data.iter().flat_map(|d| d.split_whitespace()).collect();
    let mirror = args.mirror && layout.features == FeatureSet::Plain;
    if args.mirror && !mirror {
        eprintln!(
            "train: --mirror adds nothing to a {} network (a position and its mirror image are one input); not used",
            layout.features.name()
        );
    }
    // The training positions and the held-out ones go to two records files: memory holds one group of game
    // files at a time (`file_groups`), never the data set.
    let records_path = args.records.clone().unwrap_or_else(|| format!("{out}.records"));
    let val_path = format!("{records_path}.val");
    let mut writer = records::Writer::create(&records_path).map_err(|e| format!("train: {e}"))?;
    let mut val_writer = records::Writer::create(&val_path).map_err(|e| format!("train: {e}"))?;
    let (mut games, mut samples) = (0, Vec::new());
    for group in file_groups(&paths)? {
        let mut all = Vec::new();
        for path in group {
            all.extend(xqg::read(path)?);
        }
        // The same games make the same network whatever order the files and their chunks are in (datagen's
        // threads write games as they finish, so two runs of one command order them differently): by (seed,
        // number), once. Groups do not overlap, so group by group is that order too.
        all.sort_unstable_by_key(|g| (g.seed, g.index));
        all.dedup_by_key(|g| (g.seed, g.index));
        games += all.len();
        for g in all {
            // Held out by a hash of (seed, number), so the split too is the same for the same games.
            let h = (g.seed ^ g.index.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xff51_afd7_ed55_8ccd) >> 33;
            samples.clear();
            samples_of(&g, min_ply, &mut samples)?;
            for s in &samples {
                if h % 100 < val_percent {
                    val_writer.push(s)?;
                    continue;
                }
                writer.push(s)?;
                if mirror {
                    writer.push(&s.mirrored())?;
                }
            }
        }
    }
    writer.finish().map_err(|e| format!("train: {records_path}: {e}"))?;
    val_writer.finish().map_err(|e| format!("train: {val_path}: {e}"))?;
    let mut loader = Loader::open(&records_path).map_err(|e| format!("train: {e}"))?;
    let mut val_set = Loader::open(&val_path).map_err(|e| format!("train: {e}"))?;
    eprintln!(
        "train: {games} games, {} training positions (in {records_path}, {:.0} MB) and {} validation ({:.1} s to \
         read); a {} network of {} hidden units and {} output buckets",
        loader.len(),
        (loader.len() * records::RECORD_BYTES) as f64 / 1e6,
        val_set.len(),
        start.elapsed().as_secs_f64(),
        layout.features.name(),
        layout.hidden,
        layout.output_buckets
    );
    if loader.is_empty() {
        return Err("train: no training positions in the data".into());
    }
    if let (Some(path), 0) = (&args.init, first) {
        let val = pool.install(|| validation(&model, &mut val_set, cfg.wdl)).map_err(|e| format!("train: {e}"))?;
        eprintln!("train: starting from {path}, validation {val}");
    }
    let checkpoint = args.checkpoint.clone();
    let runs = args.average;
    let epochs_left = (cfg.epochs - first.min(cfg.epochs)) as u64;
    let bar = Progress::new("train", runs as u64 * epochs_left * loader.len() as u64, args.quiet);
    let began = Instant::now();
    // With --average K, K runs from the same start on the shuffles of seeds S, S + 1 …, then their mean.
    let start = (runs > 1).then(|| (model.clone(), adam.clone()));
    let mut finished = Vec::new();
    let mut trained = Ok(());
    for run in 0..runs {
        if let Some((m, a)) = &start {
            (model, adam) = (m.clone(), a.clone());
            bar.println(&format!("run {}/{runs} (shuffle seed {})", run + 1, cfg.seed + run as u64));
        }
        let cfg = TrainConfig { seed: cfg.seed + run as u64, ..cfg.clone() };
        let done_before = run as f64 * epochs_left as f64;
        trained = pool.install(|| {
            let batch_done = |n: usize| bar.inc(n as u64);
            train(&mut model, &mut adam, &mut loader, &cfg, first, batch_done, |epoch, m, a, loss, rate| {
                let val = validation(m, &mut val_set, cfg.wdl).unwrap_or_else(|e| format!("failed: {e}"));
                let done = done_before + (epoch - first) as f64;
                let eta = began.elapsed().as_secs_f64() / done * (runs as f64 * epochs_left as f64 - done);
                bar.println(&format!(
                    "epoch {epoch:>3}/{}: loss {loss:.6}, validation {val}, {rate:.0} positions/s, ETA {eta:.0} s",
                    cfg.epochs
                ));
                if let Some(path) = &checkpoint {
                    if let Err(e) = save_checkpoint(path, m, a, epoch) {
                        eprintln!("train: cannot write checkpoint {path}: {e}");
                    }
                }
            })
        });
        if trained.is_err() {
            break;
        }
        if runs > 1 {
            finished.push(model.clone());
        }
    }
    if trained.is_ok() && runs > 1 {
        model = Model::average(&finished).map_err(|e| format!("train: {e}"))?;
        let val = pool.install(|| validation(&model, &mut val_set, cfg.wdl)).map_err(|e| format!("train: {e}"))?;
        bar.println(&format!("the mean of the {runs} runs: validation {val}"));
    }
    let sample = val_set.first(QUANTISATION_SAMPLE).and_then(|raw| encode_records(&raw, layout));
    if args.records.is_none() {
        let _ = std::fs::remove_file(&records_path);
        let _ = std::fs::remove_file(&val_path);
    }
    trained.map_err(|e| format!("train: {e}"))?;
    let net = match init_qb {
        Some(qb) if cfg.epochs == 0 => model.quantise_with(qb),
        _ => model.quantise(),
    };
    std::fs::write(&out, net.to_bytes()).map_err(|e| format!("train: {out}: {e}"))?;
    let err = quantisation_error(&model, &net, &sample.map_err(|e| format!("train: {e}"))?);
    eprintln!("train: wrote {out}; largest float-vs-quantised difference on validation positions: {err:.1} units");
    Ok(())
}
