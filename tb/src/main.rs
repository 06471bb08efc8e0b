//! `texpix`: run, generate, export, co-simulate and benchmark texpix units. See `texpix --help`.

mod cli;

use clap::Parser;

/// Stack of the thread that runs the command: a unit's rust-hdl signal tree is built by value
/// before it is boxed (the texture unit's is larger than the main thread's 8 MiB).
const BIG_STACK: usize = 512 << 20;

fn main() {
    let args = cli::Cli::parse();
    let run = std::thread::Builder::new()
        .stack_size(BIG_STACK)
        .spawn(move || cli::run(args))
        .unwrap_or_else(|e| {
            eprintln!("texpix: cannot start the command's thread: {e}");
            std::process::exit(1);
        });
    match run.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            eprintln!("texpix: {e}");
            std::process::exit(1);
        }
        // The panic message has been printed by the panic hook.
        Err(_) => std::process::exit(101),
    }
}
