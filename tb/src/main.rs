//! `texpix`: run, generate, export, co-simulate and benchmark texpix units. See `texpix --help`.

mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    if let Err(e) = cli::run(args) {
        eprintln!("texpix: {e}");
        std::process::exit(1);
    }
}
