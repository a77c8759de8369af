//! The report's plots, as inline SVG drawn by `plotters` (SVG backend):
//! the cross-table heat map, intervals (win rates with Wilson intervals,
//! ratings with their CI), and act-time histograms against the limits.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A drawing error as text (plotters' errors are generic over the backend).
fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("plot: {e:?}")
}

const FONT: &str = "sans-serif";

/// One row of an interval plot: a label, a value and its interval.
#[derive(Clone, Debug)]
pub struct Interval {
    /// The row's label.
    pub label: String,
    /// The point.
    pub value: f64,
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// Points with horizontal error bars, one row per [`Interval`], over the
/// x range `x` (widened to fit every interval); `x_desc` names the axis.
/// Rows with a value or an end that is not finite are left out (the
/// caller says them in words): nothing is drawn at an axis edge.
pub fn intervals(rows: &[Interval], x: (f64, f64), x_desc: &str) -> Result<String, String> {
    let label_w = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 40) as u32
        * 7
        + 10;
    let rows: Vec<&Interval> = rows
        .iter()
        .filter(|r| [r.lo, r.value, r.hi].iter().all(|v| v.is_finite()))
        .collect();
    // Only finite bounds count for the range (plotters loops forever over
    // an infinite axis).
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in rows
        .iter()
        .flat_map(|r| [r.lo, r.value, r.hi])
        .chain([x.0, x.1])
        .filter(|v| v.is_finite())
    {
        x0 = x0.min(v);
        x1 = x1.max(v);
    }
    if !(x0.is_finite() && x1.is_finite()) {
        (x0, x1) = (0.0, 1.0);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }

    let n = rows.len().max(1);
    let h = 50 + 22 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640 + label_w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(label_w)
            .build_cartesian_2d(x0..x1, -0.5f64..(n as f64 - 0.5))
            .map_err(err)?;
        let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .max_light_lines(1)
            .y_labels(n)
            .y_label_formatter(&|y| {
                let i = y.round();
                if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                    // The first row on top.
                    labels.get(n - 1 - i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc(x_desc)
            .label_style((FONT, 12))
            .draw()
            .map_err(err)?;
        let color = RGBColor(0x2a, 0x62, 0xc9);
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                let y = (n - 1 - i) as f64;
                ErrorBar::new_horizontal(y, r.lo, r.value, r.hi, color.filled(), 8)
            }))
            .map_err(err)?;
        chart
            .draw_series(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| Circle::new((r.value, (n - 1 - i) as f64), 4, color.filled())),
            )
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A square heat map: `cells[i][j]` is row agent `i`'s points rate
/// against column agent `j` (0–1), `None` where they did not meet;
/// `games[i][j]` is shown under the rate.
pub fn heatmap(
    agents: &[String],
    cells: &[Vec<Option<f64>>],
    games: &[Vec<usize>],
) -> Result<String, String> {
    let n = agents.len().max(1);
    let cell = (480 / n as u32).clamp(28, 70);
    let label_w = agents
        .iter()
        .map(|a| a.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 30) as u32
        * 7
        + 12;
    let size = (label_w + cell * n as u32 + 24, 48 + cell * n as u32 + 24);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(48)
            .y_label_area_size(label_w)
            .build_cartesian_2d(0f64..n as f64, n as f64..0f64)
            .map_err(err)?;
        let name = |v: &f64| {
            let i = v.floor();
            if (v - i - 0.5).abs() < 1e-6 {
                agents.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(2 * n + 1)
            .y_labels(2 * n + 1)
            .x_label_formatter(&name)
            .y_label_formatter(&name)
            .x_desc("opponent")
            .y_desc("agent")
            .label_style((FONT, 12))
            .draw()
            .map_err(err)?;
        for (i, row) in cells.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                let (x, y) = (j as f64, i as f64);
                let fill = match v {
                    Some(p) => rate_color(*p),
                    None => RGBColor(0xee, 0xee, 0xee),
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x, y), (x + 1.0, y + 1.0)],
                        fill.filled(),
                    )))
                    .map_err(err)?;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x, y), (x + 1.0, y + 1.0)],
                        WHITE.stroke_width(1),
                    )))
                    .map_err(err)?;
                if let Some(p) = v {
                    let centre = Pos::new(HPos::Center, VPos::Center);
                    let big = TextStyle::from((FONT, 13).into_font()).pos(centre);
                    let small = TextStyle::from((FONT, 10).into_font()).pos(centre);
                    chart
                        .draw_series([
                            Text::new(format!("{p:.2}"), (x + 0.5, y + 0.42), big),
                            Text::new(
                                format!("n={}", games[i][j]),
                                (x + 0.5, y + 0.75),
                                small.clone(),
                            ),
                        ])
                        .map_err(err)?;
                }
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Red (0) through white (0.5) to green (1).
pub fn rate_color(p: f64) -> RGBColor {
    let p = p.clamp(0.0, 1.0);
    let mix = |a: u8, b: u8, t: f64| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
    let (lo, mid, hi) = ((0xd7, 0x30, 0x27), (0xf7, 0xf7, 0xf7), (0x1a, 0x98, 0x50));
    let (a, b, t) = if p < 0.5 {
        (lo, mid, p * 2.0)
    } else {
        (mid, hi, (p - 0.5) * 2.0)
    };
    RGBColor(mix(a.0, b.0, t), mix(a.1, b.1, t), mix(a.2, b.2, t))
}

/// A histogram of act times (ms) with the soft budget and the hard limit
/// as vertical lines; times past the right end are counted in the last bin.
pub fn act_times(title: &str, samples: &[f64], soft: f64, hard: f64) -> Result<String, String> {
    const BINS: usize = 40;
    let top = samples
        .iter()
        .copied()
        .fold(hard * 1.1, f64::max)
        .min(hard * 1.5)
        .max(1e-3);
    let width = top / BINS as f64;
    let mut counts = [0usize; BINS];
    for &x in samples {
        let b = ((x / width).floor().max(0.0) as usize).min(BINS - 1);
        counts[b] += 1;
    }
    let max_count = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (460, 230)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 14))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..top, 0f64..(max_count as f64 * 1.1))
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("act time, ms")
            .y_desc("acts")
            .label_style((FONT, 11))
            .draw()
            .map_err(err)?;
        let bar = RGBColor(0x2a, 0x62, 0xc9);
        chart
            .draw_series(
                counts
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| c > 0)
                    .map(|(b, &c)| {
                        let x = b as f64 * width;
                        let fill = if x + width > soft {
                            RGBColor(0xe0, 0x6c, 0x2b)
                        } else {
                            bar
                        };
                        Rectangle::new([(x, 0.0), (x + width * 0.92, c as f64)], fill.filled())
                    }),
            )
            .map_err(err)?;
        for (x, color, name) in [
            (soft, RGBColor(0xe0, 0x9a, 0x00), "soft"),
            (hard, RGBColor(0xc0, 0x1c, 0x1c), "hard"),
        ] {
            if x <= top {
                chart
                    .draw_series(LineSeries::new(
                        [(x, 0.0), (x, max_count as f64 * 1.1)],
                        color.stroke_width(2),
                    ))
                    .map_err(err)?
                    .label(format!("{name} {x} ms"))
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 14, y)], color.stroke_width(2))
                    });
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font((FONT, 11))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_are_svg() {
        let s = act_times("a", &[1.0, 2.0, 45.0, 80.0], 40.0, 50.0).unwrap();
        assert!(s.starts_with("<svg") && s.contains("<rect"), "{s}");
        let rows = vec![Interval {
            label: "x @ 0".into(),
            value: 0.5,
            lo: 0.2,
            hi: 0.8,
        }];
        assert!(intervals(&rows, (0.0, 1.0), "win rate")
            .unwrap()
            .contains("x @ 0"));
        let h = heatmap(
            &["a".into(), "b".into()],
            &[vec![None, Some(0.7)], vec![Some(0.3), None]],
            &[vec![0, 4], vec![4, 0]],
        )
        .unwrap();
        assert!(h.contains("0.70") && h.contains("n=4"), "{h}");
    }

    #[test]
    fn rows_that_are_not_finite_are_not_drawn() {
        // An infinite value or end is left out (this once looped forever,
        // then was drawn at the axis edge).
        let row = |label: &str, value: f64, lo: f64, hi: f64| Interval {
            label: label.into(),
            value,
            lo,
            hi,
        };
        let rows = vec![
            row("won all", f64::INFINITY, f64::INFINITY, f64::INFINITY),
            row("open below", -20.0, f64::NEG_INFINITY, 0.0),
            row("some", 10.0, -5.0, 25.0),
        ];
        let s = intervals(&rows, (f64::NEG_INFINITY, f64::INFINITY), "rating").unwrap();
        assert!(s.contains("some"), "{s}");
        assert!(!s.contains("won all") && !s.contains("open below"), "{s}");
        let only_inf = vec![row("x", f64::INFINITY, f64::INFINITY, f64::INFINITY)];
        assert!(intervals(&only_inf, (f64::NAN, f64::NAN), "rating").is_ok());
    }
}
