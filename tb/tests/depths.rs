//! Every pipeline depth of every unit that has more than one (`Unit::DEPTHS`): the rust-hdl model
//! at every depth and the netlist engine (the exported Verilog, compiled by Yosys) at the deepest
//! (every depth: `-- --ignored`) against the golden model, in order, under back-pressure; the exported Verilog lint-clean (depth 0 in `verilog.rs`); the latency one clock
//! longer per extra stage, with the throughput of one transaction per clock kept (the texture
//! unit, whose depth is its two sub-units': longer by their stages).
//!
//! Needs Yosys and Verilator (scripts/setup.sh installs them); fails, not skips, without them.

use std::path::PathBuf;
use texpix_sim::StreamConfig;
use texpix_tb::scoreboard::{self, stalls};
use texpix_tb::tools;
use texpix_tb::unit::{Engine, Unit};

/// `U::TEST_VECTORS` random vectors at 30 % back-pressure through the unit built at `depth` on
/// `engine`: every result equal to the golden model's, in order.
fn matches_golden<U: Unit>(engine: Engine, depth: usize, seed: u64) {
    let vectors = U::random(seed, U::TEST_VECTORS);
    let mut sim = U::new_sim_at(engine, depth).expect("unit at depth");
    let (results, stats) = U::run(&mut sim, &vectors, &stalls(300, seed)).expect("run");
    scoreboard::check::<U>(&vectors, &results)
        .unwrap_or_else(|e| panic!("{} depth {depth} on {engine:?}: {e}", U::NAME));
    assert!(stats.out_stall_cycles > 0, "{stats:?}");
    if engine == Engine::Netlist {
        assert!(sim.netlist().is_some(), "ran on the netlist engine");
    }
}

/// Latency (accepting edge to output edge) of one vector, and the clocks per transaction of a
/// back-to-back run of `n` vectors (the spacing of their outputs per accepted transaction), without
/// back-pressure, at `depth`.
fn timing<U: Unit>(depth: usize, n: usize) -> (u64, f64) {
    let free = StreamConfig {
        in_idle_permille: 0,
        out_stall_permille: 0,
        seed: 1,
        max_idle_cycles: 1000,
    };
    let vectors = U::random(5, n);
    let mut sim = U::new_sim_at(Engine::Rtl, depth).expect("unit at depth");
    let (one, _) = U::run(&mut sim, &vectors[..1], &free).expect("run");
    let mut sim = U::new_sim_at(Engine::Rtl, depth).expect("unit at depth");
    let (all, stats) = U::run(&mut sim, &vectors, &free).expect("run");
    scoreboard::check::<U>(&vectors, &all).expect("RTL == golden");
    // The spacing of the outputs, first to last, per accepted transaction after the first: the
    // pipeline's fill (its latency) left out.
    let span = all.last().unwrap().cycle_out - all.first().unwrap().cycle_out;
    (
        one[0].cycle_out - one[0].cycle_in,
        span as f64 / (stats.accepted - 1) as f64,
    )
}

/// The tests every unit with more than one depth runs, in a module that defines `U`; an
/// `ignore = "why"` makes the deepest build's netlist-engine run opt-in.
macro_rules! every_depth_tests {
    ($($deepest_netlist:meta)?) => {
        #[test]
        fn has_two_or_more_depths() {
            assert!(U::DEPTHS.len() >= 2 && U::DEPTHS[0] == 0, "{:?}", U::DEPTHS);
            assert!(U::check_depth(*U::DEPTHS.last().unwrap() + 1).is_err());
        }

        #[test]
        fn every_depth_matches_golden_on_rust_hdl() {
            for (k, &d) in U::DEPTHS.iter().enumerate() {
                matches_golden::<U>(Engine::Rtl, d, 41 + k as u64);
            }
        }

        /// The deepest build on the netlist engine (depth 0's netlist is checked in
        /// `tb/tests/netlist.rs`; every depth runs on the rust-hdl model and is exported
        /// lint-clean here). Each depth is a Yosys elaboration of minutes: the others are
        /// opt-in.
        #[test]
        $(#[$deepest_netlist])?
        fn deepest_depth_matches_golden_on_the_netlist_engine() {
            let k = U::DEPTHS.len() - 1;
            matches_golden::<U>(Engine::Netlist, U::DEPTHS[k], 51 + k as u64);
        }

        #[test]
        #[ignore = "opt-in: a Yosys elaboration per depth"]
        fn every_depth_matches_golden_on_the_netlist_engine() {
            for (k, &d) in U::DEPTHS.iter().enumerate() {
                matches_golden::<U>(Engine::Netlist, d, 51 + k as u64);
            }
        }

        /// Depth 0 is `tb/tests/verilog.rs`'s lint (the same check, not run twice).
        #[test]
        fn every_deeper_depth_exports_lint_clean_verilog() {
            for &d in &U::DEPTHS[1..] {
                let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                    .join(format!("depth_{}_{d}", U::NAME));
                std::fs::create_dir_all(&dir).expect("dir");
                let f = dir.join(format!("{}.v", U::TOP));
                std::fs::write(&f, U::verilog_at(d).expect("export")).expect("write");
                tools::lint(&f, U::TOP, &[]).unwrap_or_else(|e| panic!("depth {d}: {e}"));
            }
        }
    };
}

/// The units that take one transaction per clock at every depth.
macro_rules! depth_tests {
    ($($id:ident => $u:ty),* $(,)?) => {$(
        mod $id {
            use super::*;
            type U = $u;

            every_depth_tests!();

            #[test]
            fn each_stage_adds_one_clock_of_latency_and_none_of_throughput() {
                let (lat0, cpt0) = timing::<U>(0, 200);
                for &d in &U::DEPTHS[1..] {
                    let (lat, cpt) = timing::<U>(d, 200);
                    eprintln!("{} depth {d}: latency {lat} (depth 0: {lat0}), {cpt:.3} clocks per transaction (depth 0: {cpt0:.3})", U::NAME);
                    assert_eq!(lat, lat0 + d as u64, "latency at depth {d}");
                    assert!(cpt <= cpt0 + 0.02, "clocks per transaction at depth {d}: {cpt} vs {cpt0}");
                }
            }
        }
    )*};
}

depth_tests! {
    coverage => texpix_tb::coverage::Coverage,
    lod => texpix_tb::lod::Lod,
    texaddr => texpix_tb::texaddr::TexAddr,
    bvh => texpix_tb::bvh::Bvh,
}

/// The texture unit: its depth is its LOD unit's and address pipeline's
/// (`TexUnit::sub_depths`), behind handshakes, so results stay the golden model's and an
/// instruction's latency grows by exactly the two sub-units' extra stages. (Its throughput is
/// not one instruction per clock at any depth; `texpix bench tex --depth N` measures it.)
mod tex {
    use super::*;
    use texpix_rtl::tex::TexUnit;
    use texpix_tb::tex::dut::{run_with, MemConfig};
    use texpix_tb::tex::{stim, CacheConfig};
    type U = texpix_tb::tex::Tex;

    // The deepest build adds no logic of its own to the unit's netlist: its two sub-units run
    // at their deepest on the netlist engine above (lod 42, texaddr 46), and this build's
    // Verilog is linted here; its own Yosys elaboration takes about 10 minutes and 6 GB.
    every_depth_tests!(ignore = "opt-in: a 10-minute Yosys elaboration of the whole texture unit");

    /// Accept-to-result latency of one bilinear quad (the standard sweep's first, cache cold,
    /// memory latency 10 clocks) at `depth`.
    fn one_quad_latency(depth: usize) -> u64 {
        let free = StreamConfig {
            in_idle_permille: 0,
            out_stall_permille: 0,
            seed: 1,
            max_idle_cycles: 1000,
        };
        let mem = MemConfig {
            min_latency: 10,
            max_latency: 10,
            stall_permille: 0,
        };
        let v = &stim::standard_sweep()[0].1[..1];
        let mut sim = U::new_sim_at(Engine::Rtl, depth).expect("unit at depth");
        let (r, _, _) = run_with(&mut sim, v, &free, &mem, CacheConfig::default()).expect("run");
        scoreboard::check::<U>(v, &r).expect("RTL == golden");
        r[0].cycle_out - r[0].cycle_in
    }

    #[test]
    fn latency_grows_by_the_sub_units_stages() {
        let lat0 = one_quad_latency(0);
        for &d in &U::DEPTHS[1..] {
            let (lod, addr) = TexUnit::sub_depths(d);
            let lat = one_quad_latency(d);
            eprintln!("tex depth {d} (LOD {lod}, address {addr}): latency {lat} (depth 0: {lat0})");
            assert_eq!(lat, lat0 + (lod + addr) as u64, "latency at depth {d}");
        }
    }
}
