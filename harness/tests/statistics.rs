//! The figures arena prints and writes (the SPRT's LLR and bounds in the
//! CLI, `meta.json` and `arena summarize`; the trinomial Elo interval,
//! Bradley–Terry under its prior of virtual draws and the Wilson interval
//! in `ratings.csv`, `summary.csv` and the CLI) against an independent
//! computation of the formulas of `docs/statistics.md`, written here from
//! the docs (other algorithms where there is a choice: Newton's method for
//! Bradley–Terry, where arena uses MM), from the games in `episodes.csv`.

mod common;
use common::arena;
use std::collections::HashMap;
use std::path::Path;

type Row = HashMap<String, String>;

fn csv_maps(path: &Path) -> Vec<Row> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|rec| {
            head.iter()
                .cloned()
                .zip(rec.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect()
}

fn f(row: &Row, col: &str) -> f64 {
    row[col]
        .parse()
        .unwrap_or_else(|_| panic!("{col}: {:?}", row[col]))
}

/// `Φ⁻¹(0.975)`.
const Z: f64 = 1.959_963_984_540_054;

/// Elo of a mean score: `−400·log10(1/s − 1)`.
fn elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// An Elo value as printed: `+12.3` (a value that rounds to 0 is `+0.0`).
fn show(x: f64) -> String {
    if (x * 10.0).round() == 0.0 {
        "+0.0".into()
    } else {
        format!("{x:+.1}")
    }
}

/// Points of a result.
fn points(result: &str) -> f64 {
    match result {
        "win" => 1.0,
        "draw" => 0.5,
        _ => 0.0,
    }
}

/// The trinomial 95 % Elo interval from W/D/L: the image of `s ± 1.96·σ/√N`
/// (clamped to [0, 1]) under `elo`.
fn trinomial_interval(w: f64, d: f64, l: f64) -> (f64, f64, f64) {
    let n = w + d + l;
    let s = (w + d / 2.0) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    let se = (var / n).sqrt();
    (
        elo(s),
        elo((s - Z * se).max(0.0)),
        elo((s + Z * se).min(1.0)),
    )
}

/// Root of the decreasing `g` on `(lo, hi)` by bisection.
fn root(g: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..300 {
        let mid = (lo + hi) / 2.0;
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The logistic GSPRT's LLR of pentanomial `counts` (`[LL, LD, DD+WL, WD,
/// WW]`) for Elo `elo0` against `elo1`: under each hypothesis the
/// distribution closest to `p̂` with mean score `1/(1 + 10^(−elo/400))`,
/// `p_k = p̂_k/(1 + θ(a_k − s))`.
fn llr_logistic_pentanomial(counts: [f64; 5], elo0: f64, elo1: f64) -> f64 {
    let c: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { 1e-3 } else { c })
        .collect();
    let n: f64 = c.iter().sum();
    let p_hat: Vec<f64> = c.iter().map(|c| c / n).collect();
    let a = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mle = |e: f64| -> Vec<f64> {
        let s = 1.0 / (1.0 + 10f64.powf(-e / 400.0));
        let x: Vec<f64> = a.iter().map(|a| a - s).collect();
        let g = |th: f64| -> f64 {
            p_hat
                .iter()
                .zip(&x)
                .map(|(q, x)| q * x / (1.0 + th * x))
                .sum()
        };
        let th = root(g, -1.0 / (1.0 - s), 1.0 / s);
        p_hat
            .iter()
            .zip(&x)
            .map(|(q, x)| q / (1.0 + th * x))
            .collect()
    };
    let (p0, p1) = (mle(elo0), mle(elo1));
    n * (0..5).map(|k| p_hat[k] * (p1[k] / p0[k]).ln()).sum::<f64>()
}

/// The maximum of a function that is concave on `(lo, hi)` (golden-section
/// search to the last representable step): its argument and value.
fn golden_max(g: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut g1, mut g2) = (g(x1), g(x2));
    for _ in 0..300 {
        if !(x1 > lo && x2 < hi && x1 < x2) {
            break;
        }
        if g1 >= g2 {
            (hi, x2, g2) = (x2, x1, g1);
            x1 = hi - r * (hi - lo);
            g1 = g(x1);
        } else {
            (lo, x1, g1) = (x1, x2, g2);
            x2 = lo + r * (hi - lo);
            g2 = g(x2);
        }
    }
    if g1 >= g2 {
        (x1, g1)
    } else {
        (x2, g2)
    }
}

/// The normalized GSPRT's LLR of pentanomial `counts` for nElo `nelo0`
/// against `nelo1`: under each hypothesis the most likely distribution on
/// `0, ¼, …, 1` with t-value `(μ − ½)/σ = √2·nElo/(800/ln 10)`. Found in the
/// primal, by other means than arena's: for a σ (so `μ = ½ + tσ` and the
/// second moment `σ² + μ²`), `p0`, `p2`, `p4` follow from `p1`, `p3` (the
/// three moment equations), and `Σ p̂ ln p`, concave in `(p1, p3)`, is
/// maximized by golden-section searches nested in `p1` and `p3` over the
/// region where every `p_k > 0`; σ by a scan of 200 points, then a
/// golden-section search around the best.
fn llr_normalized_pentanomial(counts: [f64; 5], nelo0: f64, nelo1: f64) -> f64 {
    let c: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { 1e-3 } else { c })
        .collect();
    let n: f64 = c.iter().sum();
    let p_hat: Vec<f64> = c.iter().map(|c| c / n).collect();
    let loglik = |p: &[f64; 5]| -> f64 {
        if p.iter().any(|&x| x <= 0.0) {
            return f64::NEG_INFINITY;
        }
        (0..5).map(|k| p_hat[k] * p[k].ln()).sum()
    };
    // The distribution with moments (μ, m2) and LD, WD weights p1, p3.
    let dist = |mu: f64, m2: f64, p1: f64, p3: f64| -> [f64; 5] {
        let r0 = 1.0 - p1 - p3;
        let r1 = mu - p1 / 4.0 - 3.0 * p3 / 4.0;
        let r2 = m2 - p1 / 16.0 - 9.0 * p3 / 16.0;
        let p2 = 4.0 * (r1 - r2);
        let p4 = 2.0 * r2 - r1;
        [r0 - p2 - p4, p1, p2, p3, p4]
    };
    // The p3 with every weight positive, for a p1 (each weight is affine
    // in p3): an open interval, empty when lo >= hi.
    let p3_range = |mu: f64, m2: f64, p1: f64| -> (f64, f64) {
        let (at0, at1) = (dist(mu, m2, p1, 0.0), dist(mu, m2, p1, 1.0));
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for k in [0, 2, 4] {
            let slope = at1[k] - at0[k];
            if slope > 0.0 {
                lo = lo.max(-at0[k] / slope);
            } else if slope < 0.0 {
                hi = hi.min(-at0[k] / slope);
            } else if at0[k] <= 0.0 {
                return (1.0, 0.0);
            }
        }
        (lo, hi)
    };
    // Largest log-likelihood with moments (μ, m2); −∞ if none.
    let profile = |mu: f64, m2: f64| -> f64 {
        let width = |p1: f64| {
            let (lo, hi) = p3_range(mu, m2, p1);
            hi - lo
        };
        // The widths are concave in p1: the p1 of positive width.
        let (mid, w) = golden_max(width, 0.0, 1.0);
        if w <= 0.0 {
            return f64::NEG_INFINITY;
        }
        let edge = |mut inside: f64, mut outside: f64| {
            for _ in 0..200 {
                let m = (inside + outside) / 2.0;
                if width(m) > 0.0 {
                    inside = m;
                } else {
                    outside = m;
                }
            }
            outside
        };
        let (p1_lo, p1_hi) = (edge(mid, 0.0), edge(mid, 1.0));
        let best_over_p3 = |p1: f64| {
            let (lo, hi) = p3_range(mu, m2, p1);
            if lo >= hi {
                return f64::NEG_INFINITY;
            }
            golden_max(|p3| loglik(&dist(mu, m2, p1, p3)), lo, hi).1
        };
        golden_max(best_over_p3, p1_lo, p1_hi).1
    };
    let mle = |nelo: f64| -> f64 {
        let t = std::f64::consts::SQRT_2 * nelo / (800.0 / std::f64::consts::LN_10);
        let at = |sigma: f64| {
            let mu = 0.5 + t * sigma;
            profile(mu, sigma * sigma + mu * mu)
        };
        let top = 0.5 / (1.0 + t * t).sqrt();
        let grid: Vec<f64> = (0..=201).map(|i| top * i as f64 / 201.0).collect();
        let best = (1..201)
            .max_by(|&i, &j| at(grid[i]).total_cmp(&at(grid[j])))
            .unwrap();
        golden_max(at, grid[best - 1], grid[best + 1]).1
    };
    n * (mle(nelo1) - mle(nelo0))
}

/// Bradley–Terry with `v` virtual draws per pair that met, mean 0: Newton's
/// method on `θ = ln γ`, and the 95 % half widths `1.96·√diag((H + 11ᵀ/k)⁻¹
/// − 1/k)`, in Elo.
fn bradley_terry(points: &[Vec<f64>], games: &[Vec<f64>], v: f64) -> (Vec<f64>, Vec<f64>) {
    let k = points.len();
    let s: Vec<Vec<f64>> = (0..k)
        .map(|i| {
            (0..k)
                .map(|j| points[i][j] + if games[i][j] > 0.0 { v / 2.0 } else { 0.0 })
                .collect()
        })
        .collect();
    let n: Vec<Vec<f64>> = (0..k)
        .map(|i| {
            (0..k)
                .map(|j| games[i][j] + if games[i][j] > 0.0 { v } else { 0.0 })
                .collect()
        })
        .collect();
    let mut theta: Vec<f64> = vec![0.0; k];
    let hessian = |theta: &[f64]| -> Vec<Vec<f64>> {
        (0..k)
            .map(|i| {
                (0..k)
                    .map(|j| {
                        let w = |i: usize, j: usize| {
                            let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                            n[i][j] * p * (1.0 - p)
                        };
                        let h = if i == j {
                            (0..k).filter(|&m| m != i).map(|m| w(i, m)).sum()
                        } else {
                            -w(i, j)
                        };
                        h + 1.0 / k as f64
                    })
                    .collect()
            })
            .collect()
    };
    for _ in 0..100 {
        let grad: Vec<f64> = (0..k)
            .map(|i| {
                (0..k)
                    .filter(|&j| j != i)
                    .map(|j| s[i][j] - n[i][j] / (1.0 + (theta[j] - theta[i]).exp()))
                    .sum()
            })
            .collect();
        let step = solve(hessian(&theta), grad);
        for i in 0..k {
            theta[i] += step[i];
        }
        let mean = theta.iter().sum::<f64>() / k as f64;
        theta.iter_mut().for_each(|t| *t -= mean);
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    let h = hessian(&theta);
    let half: Vec<f64> = (0..k)
        .map(|i| {
            let mut e = vec![0.0; k];
            e[i] = 1.0;
            let col = solve(h.clone(), e);
            Z * (col[i] - 1.0 / k as f64).sqrt() * scale
        })
        .collect();
    (theta.iter().map(|t| t * scale).collect(), half)
}

/// `x` with `m x = b` (Gaussian elimination, partial pivoting).
fn solve(mut m: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let k = b.len();
    for c in 0..k {
        let p = (c..k)
            .max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))
            .unwrap();
        m.swap(c, p);
        b.swap(c, p);
        for r in c + 1..k {
            let f = m[r][c] / m[c][c];
            let pivot = m[c].clone();
            for (x, p) in m[r].iter_mut().zip(&pivot).skip(c) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; k];
    for r in (0..k).rev() {
        x[r] = (b[r] - (r + 1..k).map(|j| m[r][j] * x[j]).sum::<f64>()) / m[r][r];
    }
    x
}

/// The 95 % Wilson interval of `w` successes in `n`.
fn wilson(w: f64, n: f64) -> (f64, f64) {
    let p = w / n;
    let c = (p + Z * Z / (2.0 * n)) / (1.0 + Z * Z / n);
    let h = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / (1.0 + Z * Z / n);
    (c - h, c + h)
}

fn run(dir: &Path, name: &str, text: &str) -> (std::path::PathBuf, String) {
    let cfg = dir.join(format!("{name}.toml"));
    std::fs::write(&cfg, text).unwrap();
    let out = dir.join(name);
    let (code, stdout, err) =
        arena(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{err}");
    (out, stdout)
}

/// The first number after `key` in `line`.
fn after(line: &str, key: &str) -> f64 {
    let rest = &line[line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(rest.len());
    rest[..end].parse().unwrap()
}

#[test]
fn sprt_figures_match_an_independent_computation() {
    check_sprt("logistic");
}

// Connect Four has almost no draws: the LD and WD counts are empty, which
// once made the normalized model accept H0 on a winning record.
#[test]
fn sprt_normalized_figures_match_an_independent_computation() {
    // The computation here gives fastchess's published figure
    // (app/tests/sprt_test.cpp, "normalized pentanomial 1": 2.25).
    let fastchess = llr_normalized_pentanomial([365.0, 16618.0, 36229.0, 16974.0, 390.0], 0.0, 2.0);
    assert!((fastchess - 2.25).abs() < 0.005, "{fastchess}");
    check_sprt("normalized");
}

/// A paired SPRT run (uct with 3 iterations against random, Connect Four,
/// [0, 300] in `model`'s Elo): `meta.json`'s fields and the printed lines
/// of `arena run` and `arena summarize` against the LLR computed here.
fn check_sprt(model: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (out, stdout) = run(
        dir.path(),
        "sprt",
        &format!(
            "name = \"sprt\"\ngame = \"connect4\"\nrepetitions = 12\nseed = 11\n\
             [sprt]\nelo0 = 0\nelo1 = 300\nmodel = \"{model}\"\n\
             [[agents]]\nagent = \"uct\"\nname = \"first\"\nparams = {{ iterations = 3 }}\n\
             [[agents]]\nagent = \"random\"\n"
        ),
    );
    // The pentanomial counts of the first agent's game pairs.
    let rows: Vec<Row> = csv_maps(&out.join("episodes.csv"))
        .into_iter()
        .filter(|r| r["agent"] == "first")
        .collect();
    let mut by_pair: HashMap<String, Vec<f64>> = HashMap::new();
    for r in &rows {
        by_pair
            .entry(r["pair"].clone())
            .or_default()
            .push(points(&r["result"]));
    }
    let mut counts = [0.0; 5];
    for p in by_pair.values().filter(|p| p.len() == 2) {
        counts[((p[0] + p[1]) * 2.0).round() as usize] += 1.0;
    }
    let llr = match model {
        "logistic" => llr_logistic_pentanomial(counts, 0.0, 300.0),
        _ => llr_normalized_pentanomial(counts, 0.0, 300.0),
    };
    let (lower, upper) = ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln());

    // meta.json's fields.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("meta.json")).unwrap()).unwrap();
    let sprt = &meta["sprt"];
    assert!(
        (sprt["llr"].as_f64().unwrap() - llr).abs() < 1e-6,
        "{sprt} {llr} {counts:?}"
    );
    assert!(
        (sprt["lower"].as_f64().unwrap() - lower).abs() < 1e-12,
        "{sprt}"
    );
    assert!(
        (sprt["upper"].as_f64().unwrap() - upper).abs() < 1e-12,
        "{sprt}"
    );
    assert_eq!(sprt["games"].as_u64().unwrap(), rows.len() as u64);
    assert_eq!(sprt["pairs"].as_f64().unwrap(), counts.iter().sum::<f64>());
    assert_eq!(
        (
            sprt["model"].as_str(),
            sprt["elo0"].as_f64(),
            sprt["elo1"].as_f64()
        ),
        (Some(model), Some(0.0), Some(300.0))
    );
    let verdict = if llr >= upper {
        "H1 accepted"
    } else if llr <= lower {
        "H0 accepted"
    } else {
        "inconclusive"
    };
    assert_eq!(sprt["verdict"].as_str(), Some(verdict), "{sprt}");

    // The printed lines, of `arena run` and of `arena summarize`.
    let (code, summarized, err) = arena(&["summarize", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for text in [&stdout, &summarized] {
        let line = text
            .lines()
            .find(|l| l.starts_with("SPRT "))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(line.contains(&format!("[0, 300] ({model} Elo)")), "{line}");
        assert!((after(line, "LLR ") - llr).abs() <= 0.0051, "{line} {llr}");
        let bounds = &line[line.find("(bounds ").unwrap()..];
        assert!(
            (after(bounds, "(bounds ") - lower).abs() <= 0.0051,
            "{line}"
        );
        assert!((after(bounds, ", ") - upper).abs() <= 0.0051, "{line}");
        assert!(line.ends_with(verdict), "{line}");
    }
}

#[test]
fn elo_bradley_terry_and_wilson_figures_match_an_independent_computation() {
    let dir = tempfile::tempdir().unwrap();
    // fixture-panic crashes in its first act: it loses every game (the
    // separated case: plain maximum likelihood would rate it −∞).
    let (out, stdout) = run(
        dir.path(),
        "rr",
        "name = \"rr\"\ngame = \"connect4\"\nrepetitions = 3\nseed = 5\n\
         [[agents]]\nagent = \"uct\"\nname = \"uct\"\nparams = { iterations = 60 }\n\
         [[agents]]\nagent = \"random\"\n\
         [[agents]]\nagent = \"fixture-panic\"\nname = \"panics\"\n",
    );
    let labels = ["uct", "random", "panics"];
    let episodes = csv_maps(&out.join("episodes.csv"));
    let mut pts = vec![vec![0.0; 3]; 3];
    let mut games = vec![vec![0.0; 3]; 3];
    let mut wdl: HashMap<(usize, usize), [f64; 3]> = HashMap::new();
    for r in &episodes {
        let i = labels.iter().position(|l| *l == r["agent"]).unwrap();
        let j = labels.iter().position(|l| *l == r["opponent"]).unwrap();
        pts[i][j] += points(&r["result"]);
        games[i][j] += 1.0;
        let e = wdl.entry((i, j)).or_default();
        e[["win", "draw", "loss"]
            .iter()
            .position(|x| *x == r["result"])
            .unwrap()] += 1.0;
    }
    assert_eq!(
        pts[2].iter().sum::<f64>(),
        0.0,
        "the panicking agent lost every game"
    );

    let ratings = csv_maps(&out.join("ratings.csv"));
    // Pairs: the trinomial Elo and its interval, written and printed.
    for r in ratings.iter().filter(|r| r["kind"] == "pair") {
        let i = labels.iter().position(|l| *l == r["agent"]).unwrap();
        let j = labels.iter().position(|l| *l == r["opponent"]).unwrap();
        let [w, d, l] = wdl[&(i, j)];
        let (e, lo, hi) = trinomial_interval(w, d, l);
        for (col, want) in [("elo", e), ("elo_lo", lo), ("elo_hi", hi)] {
            let got = f(r, col);
            assert!(
                got == want || (got - want).abs() < 1e-3,
                "{col}: {got} vs {want} ({r:?})"
            );
        }
        if e.is_finite() && lo.is_finite() && hi.is_finite() {
            let printed = format!("{} [{}, {}]", show(e), show(lo), show(hi));
            assert!(stdout.contains(&printed), "{printed}\n{stdout}");
        }
    }
    // Bradley–Terry with 2 virtual draws per pair: ratings and intervals.
    let (want, half) = bradley_terry(&pts, &games, 2.0);
    let bt: Vec<&Row> = ratings
        .iter()
        .filter(|r| r["kind"] == "bradley-terry")
        .collect();
    assert_eq!(bt.len(), 3);
    for (i, r) in bt.iter().enumerate() {
        assert_eq!(r["agent"], labels[i]);
        let (x, lo, hi) = (f(r, "rating"), f(r, "rating_lo"), f(r, "rating_hi"));
        assert!((x - want[i]).abs() < 1e-3, "{r:?} {want:?}");
        assert!((lo - (want[i] - half[i])).abs() < 1e-3, "{r:?} {half:?}");
        assert!((hi - (want[i] + half[i])).abs() < 1e-3, "{r:?} {half:?}");
        assert!(
            lo.is_finite() && hi.is_finite() && lo < x && x < hi,
            "{r:?}"
        );
        let printed = format!(
            "{} [{}, {}]",
            show(want[i]),
            show(want[i] - half[i]),
            show(want[i] + half[i])
        );
        assert!(stdout.contains(&printed), "{printed}\n{stdout}");
    }
    assert!(want[2] < want[0] && want[2] < want[1], "{want:?}");
    // Wilson intervals of summary.csv.
    for r in csv_maps(&out.join("summary.csv")) {
        let (lo, hi) = wilson(f(&r, "wins"), f(&r, "episodes"));
        assert!((f(&r, "win_rate_lo") - lo.max(0.0)).abs() < 6e-4, "{r:?}");
        assert!((f(&r, "win_rate_hi") - hi.min(1.0)).abs() < 6e-4, "{r:?}");
    }
}
