//! The `donna` binary: parses the command line and hands over to `donna::cli`.

fn main() -> std::process::ExitCode {
    donna::cli::main()
}
