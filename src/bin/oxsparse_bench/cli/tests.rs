use super::*;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn options_parse() {
    let o = parse_args(&args(
        "--matrices a.mtx dir --rmat 100:1000 --runs 5 --warmup 0 --ops spvv,Gather,spmm --quick --json r.json --svg s.svg",
    ))
    .unwrap()
    .unwrap();
    assert_eq!(o.paths, vec![PathBuf::from("a.mtx"), PathBuf::from("dir")]);
    assert_eq!(o.generated, vec![Source::Rmat { nodes: 100, edges: 1000, name: None }]);
    assert_eq!((o.runs, o.warmup, o.quick), (5, 0, true));
    assert_eq!(o.ops, Some(vec!["SpVV", "Gather", "SpMM"]));
    assert_eq!(o.json, Some(PathBuf::from("r.json")));
    assert_eq!(o.svg, Some(PathBuf::from("s.svg")));
    assert!(o.inputs_named());
    let d = parse_args(&[]).unwrap().unwrap();
    assert_eq!((d.runs, d.warmup, d.quick, d.rmat_set, d.passes), (20, 3, false, None, 1));
    assert_eq!(parse_args(&args("--passes 3")).unwrap().unwrap().passes, 3);
    assert_eq!(d.dense_cap_bytes, 8 << 30);
    assert!(!d.inputs_named());
    assert_eq!(d.ops, None);
    assert!(parse_args(&args("--help")).unwrap().is_none());
}

#[test]
fn quick_means_few_runs_unless_told() {
    let q = parse_args(&args("--quick")).unwrap().unwrap();
    assert_eq!((q.runs, q.warmup), (5, 1));
    let q = parse_args(&args("--quick --runs 7 --warmup 2")).unwrap().unwrap();
    assert_eq!((q.runs, q.warmup), (7, 2));
}

#[test]
fn generators_and_sets() {
    let u = parse_args(&args("--uniform 10:20:0.5 --banded 9:2 --blockdiag 100:10:0.3 --stencil 8 --rmat-set small --dense-cap-gib 0.5"))
        .unwrap()
        .unwrap();
    assert_eq!(
        u.generated,
        vec![
            Source::Uniform { rows: 10, cols: 20, density: 0.5 },
            Source::Banded { n: 9, half_width: 2 },
            Source::BlockDiag { n: 100, block: 10, density: 0.3 },
            Source::Stencil { nx: 8 },
        ]
    );
    assert_eq!(u.rmat_set, Some(RmatSet::Small));
    assert_eq!(u.dense_cap_bytes, 512 << 20);
    assert_eq!(parse_args(&args("--rmat-set none")).unwrap().unwrap().rmat_set, Some(RmatSet::None));
}

#[test]
fn spmv_options() {
    let d = parse_args(&[]).unwrap().unwrap();
    assert_eq!((d.spmv, d.spmv_stencil), (ops::SPMV_DEFAULT_SCALARS, None));
    let o = parse_args(&args("--ops SpMV --spmv-alpha -1.5 --spmv-beta 0.25 --spmv-stencil 40")).unwrap().unwrap();
    assert_eq!(o.ops, Some(vec!["SpMV"]));
    assert_eq!((o.spmv.alpha, o.spmv.beta, o.spmv_stencil), (-1.5, 0.25, Some(Some(40))));
    assert_eq!(parse_args(&args("--spmv-stencil none")).unwrap().unwrap().spmv_stencil, Some(None));
    assert_eq!(parse_args(&args("--spmv-stencil 0")).unwrap().unwrap().spmv_stencil, Some(None));
}

#[test]
fn spmm_precisions() {
    assert!(parse_args(&[]).unwrap().unwrap().spmm_precisions.is_empty());
    let o = parse_args(&args("--spmm-precisions fp16,FP32")).unwrap().unwrap();
    assert_eq!(o.spmm_precisions, vec!["FP16", "FP32"]);
    assert!(parse_args(&args("--spmm-precisions fp8")).unwrap_err().contains("fp8"));
}

#[test]
fn only() {
    assert_eq!(parse_args(&[]).unwrap().unwrap().only, None);
    assert_eq!(parse_args(&args("--only BLOCKED_ELL")).unwrap().unwrap().only.as_deref(), Some("BLOCKED_ELL"));
    assert!(parse_args(&args("--only")).unwrap_err().contains("--only"));
}

#[test]
fn math_mode() {
    assert_eq!(parse_args(&[]).unwrap().unwrap().math_mode, MathMode::OXSPARSE_DEFAULT_MATH);
    for (arg, want) in [
        ("default", MathMode::OXSPARSE_DEFAULT_MATH),
        ("tf32", MathMode::OXSPARSE_TF32_TENSOR_OP_MATH),
        ("fp32_accurate", MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH),
        ("3xtf32", MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH),
    ] {
        let o = parse_args(&args(&format!("--math-mode {arg}"))).unwrap().unwrap();
        assert_eq!(o.math_mode, want, "{arg}");
    }
    for &m in MathMode::ALL {
        assert_eq!(MathMode::parse(math_mode_name(m)), Some(m), "the recorded name parses back");
    }
    assert!(USAGE.contains("--math-mode default|tf32|fp32_accurate"));
}

#[test]
fn reorder_mode() {
    assert_eq!(parse_args(&[]).unwrap().unwrap().reorder, ReorderMode::OXSPARSE_REORDER_NONE);
    let o = parse_args(&args("--reorder affinity")).unwrap().unwrap();
    assert_eq!(o.reorder, ReorderMode::OXSPARSE_REORDER_DATA_AFFINITY);
    for m in ReorderMode::ALL.iter().copied() {
        assert_eq!(ReorderMode::parse(reorder_name(m)), Some(m), "the recorded name parses back");
    }
    assert!(USAGE.contains("--reorder none|affinity"));
}

#[test]
fn bad_options_are_refused() {
    for bad in [
        "--runs",
        "--runs x",
        "--runs 0",
        "--passes 0",
        "--rmat 5",
        "--rmat 5:1.5",
        "--uniform 5:5",
        "--ops SpMX",
        "--spmv-alpha",
        "--spmv-beta nan",
        "--spmv-alpha x",
        "--spmv-stencil 2.5",
        "--matrices",
        "--frobnicate",
        "--rmat-set some",
        "--blockdiag 10:0:0.5",
        "--blockdiag 10:2:1.5",
        "--blockdiag 10.5:2:0.5",
        "--stencil 2.5",
        "--stencil 4:4",
        "--dense-cap-gib 0",
        "--svg",
        "--math-mode",
        "--reorder",
        "--reorder rcm",
        "--math-mode fast",
        "--math-mode 1",
    ] {
        assert!(parse_args(&args(bad)).is_err(), "{bad}");
    }
}

#[test]
fn sddmm_options() {
    let d = parse_args(&[]).unwrap().unwrap();
    assert!(d.sddmm_k.is_empty() && d.sddmm_layouts.is_empty() && d.mask_set.is_none());
    let o = parse_args(&args("--ops sddmm --sddmm-k 32,128,32")).unwrap().unwrap();
    assert_eq!((o.ops.clone(), o.sddmm_k.clone()), (Some(vec!["SDDMM"]), vec![32, 128]));
    assert!(!o.inputs_named());
    let o = parse_args(&args("--attention-set all --window 4096:64 --block-mask 4096:64:0.1 --random-mask 2048:0.05")).unwrap().unwrap();
    assert_eq!(o.mask_set, Some(MaskSet::All));
    assert_eq!(
        o.generated,
        vec![
            Source::Mask(Mask::Window { len: 4096, width: 64 }),
            Source::Mask(Mask::Block { len: 4096, block: 64, keep: 0.1 }),
            Source::Mask(Mask::Random { len: 2048, density: 0.05 }),
        ]
    );
    assert!(o.inputs_named());
    assert!(parse_args(&args("--attention-set all")).unwrap().unwrap().inputs_named(), "the set names inputs");
    let none = parse_args(&args("--attention-set none")).unwrap().unwrap();
    assert_eq!((none.mask_set, none.inputs_named()), (Some(MaskSet::None), false));
    let o = parse_args(&args("--ops SDDMM --sddmm-layouts row,fast,ROW --attention-set all")).unwrap().unwrap();
    assert_eq!(o.sddmm_layouts, vec![ops::SddmmLayout::Row, ops::SddmmLayout::Fast]);
    assert_eq!(parse_args(&args("--sddmm-layouts fast")).unwrap().unwrap().sddmm_layouts, vec![ops::SddmmLayout::Fast]);
    assert!(USAGE.contains("--sddmm-layouts L,...") && USAGE.contains("(default fast)"));
    assert!(USAGE.contains("--sddmm-k K,...") && USAGE.contains("--attention-set none|all") && USAGE.contains("SDDMM, Gather"));
    // A mask over the cap is refused with the reason.
    assert!(parse_args(&args("--block-mask 65536:64:0.1")).unwrap_err().contains("cap"));
}

#[test]
fn bad_sddmm_options_are_refused() {
    for bad in [
        "--sddmm-k",
        "--sddmm-k 0",
        "--sddmm-k x",
        "--sddmm-k ,",
        "--sddmm-k 32,-1",
        "--sddmm-layouts",
        "--sddmm-layouts ,",
        "--sddmm-layouts col",
        "--sddmm-layouts fast,rows",
        "--attention-set some",
        "--window 4096",
        "--window 4096.5:64",
        "--block-mask 100:0:0.5",
        "--block-mask 100:10",
        "--random-mask 100:1.5",
        "--random-mask 0:0.5",
    ] {
        assert!(parse_args(&args(bad)).is_err(), "{bad}");
    }
}
