//! The `arena` binary: [`harness::cli::entry::main`] with the process's arguments.

fn main() {
    std::process::exit(harness::cli::entry::main(std::env::args_os()));
}
