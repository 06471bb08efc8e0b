use texpix_rtl::coverage::CoverageUnit;

#[test]
fn coverage_exports_with_named_top_and_clean_port_names() {
    let mut uut = CoverageUnit::default();
    let v =
        texpix_rtl::export::verilog(&mut uut, "texpix_coverage", "test header").expect("export");
    assert!(v.starts_with("// test header\n"));
    assert!(v.contains("module texpix_coverage("));
    assert!(v.contains("input wire  [7:0] in_pos_63;"));
    assert!(!v.contains("in_pos$"));
}

#[test]
fn dollar_separators_become_underscores() {
    use texpix_rtl::export::port_name;
    assert_eq!(port_name("in_pos$3"), "in_pos_3");
    assert_eq!(port_name("a$b$0 = $signed(x$1);"), "a_b_0 = $signed(x_1);");
}

/// Every LOD lane depth adds exactly one register stage, and the ladder ends with every operation
/// at its most stages: the multipliers at nine (seven pieces cut, two transport registers) and
/// the logs at nine (six pieces cut, two transport registers beside the interpolation product,
/// one in front of the ROM).
#[test]
fn each_lod_lane_depth_adds_one_stage_up_to_the_transport_registers() {
    use texpix_rtl::lod::lane::LaneStages;
    use texpix_rtl::lod::LodLane;
    for depth in 0..=LodLane::MAX_DEPTH {
        assert_eq!(LaneStages::at(depth).latency(), 3 + depth, "depth {depth}");
    }
    let core = LaneStages::at(LodLane::CORE_DEPTH);
    assert_eq!((core.scale, core.square, core.sum, core.log), (7, 7, 6, 6));
    let deepest = LaneStages::at(LodLane::MAX_DEPTH);
    assert_eq!((deepest.scale, deepest.square, deepest.sum), (9, 9, 6));
    assert_eq!((deepest.log, deepest.input, deepest.select), (9, 1, 1));
}
