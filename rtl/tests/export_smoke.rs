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
