//! `arena slurm` on a real (single-node) Slurm cluster (issue 21): the test
//! starts munged, slurmctld and slurmd on this machine from a slurm.conf in
//! a temporary folder, submits a 4-shard tournament with the scripts
//! `arena slurm` writes, waits for the shards and the dependent merge, and
//! compares the merged results with the same tournament run on one
//! machine: the same episodes and tables (apart from timing and host
//! columns). The daemons it started are stopped however the test ends.
//!
//! Needs Debian's `slurm-wlm` and `munge` (`.ci/setup-slurm.sh`) and root
//! (the daemons run jobs as their user); without them the test is skipped,
//! except under CI, where it fails.

mod common;
mod results;
mod tools;
use common::arena;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = r#"
name = "c4-slurm"
game = "connect4"
levels = ["start"]
repetitions = 5
seed = 21
[[agents]]
agent = "random"
[[agents]]
agent = "uct"
params = { iterations = 40 }
[[agents]]
agent = "random"
name = "random-b"
"#;

/// Where Debian installs the daemons (not always on a user's PATH).
const SBIN: &[&str] = &["/usr/sbin", "/usr/local/sbin", "/sbin"];

fn find(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(SBIN.iter().map(PathBuf::from))
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// The daemons this test started: stopped on drop (SIGTERM, then SIGKILL),
/// after cancelling any job still queued, so a failing test cleans up too.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

impl Cluster {
    fn command(&self, tool: &str) -> Command {
        let mut c = Command::new(find(tool).unwrap_or_else(|| PathBuf::from(tool)));
        c.env("SLURM_CONF", &self.conf);
        c
    }

    fn start(&mut self, name: &'static str, args: &[&str]) {
        let log = std::fs::File::create(self.dir.join(format!("{name}.out"))).unwrap();
        let child = self
            .command(name)
            .args(args)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        self.daemons.push((name, child));
    }

    fn output(&self, tool: &str, args: &[&str]) -> String {
        let out = self.command(tool).args(args).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// What the daemons said, for a failure message.
    fn logs(&self) -> String {
        let mut s = String::new();
        for f in [
            "slurmctld.log",
            "slurmd.log",
            "munged.out",
            "slurmctld.out",
            "slurmd.out",
        ] {
            let text = std::fs::read_to_string(self.dir.join(f)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            s += &format!("--- {f}\n");
            for l in tail.into_iter().rev() {
                s += l;
                s.push('\n');
            }
        }
        s
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.daemons.iter().any(|(n, _)| *n == "slurmctld") {
            let _ = self
                .command("scancel")
                .args(["--user", "root"])
                .stderr(Stdio::null())
                .status();
        }
        // Stop in reverse order: slurmd, slurmctld, munged.
        for (_, child) in self.daemons.iter_mut().rev() {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A free TCP port on this machine (bound, then released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn slurm_conf(dir: &Path, host: &str, cpus: usize) -> String {
    let d = dir.display();
    format!(
        "ClusterName=arenatest\n\
SlurmctldHost={host}(127.0.0.1)\n\
SlurmUser=root\n\
SlurmdUser=root\n\
SlurmctldPort={}\n\
SlurmdPort={}\n\
AuthType=auth/munge\n\
AuthInfo=socket={d}/munge.sock\n\
CredType=cred/munge\n\
StateSaveLocation={d}/state\n\
SlurmdSpoolDir={d}/spool\n\
SlurmctldPidFile={d}/slurmctld.pid\n\
SlurmdPidFile={d}/slurmd.pid\n\
SlurmctldLogFile={d}/slurmctld.log\n\
SlurmdLogFile={d}/slurmd.log\n\
ProctrackType=proctrack/linuxproc\n\
TaskPlugin=task/none\n\
SelectType=select/cons_tres\n\
SelectTypeParameters=CR_Core\n\
SchedulerType=sched/backfill\n\
AccountingStorageType=accounting_storage/none\n\
JobCompType=jobcomp/none\n\
JobAcctGatherType=jobacct_gather/none\n\
MpiDefault=none\n\
ReturnToService=2\n\
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n\
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
        free_port(),
        free_port(),
    )
}

/// Start munged, slurmctld and slurmd; wait until the node is idle.
fn start_cluster(dir: &Path) -> Cluster {
    for sub in ["state", "spool"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host = host.trim().split('.').next().unwrap().to_string();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let conf = dir.join("slurm.conf");
    std::fs::write(&conf, slurm_conf(dir, &host, cpus)).unwrap();
    let mut c = Cluster {
        dir: dir.to_path_buf(),
        conf: conf.clone(),
        daemons: Vec::new(),
    };
    let key = dir.join("munge.key");
    let ok = c
        .command("mungekey")
        .args(["--create", "--keyfile"])
        .arg(&key)
        .status()
        .unwrap();
    assert!(ok.success(), "mungekey failed");
    let d = dir.display();
    c.start(
        "munged",
        &[
            "--foreground",
            "--force",
            &format!("--key-file={}", key.display()),
            &format!("--socket={d}/munge.sock"),
            &format!("--pid-file={d}/munged.pid"),
            &format!("--log-file={d}/munged.log"),
            &format!("--seed-file={d}/munged.seed"),
        ],
    );
    let sock = dir.join("munge.sock");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !sock.exists() {
        assert!(
            Instant::now() < deadline,
            "munged did not start:\n{}",
            c.logs()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let conf_s = conf.to_str().unwrap();
    c.start("slurmctld", &["-D", "-c", "-f", conf_s]);
    c.start("slurmd", &["-D", "-f", conf_s]);
    let deadline = Instant::now() + Duration::from_secs(40);
    loop {
        let state = c.output("sinfo", &["-h", "-o", "%t"]);
        if state.trim() == "idle" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the node did not become idle (sinfo: {state:?}):\n{}",
            c.logs()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    c
}

/// `scontrol show job ID`'s job states (one per array task).
fn job_states(c: &Cluster, id: &str) -> Vec<String> {
    c.output("scontrol", &["show", "job", id])
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("JobState="))
        .map(str::to_string)
        .collect()
}

const DONE: &[&str] = &[
    "COMPLETED",
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "BOOT_FAIL",
    "DEADLINE",
    "PREEMPTED",
];

#[test]
fn a_four_shard_slurm_job_array_merges_to_the_one_machine_results() {
    let missing: Vec<&str> = [
        "munged",
        "mungekey",
        "slurmctld",
        "slurmd",
        "sbatch",
        "sinfo",
        "scontrol",
        "scancel",
    ]
    .into_iter()
    .filter(|t| find(t).is_none())
    .collect();
    if !missing.is_empty() {
        return tools::skip(&format!(
            "Slurm is not installed (missing {}; .ci/setup-slurm.sh installs slurm-wlm and munge)",
            missing.join(", ")
        ));
    }
    let uid = Command::new("id").arg("-u").output().unwrap();
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return tools::skip("the single-node Slurm cluster needs root (SlurmUser=root)");
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // munged wants to reach its socket through the folder.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cfg = dir.join("c4.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let cfg_s = cfg.to_str().unwrap();

    // The same tournament on one machine.
    let whole = dir.join("whole");
    let (code, _, err) = arena(&["run", cfg_s, "--out", whole.to_str().unwrap(), "-q"]);
    assert_eq!(code, 0, "{err}");

    let cluster = start_cluster(dir);
    let out = dir.join("results");
    let (code, said, err) = arena(&[
        "slurm",
        cfg_s,
        "--shards",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--time",
        "00:05:00",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("submit.sh"), "{said}");
    let script = std::fs::read_to_string(out.join("slurm/shards.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --array=0-3"), "{script}");
    assert!(script.contains("$SLURM_ARRAY_TASK_ID"), "{script}");
    assert!(script.contains("SLURM_CPUS_PER_TASK"), "{script}");

    let submitted = cluster
        .command("bash")
        .arg(out.join("slurm/submit.sh"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&submitted.stdout).into_owned();
    assert!(
        submitted.status.success(),
        "submit.sh failed: {text}{}\n{}",
        String::from_utf8_lossy(&submitted.stderr),
        cluster.logs()
    );
    let job = |what: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(what))
            .unwrap_or_else(|| panic!("no {what:?} in {text:?}"))
            .trim()
            .to_string()
    };
    let (shards_job, merge_job) = (job("shards job:"), job("merge job:"));
    let submit = std::fs::read_to_string(out.join("slurm/submit.sh")).unwrap();
    assert!(submit.contains("--dependency=afterok:"), "{submit}");

    let deadline = Instant::now() + Duration::from_secs(100);
    let log =
        |name: &str| std::fs::read_to_string(out.join("slurm/logs").join(name)).unwrap_or_default();
    loop {
        let states = job_states(&cluster, &merge_job);
        if states.iter().any(|s| DONE.contains(&s.as_str())) {
            assert_eq!(
                states,
                ["COMPLETED"],
                "merge job: {}\nshards: {:?}\n{}\n{}",
                log("merge.out"),
                job_states(&cluster, &shards_job),
                (0..4)
                    .map(|k| log(&format!("shard-{k}.out")))
                    .collect::<String>(),
                cluster.logs()
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the jobs did not finish in time (merge {states:?}, shards {:?})\n{}",
            job_states(&cluster, &shards_job),
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let shard_states = job_states(&cluster, &shards_job);
    assert_eq!(shard_states.len(), 4, "{shard_states:?}");
    assert!(
        shard_states.iter().all(|s| s == "COMPLETED"),
        "{shard_states:?}"
    );
    assert!(
        log("merge.out").contains("merged 4 shards of c4-slurm"),
        "{}",
        log("merge.out")
    );
    for k in 0..4 {
        assert!(out.join(format!("shards/{k}/journal.jsonl")).is_file());
    }
    results::assert_same_results(&out, &whole);
    drop(cluster);
}

/// The run overrides that are part of the fingerprint (`--seed`,
/// `--repetitions`, `--clock`, `--counted-step`) given to `arena slurm`
/// reach every shard: the job script carries them, and its tasks (run here
/// one after the other by bash, as Slurm's array would run them; the
/// `#SBATCH` lines are comments to bash) and the merge give the results of
/// `arena run` with the same flags on one machine. Needs no Slurm.
#[test]
fn the_shard_scripts_carry_the_run_overrides_of_the_fingerprint() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cfg = dir.join("c4.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let cfg_s = cfg.to_str().unwrap();
    let flags = [
        "--seed",
        "5",
        "--repetitions",
        "2",
        "--clock",
        "counted",
        "--counted-step",
        "50us",
    ];
    let whole = dir.join("whole");
    let mut args = vec!["run", cfg_s, "--out", whole.to_str().unwrap(), "-q"];
    args.extend(flags);
    let (code, _, err) = arena(&args);
    assert_eq!(code, 0, "{err}");

    let out = dir.join("results");
    let mut args = vec![
        "slurm",
        cfg_s,
        "--shards",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(flags);
    let (code, _, err) = arena(&args);
    assert_eq!(code, 0, "{err}");
    let script = std::fs::read_to_string(out.join("slurm/shards.sbatch")).unwrap();
    for want in [
        "--seed '5'",
        "--repetitions '2'",
        "--clock 'counted'",
        "--counted-step '50000ns'",
    ] {
        assert!(script.contains(want), "{want} not in {script}");
    }
    for k in 0..3 {
        let ran = Command::new("bash")
            .arg(out.join("slurm/shards.sbatch"))
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .output()
            .unwrap();
        assert!(
            ran.status.success(),
            "shard {k}: {}",
            String::from_utf8_lossy(&ran.stderr)
        );
    }
    let merged = Command::new("bash")
        .arg(out.join("slurm/merge.sbatch"))
        .output()
        .unwrap();
    assert!(
        merged.status.success(),
        "merge: {}",
        String::from_utf8_lossy(&merged.stderr)
    );
    results::assert_same_results(&out, &whole);
    let fingerprint = |d: &Path| {
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("meta.json")).unwrap()).unwrap();
        (meta["config_hash"].clone(), meta["config"].clone())
    };
    assert_eq!(fingerprint(&out), fingerprint(&whole));
    assert!(!fingerprint(&whole).0.is_null());
    // A bad override is refused when the scripts are written, as `arena
    // run` refuses it (exit code 2), not in every shard's job.
    let (code, _, err) = arena(&[
        "slurm",
        cfg_s,
        "--shards",
        "3",
        "--out",
        dir.join("bad").to_str().unwrap(),
        "--counted-step",
        "50us",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--counted-step"), "{err}");
}
