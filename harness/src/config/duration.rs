//! Durations as configs and the command line write them (`40ms`, `1.5s`,
//! a number of milliseconds or seconds), each at most [`MAX_DURATION`].

use std::time::Duration;

/// The longest duration [`parse_duration`] accepts: a week. Longer ones are
/// surely a typo, and deadlines computed from them (`Instant` + duration,
/// ten times a hard limit) must not overflow.
pub const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// Parse a human duration such as `40ms`, `1s`, `2m`, `1.5s` (at most
/// [`MAX_DURATION`]).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let plain_seconds = t
        .strip_suffix('s')
        .filter(|s| !s.ends_with('m') && !s.ends_with('u') && !s.ends_with('n'))
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|v| *v >= 0.0 && v.is_finite());
    let d = match plain_seconds {
        // Out of `Duration`'s range: caught by the maximum below.
        Some(v) => Duration::try_from_secs_f64(v).unwrap_or(Duration::MAX),
        None => humantime::parse_duration(t)
            .map_err(|e| format!("`{t}` is not a duration like 40ms, 1s, 1.5s, 2m: {e}"))?,
    };
    at_most_max(d, &format!("`{t}`"))
}

/// A number of milliseconds (a config may give `act = 40` or `40.5`) as a
/// duration of at most [`MAX_DURATION`].
pub fn millis(ms: f64) -> Result<Duration, String> {
    if ms < 0.0 || !ms.is_finite() {
        return Err(format!("{ms} ms is not a duration of 0 ms or more"));
    }
    let d = Duration::try_from_secs_f64(ms / 1000.0).unwrap_or(Duration::MAX);
    at_most_max(d, &format!("{ms} ms"))
}

/// A number of seconds given on the command line (`--seconds 2`, `0.5`):
/// finite, 0 or more, and at most [`MAX_DURATION`].
pub fn seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let v = t
        .parse::<f64>()
        .ok()
        .filter(|v| *v >= 0.0 && v.is_finite())
        .ok_or_else(|| format!("`{t}` is not a number of seconds of 0 or more, like 1 or 0.5"))?;
    let d = Duration::try_from_secs_f64(v).unwrap_or(Duration::MAX);
    at_most_max(d, &format!("{t} s")).map(|d| d.as_secs_f64())
}

/// `d` if it is at most [`MAX_DURATION`]; else an error that shows it as
/// `shown`.
pub fn at_most_max(d: Duration, shown: &str) -> Result<Duration, String> {
    if d > MAX_DURATION {
        return Err(format!(
            "{shown} is longer than the longest duration arena accepts, 7 days (e.g. 40ms, 1s, 2m, 1h)"
        ));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_human_form() {
        assert_eq!(parse_duration("40ms").unwrap(), Duration::from_millis(40));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("fast").is_err());
        assert_eq!(parse_duration("7days").unwrap(), MAX_DURATION);
        // Found by the config_toml fuzz target: a number of seconds too big
        // for a Duration panicked (Duration::from_secs_f64).
        let e = parse_duration("888888888888888888888888888880s").unwrap_err();
        assert!(e.contains("7 days"), "{e}");
        assert!(parse_duration("1e300s").is_err());
        assert!(parse_duration("604801s").is_err());
        assert!(parse_duration("100000years").is_err());
        assert_eq!(millis(40.0).unwrap(), Duration::from_millis(40));
        assert!(millis(1e300).is_err() && millis(-1.0).is_err() && millis(f64::NAN).is_err());
        assert!(millis(u64::MAX as f64).unwrap_err().contains("7 days"));
        // `arena bench --seconds`: a huge or infinite number panicked in
        // the benches' Duration::from_secs_f64.
        assert_eq!(seconds("0.5").unwrap(), 0.5);
        assert!(seconds("1e300").unwrap_err().contains("7 days"));
        assert!(seconds("inf").is_err() && seconds("-1").is_err() && seconds("NaN").is_err());
        assert!(seconds("fast").is_err());
    }
}
