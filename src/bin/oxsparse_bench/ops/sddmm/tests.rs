use super::*;

/// 6 x 5 with rows 1 and 4 empty and column 2 untouched: 4 rows and 4 columns hold entries.
fn matrix() -> Matrix {
    let t = vec![(0, 0, 1.0), (0, 4, 1.0), (2, 1, 1.0), (3, 3, 1.0), (5, 0, 1.0), (5, 1, 1.0), (5, 4, 1.0)];
    Matrix { name: "t".into(), group: "g".into(), set: "attention", csr: Csr::from_triplets(6, 5, t).unwrap() }
}

#[test]
fn the_floor_counts_the_touched_rows_and_columns() {
    let m = matrix();
    assert_eq!(touched(&m.csr), Touched { rows: 4, cols: 4 });
    let cs = cases(&m, &OpConfig::with_cap(8 << 30));
    let i = cs[2].info(); // FP32, K = 128
    assert_eq!((i.op, i.variant.as_str(), i.flops), (SDDMM, "csr FP32, K=128", 2 * 7 * 128));
    // C's values and indices (4 + 4 bytes an entry), 7 row offsets, 4 A rows and 4 B columns.
    assert_eq!(i.traffic_bytes, 8 * 7 + 4 * 7 + (4 + 4) * 128 * 4);
    assert_eq!(i.copy_bytes, 4 * 7 + 8 * 7 + (6 + 5) * 128 * 4);
    let h = cs[6].info(); // FP16 A and B, K = 128: half the dense bytes
    assert_eq!(h.variant, "csr FP16 A/B (FP32 C), K=128");
    assert_eq!(h.traffic_bytes, 8 * 7 + 4 * 7 + (4 + 4) * 128 * 2);
}

#[test]
fn two_precisions_at_every_k_with_their_groups() {
    let m = matrix();
    let cs = cases(&m, &OpConfig::with_cap(8 << 30));
    let names: Vec<String> = cs.iter().map(|c| c.info().variant).collect();
    assert_eq!(names.len(), 8);
    assert!(names[..4].iter().all(|v| v.starts_with("csr FP32")) && names[4..].iter().all(|v| v.contains("FP16")));
    let i = cs[0].info();
    assert_eq!(i.summary_groups, vec!["FP32 K=32/64/128/256", "FP32 K=32"]);
    assert_eq!((i.chart_series, i.set), (Some("K=32"), "attention"));
    let h = cs[7].info();
    assert_eq!((h.summary_groups, h.chart_series), (vec!["FP16 A/B K=32/64/128/256".to_string(), "FP16 A/B K=256".to_string()], None));
    // --sddmm-k: those K's only; one K has no all-K group.
    let cfg = OpConfig { sddmm_k: vec![16], ..OpConfig::with_cap(8 << 30) };
    let cs = cases(&m, &cfg);
    assert_eq!(cs.len(), 2);
    let i = cs[0].info();
    assert_eq!((i.summary_groups, i.chart_series, i.flops), (vec!["FP32 K=16".to_string()], Some("K=16"), 2 * 7 * 16));
    let cfg = OpConfig { sddmm_k: vec![32, 128], ..OpConfig::with_cap(8 << 30) };
    assert_eq!(cases(&m, &cfg)[3].info().summary_groups, vec!["FP16 A/B K=32/128", "FP16 A/B K=128"]);
}

#[test]
fn each_layout_beside_the_other_with_its_own_groups() {
    let m = matrix();
    let cfg = OpConfig { sddmm_k: vec![32, 128], sddmm_layouts: vec![SddmmLayout::Fast, SddmmLayout::Row], ..OpConfig::with_cap(8 << 30) };
    let cs = cases(&m, &cfg);
    let names: Vec<String> = cs.iter().map(|c| c.info().variant).collect();
    assert_eq!(
        names,
        vec![
            "csr FP32, K=32",
            "csr FP32, K=32, B row-major",
            "csr FP32, K=128",
            "csr FP32, K=128, B row-major",
            "csr FP16 A/B (FP32 C), K=32",
            "csr FP16 A/B (FP32 C), K=32, B row-major",
            "csr FP16 A/B (FP32 C), K=128",
            "csr FP16 A/B (FP32 C), K=128, B row-major",
        ]
    );
    let (fast, row) = (cs[2].info(), cs[3].info());
    assert_eq!(fast.summary_groups, vec!["FP32 K=32/128", "FP32 K=128"], "the default layout's groups as before");
    assert_eq!(row.summary_groups, vec!["FP32 K=32/128, B row-major", "FP32 K=128, B row-major"]);
    assert_eq!((fast.chart_series, row.chart_series), (Some("K=128"), Some("K=128, B row")));
    assert_eq!((row.traffic_bytes, row.copy_bytes, row.flops), (fast.traffic_bytes, fast.copy_bytes, fast.flops));
    assert_eq!(cs[7].info().summary_groups, vec!["FP16 A/B K=32/128, B row-major", "FP16 A/B K=128, B row-major"]);
    // Row alone: its rows only; the default is the fast layout alone.
    let cfg = OpConfig { sddmm_k: vec![16], sddmm_layouts: vec![SddmmLayout::Row], ..OpConfig::with_cap(8 << 30) };
    let cs = cases(&m, &cfg);
    let i = cs[0].info();
    assert_eq!((cs.len(), i.variant.as_str(), i.chart_series), (2, "csr FP32, K=16, B row-major", Some("K=16, B row")));
    assert!(cases(&m, &OpConfig::with_cap(8 << 30)).iter().all(|c| !c.info().variant.contains("row-major")));
}

#[test]
fn layouts_store_a_and_b() {
    assert_eq!((SddmmLayout::Fast.a(), SddmmLayout::Fast.b()), (Layout::Row, Layout::Col));
    assert_eq!((SddmmLayout::Row.a(), SddmmLayout::Row.b()), (Layout::Row, Layout::Row));
    for l in SddmmLayout::ALL {
        assert_eq!(SddmmLayout::parse(l.name()), Some(l), "the option's name parses back");
    }
    assert_eq!((SddmmLayout::parse("ROW"), SddmmLayout::parse("col")), (Some(SddmmLayout::Row), None));
}

#[test]
fn oxsparse_runs_with_and_without_preprocess_cusparse_with() {
    let m = matrix();
    let cs = cases(&m, &OpConfig::with_cap(8 << 30));
    let ox = cs[0].variants(Lib::Ox(std::ptr::null_mut()));
    assert_eq!(ox.iter().map(|v| (v.label, v.extra)).collect::<Vec<_>>(), vec![("DEFAULT", false), (NO_PREPROCESS, true)]);
    assert!(ox.iter().all(|v| v.code == SDDMM_DEFAULT));
}

#[test]
fn cusparse_may_refuse_fp16_inputs_only() {
    let m = matrix();
    let cs = cases(&m, &OpConfig::with_cap(8 << 30));
    let (fp32, fp16) = (&cs[0], &cs[4]);
    let refusal = "cusparseSDDMM_bufferSize failed: CUSPARSE_STATUS_INVALID_VALUE (3)";
    assert!(fp16.refused("cuSPARSE", refusal));
    assert!(!fp32.refused("cuSPARSE", refusal), "FP32 is the documented case: a refusal fails the run");
    assert!(!fp16.refused("oxsparse", "oxsparseSDDMM failed: OXSPARSE_STATUS_INVALID_VALUE (3)"));
    assert!(!fp16.refused("cuSPARSE", "cuCtxSynchronize (after cuSPARSE's first call) failed: CUDA_ERROR_ILLEGAL_ADDRESS"));
}

#[test]
fn dense_operands_over_the_cap_are_skipped() {
    let m = matrix();
    // FP32 K = 256: 11 * 256 * 4 = 11264 bytes; FP16 K = 32: 704, the smallest.
    let cs = cases(&m, &OpConfig::with_cap(11263));
    let skipped: Vec<bool> = cs.iter().map(|c| c.skip().is_some()).collect();
    assert_eq!(skipped, vec![false, false, false, true, false, false, false, false]);
    assert!(skip(6, 5, 0, &OpConfig::with_cap(704)).is_none());
    assert!(skip(6, 5, 0, &OpConfig::with_cap(703)).unwrap().contains("smallest"));
}
