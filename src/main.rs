//! The `chuhan` binary: the protocol loop without arguments, the command-line tools otherwise
//! (`chuhan --help`).

fn main() -> std::process::ExitCode {
    chuhan::tools::cli::main()
}
