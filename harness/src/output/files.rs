//! Which reporters write a run's files, and so which files a run writes:
//! the one list that `arena run`, `arena summarize`, `arena merge`,
//! `arena grade` and `--restart` share.

use super::html::HtmlReport;
use super::replay::{Replays, SharedIndex};
use super::reporters::{ConfigCopy, CrosstableCsv, EpisodesCsv, MovesJsonl, Reporter, SummaryCsv};
use super::{journal, meta};
use std::path::Path;

/// The reporters that write a run's files into `dir` (the journal and the
/// run's metadata are added, first, by `run::run_with`): `config.toml`, the
/// tables ([`table_reporters`]), `replays.jsonl.gz`, and `report.html` last (it
/// reads the others' files).
pub fn file_reporters<'a>(dir: &Path) -> Vec<Box<dyn Reporter + 'a>> {
    let mut reporters: Vec<Box<dyn Reporter + 'a>> = vec![Box::new(ConfigCopy::new(dir))];
    reporters.extend(table_reporters(dir));
    // The report embeds the replays as the replay reporter wrote them.
    let index = SharedIndex::new(super::html::EMBED_BUDGET);
    reporters.push(Box::new(Replays::new(dir).collecting(index.clone())));
    reporters.push(Box::new(HtmlReport::new(dir).with_index(index)));
    reporters
}

/// The reporters that write a run's tables into `dir` from its episodes
/// alone: `episodes.csv`, `moves.jsonl`, `summary.csv`, `crosstable.csv`,
/// `ratings.csv`. Those of `arena run`, and what `run::summarize` and
/// `arena merge` write again from a journal.
pub fn table_reporters<'a>(dir: &Path) -> Vec<Box<dyn Reporter + 'a>> {
    vec![
        Box::new(EpisodesCsv::new(dir)),
        Box::new(MovesJsonl::new(dir)),
        Box::new(SummaryCsv::new(dir)),
        Box::new(CrosstableCsv::new(dir)),
        Box::new(crate::output::reporters::ratings::RatingsCsv::new(dir)),
    ]
}

/// The files an arena run writes into its folder (what `--restart`
/// clears): those its reporters declare ([`Reporter::files`]): the file
/// reporters of [`file_reporters`], the journal and `meta.json`.
pub fn run_files() -> Vec<&'static str> {
    let dir = Path::new("");
    let mut files: Vec<&'static str> = file_reporters(dir)
        .iter()
        .flat_map(|r| r.files())
        .copied()
        .collect();
    files.extend(journal::JournalWriter::new(dir, 0).files());
    files.extend(meta::MetaWriter::FILES);
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files a function's doc comment in this file names in backticks
    /// (`name.ext`), in order.
    fn named_in_doc(function: &str) -> Vec<String> {
        let src = include_str!("files.rs");
        let at = src
            .find(&format!("pub fn {function}"))
            .expect("the function");
        let doc: String = src[..at]
            .lines()
            .rev()
            .take_while(|l| l.starts_with("///"))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join(" ");
        doc.split('`')
            .skip(1)
            .step_by(2)
            .filter(|w| w.contains('.') && !w.contains(' ') && !w.contains(':'))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_doc_comments_name_the_files_the_reporters_write() {
        let dir = Path::new("");
        let tables: Vec<String> = table_reporters(dir)
            .iter()
            .flat_map(|r| r.files())
            .map(|f| f.to_string())
            .collect();
        assert_eq!(named_in_doc("table_reporters"), tables);
        // `file_reporters`: config.toml, the tables, replays, report.html.
        let all: Vec<String> = file_reporters(dir)
            .iter()
            .flat_map(|r| r.files())
            .map(|f| f.to_string())
            .collect();
        let named = named_in_doc("file_reporters");
        let others: Vec<&String> = all.iter().filter(|f| !tables.contains(f)).collect();
        let others: Vec<String> = others.into_iter().cloned().collect();
        assert_eq!(named, others, "file_reporters' doc");
    }
}
