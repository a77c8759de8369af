//! `arena slurm CONFIG --shards N`: write a Slurm job array that plays the
//! config's tournament as `N` shards (`arena run --shard K/N`, task `K`
//! of the array), and the merge (`arena merge`) as a job that starts once
//! every shard succeeded (`--dependency=afterok`). arena schedules nothing
//! itself: the scripts are plain `sbatch` files to read, edit and submit.
//!
//! The layout, under the results folder `OUT` (default `results/<name>`):
//! `OUT/slurm/{submit.sh, shards.sbatch, merge.sbatch, logs/}`, the shards
//! in `OUT/shards/K/`, the merged tables in `OUT` itself.

use crate::error::HarnessError;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `arena slurm`.
#[allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena slurm configs/connect4.toml --shards 4\n  \
arena slurm configs/class.toml --shards 50 --partition short --time 02:00:00 --cpus-per-task 4 --mem 4G\n  \
results/connect4/slurm/submit.sh    (runs sbatch twice: the shards, then the merge)\n\n\
Writes OUT/slurm/shards.sbatch (a job array --array=0-(N-1); task K runs `arena run CONFIG \
--shard K/N --out OUT/shards/K -j $SLURM_CPUS_PER_TASK`, with --seed, --repetitions, --clock and \
--counted-step as given here), OUT/slurm/merge.sbatch (`arena merge \
OUT OUT/shards/*`, submitted with --dependency=afterok on the array) and OUT/slurm/submit.sh. \
Paths in the scripts are absolute: arena, the config and OUT must be on a file system the nodes \
share. See docs/cluster.md (also: the same with GNU parallel over SSH)."
)]
pub struct SlurmArgs {
    /// The tournament config (TOML).
    pub config: PathBuf,
    /// Number of shards (tasks of the job array).
    #[arg(long)]
    pub shards: usize,
    /// Results folder (default: results/<run name>/); shards go to OUT/shards/K.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Slurm partition (#SBATCH --partition).
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit per shard, as sbatch takes it, e.g. 01:30:00 (#SBATCH --time).
    #[arg(long)]
    pub time: Option<String>,
    /// CPUs per shard; each shard plays this many episodes at once.
    #[arg(long, default_value_t = 1)]
    pub cpus_per_task: usize,
    /// Memory per shard, e.g. 4G (#SBATCH --mem).
    #[arg(long)]
    pub mem: Option<String>,
    /// The arena binary the jobs run (default: this one).
    #[arg(long)]
    pub arena: Option<PathBuf>,
    /// Override the config's master seed (passed on to every shard).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Override the number of repetitions per level and lineup (passed on
    /// to every shard).
    #[arg(long)]
    pub repetitions: Option<u32>,
    /// Judge every agent by this clock instead of the config's: `wall`,
    /// `cpu` or `counted` (passed on to every shard, see `arena run --clock`).
    #[arg(long, value_name = "CLOCK")]
    pub clock: Option<crate::config::Clock>,
    /// Under the counted clock, what one look at the timer costs an agent
    /// (passed on to every shard, see `arena run --counted-step`).
    #[arg(long, value_name = "DURATION", value_parser = crate::play::timing::parse_duration)]
    pub counted_step: Option<std::time::Duration>,
}

impl SlurmArgs {
    /// The `arena run` overrides that are part of the run's fingerprint
    /// (seed, repetitions, clock, counted step), as the shards' command
    /// line takes them: every shard, and so the merge, is the run that
    /// `arena run CONFIG` with the same flags would be.
    fn run_flags(&self) -> Vec<(&'static str, String)> {
        let mut flags = Vec::new();
        if let Some(s) = self.seed {
            flags.push(("--seed", s.to_string()));
        }
        if let Some(r) = self.repetitions {
            flags.push(("--repetitions", r.to_string()));
        }
        if let Some(c) = self.clock {
            flags.push(("--clock", c.as_str().to_string()));
        }
        if let Some(d) = self.counted_step {
            // Whole nanoseconds: what `parse_duration` reads back exactly.
            flags.push(("--counted-step", format!("{}ns", d.as_nanos())));
        }
        flags
    }

    /// The overrides as `arena run` would apply them to `cfg`, with its
    /// checks (a bad value is refused here, not in every shard's job).
    fn apply_overrides(&self, cfg: &mut crate::config::RunConfig) -> Result<(), HarnessError> {
        let run = crate::run::RunArgs {
            config: self.config.clone(),
            out: None,
            name: None,
            concurrency: None,
            seed: self.seed,
            repetitions: self.repetitions,
            quiet: true,
            resume: false,
            restart: false,
            allow_broken: false,
            shard: None,
            clock: self.clock,
            counted_step: self.counted_step,
        };
        crate::run::apply_overrides(cfg, &run)
    }
}

/// The files `arena slurm` wrote.
#[derive(Debug)]
pub struct SlurmFiles {
    /// `submit.sh`: submits the array and the dependent merge.
    pub submit: PathBuf,
    /// `shards.sbatch`: the job array, one task per shard.
    pub shards: PathBuf,
    /// `merge.sbatch`: the merge.
    pub merge: PathBuf,
    /// The results folder (merged tables; shards in `shards/K`).
    pub out: PathBuf,
}

/// Quote `s` for a POSIX shell (single quotes).
fn sh(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn absolute(p: &Path) -> Result<PathBuf, HarnessError> {
    if p.is_absolute() {
        return Ok(p.to_path_buf());
    }
    let cwd = std::env::current_dir().map_err(|e| HarnessError::io(".", e))?;
    Ok(cwd.join(p))
}

/// A value for an `#SBATCH` line: no spaces, quotes or newlines.
fn directive(flag: &str, v: &str) -> Result<String, HarnessError> {
    if v.is_empty() || v.chars().any(|c| c.is_whitespace() || "'\"#\\".contains(c)) {
        return Err(HarnessError::Flag(format!(
            "--{flag} {v:?}: expected a single word (as sbatch takes it)"
        )));
    }
    Ok(format!("#SBATCH --{flag}={v}\n"))
}

/// The `#SBATCH` lines both jobs share (partition, time limit, memory).
fn common(args: &SlurmArgs) -> Result<String, HarnessError> {
    let mut s = String::new();
    for (flag, v) in [
        ("partition", &args.partition),
        ("time", &args.time),
        ("mem", &args.mem),
    ] {
        if let Some(v) = v {
            s += &directive(flag, v)?;
        }
    }
    Ok(s)
}

/// `arena slurm`: write the scripts (see the module documentation) and
/// say how to submit them.
pub fn slurm(args: &SlurmArgs, out: &mut dyn Write) -> Result<SlurmFiles, HarnessError> {
    let mut cfg = crate::registry::load_config(&args.config)?;
    args.apply_overrides(&mut cfg)?;
    if cfg.sprt.is_some() {
        return Err(HarnessError::Cluster(format!(
            "{} has an [sprt] section, and a sequential test decides as the games come in, \
             on one machine; it cannot be split into shards",
            args.config.display()
        )));
    }
    let n = args.shards;
    crate::play::schedule::Shard::new(0, n)
        .map_err(|e| HarnessError::Flag(format!("--shards {e}")))?;
    if args.cpus_per_task == 0 {
        return Err(HarnessError::Flag(
            "--cpus-per-task 0: expected 1 or more".into(),
        ));
    }
    let config_path = args
        .config
        .canonicalize()
        .map_err(|e| HarnessError::io(&args.config, e))?;
    let dir = absolute(
        &args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("results").join(&cfg.name)),
    )?;
    let arena = match &args.arena {
        Some(a) => absolute(a)?,
        None => std::env::current_exe().map_err(|e| HarnessError::io("arena", e))?,
    };
    let slurm_dir = dir.join("slurm");
    let logs = slurm_dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| HarnessError::io(&logs, e))?;
    let shards_dir = dir.join("shards");
    std::fs::create_dir_all(&shards_dir).map_err(|e| HarnessError::io(&shards_dir, e))?;
    let name = cfg.name.replace(
        |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_',
        "_",
    );
    let common = common(args)?;
    let header = format!(
        "# Written by `arena slurm` (arena {}) for {}.\n",
        env!("CARGO_PKG_VERSION"),
        config_path.display()
    );
    let vars = format!(
        "ARENA={}\nCONFIG={}\nOUT={}\n",
        sh(&arena.to_string_lossy()),
        sh(&config_path.to_string_lossy()),
        sh(&dir.to_string_lossy())
    );
    let logs_s = logs.to_string_lossy();
    let run_flags: String = args
        .run_flags()
        .iter()
        .map(|(flag, v)| format!(" {flag} {}", sh(v)))
        .collect();
    let shards_script = format!(
        "#!/bin/bash\n{header}\
# Task K of the array plays shard K/{n} of the plan into $OUT/shards/K; submitting\n\
# the array again continues the shards that did not finish (their journals).\n\
#SBATCH --job-name=arena-{name}\n\
#SBATCH --array=0-{last}\n\
#SBATCH --cpus-per-task={cpus}\n\
{common}\
#SBATCH --output={logs_s}/shard-%a.out\n\
set -euo pipefail\n\
{vars}\
K=\"$SLURM_ARRAY_TASK_ID\"\n\
exec \"$ARENA\" run \"$CONFIG\" --shard \"$K/{n}\" --out \"$OUT/shards/$K\" \
-j \"${{SLURM_CPUS_PER_TASK:-1}}\"{run_flags}\n",
        last = n - 1,
        cpus = args.cpus_per_task,
    );
    let merge_script = format!(
        "#!/bin/bash\n{header}\
# Merges the {n} shards into $OUT (submitted with --dependency=afterok on the array).\n\
#SBATCH --job-name=arena-{name}-merge\n\
#SBATCH --cpus-per-task=1\n\
{common}\
#SBATCH --output={logs_s}/merge.out\n\
set -euo pipefail\n\
{vars}\
shards=()\n\
for k in $(seq 0 {last}); do shards+=(\"$OUT/shards/$k\"); done\n\
exec \"$ARENA\" merge \"$OUT\" \"${{shards[@]}}\"\n",
        last = n - 1,
    );
    let submit_script = format!(
        "#!/bin/bash\n{header}\
# Submits the shards (a job array) and the merge, which waits for every shard.\n\
set -euo pipefail\n\
cd \"$(dirname \"$0\")\"\n\
shards=$(sbatch --parsable shards.sbatch)\n\
shards=\"${{shards%%;*}}\"\n\
merge=$(sbatch --parsable --dependency=afterok:\"$shards\" merge.sbatch)\n\
merge=\"${{merge%%;*}}\"\n\
echo \"shards job: $shards\"\n\
echo \"merge job: $merge\"\n\
echo \"results: {}\"\n",
        dir.display()
    );
    let files = SlurmFiles {
        submit: slurm_dir.join("submit.sh"),
        shards: slurm_dir.join("shards.sbatch"),
        merge: slurm_dir.join("merge.sbatch"),
        out: dir.clone(),
    };
    for (path, text) in [
        (&files.shards, &shards_script),
        (&files.merge, &merge_script),
        (&files.submit, &submit_script),
    ] {
        std::fs::write(path, text).map_err(|e| HarnessError::io(path, e))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| HarnessError::io(path, e))?;
    }
    let io = |e| HarnessError::io("<stdout>", e);
    writeln!(
        out,
        "wrote {} (a job array of {n} shards) and {} (the merge, after every shard)\n\
         submit both with:\n  {}\n\
         results: {} (shards in {}/K, logs in {})",
        files.shards.display(),
        files.merge.display(),
        files.submit.display(),
        dir.display(),
        shards_dir.display(),
        logs.display()
    )
    .map_err(io)?;
    Ok(files)
}
