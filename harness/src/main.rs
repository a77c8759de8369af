//! The `arena` binary: [`harness::entry::main`] with the process's arguments.

fn main() {
    std::process::exit(harness::entry::main(std::env::args_os()));
}
