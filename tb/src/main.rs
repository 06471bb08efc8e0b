//! `texpix`: run, generate, export, co-simulate and benchmark texpix units. See `texpix help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = texpix_tb::cli::main_with(&args) {
        eprintln!("texpix: {e}");
        std::process::exit(1);
    }
}
