//! The `arena` binary: [`harness::cli::entry::main`] with the process's arguments.

/// mimalloc instead of the system allocator: the run's threads hand every
/// finished episode's record (and its strings) from one to another, and
/// glibc's allocator frees another thread's memory under that arena's lock.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(harness::cli::entry::main(std::env::args_os()));
}
