//! The `arena` Python package for graded Python submissions: the build the
//! grader's own `arena` belongs to, shown read-only inside the sandbox.
//!
//! The package is looked up, in order, in:
//! 1. `$ARENA_PYTHON_SITE` (a folder holding `arena/`);
//! 2. `python/site` beside the folder of the `arena` binary: the repository's
//!    `target/python/site`, where `python/build.sh` installs it next to
//!    `target/release/arena` (and `target/debug/arena`);
//! 3. wherever `python3` on the grader's `PATH` imports it from (a `pip
//!    install`).
//!
//! Under bwrap the package folder is bound read-only at
//! [`SANDBOX_SITE`]`/arena` and `PYTHONPATH` names [`SANDBOX_SITE`]; under
//! the other sandboxes `PYTHONPATH` names the folder that holds it.

use crate::external::{Mount, Sandbox};
use std::path::{Path, PathBuf};

/// Where a bwrap sandbox shows the package's parent folder.
pub const SANDBOX_SITE: &str = "/opt/arena-python";

/// The environment variable naming a folder that holds `arena/`.
pub const SITE_VAR: &str = "ARENA_PYTHON_SITE";

/// A found `arena` package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonPackage {
    /// The package folder (`.../arena`, with `__init__.py`).
    pub package: PathBuf,
}

impl PythonPackage {
    /// The package of the grader's build, if any can be found (see the
    /// module docs for the order).
    pub fn find() -> Option<PythonPackage> {
        let from_var = std::env::var_os(SITE_VAR).map(PathBuf::from);
        let beside_binary = std::env::current_exe()
            .ok()
            .and_then(|exe| std::fs::canonicalize(exe).ok())
            .and_then(|exe| Some(exe.parent()?.parent()?.join("python/site")));
        from_var
            .into_iter()
            .chain(beside_binary)
            .map(|site| site.join("arena"))
            .chain(imported_by_python3())
            .find(|p| p.join("__init__.py").is_file())
            .and_then(|p| std::fs::canonicalize(p).ok())
            .map(|package| PythonPackage { package })
    }

    /// [`find`](Self::find), once per process.
    pub fn cached() -> Option<&'static PythonPackage> {
        static FOUND: std::sync::OnceLock<Option<PythonPackage>> = std::sync::OnceLock::new();
        FOUND.get_or_init(PythonPackage::find).as_ref()
    }

    /// The package as offered to the agents of `sandbox`: under bwrap it is
    /// bound in (see [`crate::external::supervise::sandbox`]); under the other
    /// sandboxes, when agents run under a uid of their own, only if that
    /// uid can read it where it is (every folder above searchable by
    /// others, the package readable by them).
    pub fn offered(sandbox: Sandbox) -> Option<&'static PythonPackage> {
        PythonPackage::cached().filter(|p| {
            sandbox == Sandbox::Bwrap
                || !crate::external::drops_privileges(sandbox)
                || others_can_read(&p.package)
        })
    }

    /// The read-only mount of the package inside a bwrap sandbox.
    pub fn mount(&self) -> Mount {
        Mount {
            source: self.package.clone(),
            target: Path::new(SANDBOX_SITE).join("arena"),
        }
    }

    /// The `PYTHONPATH` entry under which an agent of `sandbox` imports it.
    pub fn pythonpath(&self, sandbox: Sandbox) -> String {
        match sandbox {
            Sandbox::Bwrap => SANDBOX_SITE.to_string(),
            _ => self
                .package
                .parent()
                .unwrap_or(Path::new("/"))
                .to_string_lossy()
                .into_owned(),
        }
    }
}

/// Whether others may read folder `dir` and search it and every folder
/// above it.
fn others_can_read(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let mode = |d: &Path| {
        std::fs::metadata(d)
            .map(|m| m.permissions().mode())
            .unwrap_or(0)
    };
    mode(dir) & 0o005 == 0o005 && dir.ancestors().skip(1).all(|d| mode(d) & 0o001 != 0)
}

/// The folder `python3` on `PATH` imports `arena` from, if it does.
fn imported_by_python3() -> Option<PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import arena, os; print(os.path.dirname(os.path.abspath(arena.__file__)))",
        ])
        .env_remove("PYTHONPATH")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(text.trim()))
        .filter(|p| p.is_absolute())
}

/// `env` with `PYTHONPATH` naming `entry` after whatever the submission
/// set there itself.
pub fn with_pythonpath(env: &[(String, String)], entry: &str) -> Vec<(String, String)> {
    let mut env = env.to_vec();
    match env.iter_mut().find(|(k, _)| k == "PYTHONPATH") {
        Some((_, v)) if !v.is_empty() => *v = format!("{v}:{entry}"),
        Some((_, v)) => *v = entry.to_string(),
        None => env.push(("PYTHONPATH".into(), entry.to_string())),
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_is_appended_to_a_submissions_own_pythonpath() {
        let e = with_pythonpath(&[], SANDBOX_SITE);
        assert_eq!(e, vec![("PYTHONPATH".into(), SANDBOX_SITE.into())]);
        let own = vec![("PYTHONPATH".to_string(), "pylib".to_string())];
        let e = with_pythonpath(&own, SANDBOX_SITE);
        assert_eq!(e[0].1, format!("pylib:{SANDBOX_SITE}"));
    }

    #[test]
    fn bwrap_sees_the_package_at_the_sandbox_site_and_others_at_its_folder() {
        let p = PythonPackage {
            package: PathBuf::from("/srv/py/site/arena"),
        };
        assert_eq!(p.pythonpath(Sandbox::Bwrap), SANDBOX_SITE);
        assert_eq!(p.pythonpath(Sandbox::Rlimit), "/srv/py/site");
        assert_eq!(p.mount().target, Path::new("/opt/arena-python/arena"));
    }
}
