use texpix_rtl::coverage::CoverageUnit;

#[test]
fn coverage_exports() {
    let mut uut = CoverageUnit::default();
    let v = texpix_rtl::export::verilog(&mut uut, "texpix_coverage").expect("export");
    std::fs::write(std::env::temp_dir().join("texpix_coverage.v"), &v).unwrap();
    assert!(v.contains("module texpix_coverage"));
}
