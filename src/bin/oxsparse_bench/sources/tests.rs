use super::*;
use crate::cli::parse_args;

fn opts(s: &str) -> Options {
    parse_args(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap().unwrap()
}

fn rmat_names(v: &[Source]) -> Vec<&'static str> {
    v.iter().filter_map(|s| if let Source::Rmat { name: Some(n), .. } = s { Some(*n) } else { None }).collect()
}

#[test]
fn names_and_manifest() {
    assert_eq!(matrix_name(Path::new("/x/cora.mtx.gz")), "cora");
    assert_eq!(matrix_name(Path::new("b.mtx")), "b");
    let dir = std::env::temp_dir().join(format!("oxsparse-bench-sources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("z.mtx"), "").unwrap();
    std::fs::write(dir.join("a.mtx.gz"), "").unwrap();
    std::fs::write(dir.join("notes.txt"), "").unwrap();
    let files = expand(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(
        files,
        vec![Source::File { path: dir.join("a.mtx.gz"), group: "".into() }, Source::File { path: dir.join("z.mtx"), group: "".into() }]
    );
    std::fs::write(dir.join("MANIFEST.tsv"), "file\tclass\trows\nz.mtx\tgnn\t3\n").unwrap();
    assert_eq!(expand(std::slice::from_ref(&dir)).unwrap(), vec![Source::File { path: dir.join("z.mtx"), group: "gnn".into() }]);
    assert!(expand(&[dir.join("missing.mtx")]).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_rmat_set_joins_the_default_run_only() {
    assert!(rmat_names(&sources(&opts("--quick")).unwrap()).is_empty());
    let small = sources(&opts("--quick --rmat-set small")).unwrap();
    assert_eq!(rmat_names(&small), vec!["ddi_like", "arxiv_like", "youtube_like"]);
    assert_eq!(small.len(), 5 + 3);
    assert_eq!(rmat_names(&sources(&opts("--stencil 4 --rmat-set all")).unwrap()).len(), 6);
    assert!(rmat_names(&sources(&opts("--stencil 4")).unwrap()).is_empty());
    assert_eq!(rmat_sources(RmatSet::All).len(), RMAT_SET.len());
}

#[test]
fn spmvs_stencil_joins_when_spmv_runs() {
    let spmv_stencils =
        |s: &str| -> Vec<Source> { sources(&opts(s)).unwrap().into_iter().filter(|s| matches!(s, Source::SpmvStencil { .. })).collect() };
    assert!(spmv_stencils("--quick").is_empty());
    assert!(spmv_stencils("--stencil 4").is_empty(), "named inputs replace the default set");
    assert_eq!(spmv_stencils("--stencil 4 --spmv-stencil 30"), vec![Source::SpmvStencil { nx: 30 }]);
    assert!(spmv_stencils("--stencil 4 --spmv-stencil 30 --ops SpMM").is_empty(), "only with SpMV");
    assert!(spmv_stencils("--quick --spmv-stencil none").is_empty());
    assert_eq!(spmv_stencils("--quick --spmv-stencil 30 --ops spmv,SpMM"), vec![Source::SpmvStencil { nx: 30 }]);
    // SpMV alone wants it, whatever else runs.
    let mut notes = vec![];
    let all: Vec<&ops::MatrixOp> = ops::MATRIX_OPS.iter().collect();
    let cfg = ops::OpConfig::with_cap(8 << 30);
    let (m, wanted) = load(&Source::SpmvStencil { nx: 3 }, &all, &cfg, &mut notes, &|_| {}).unwrap().unwrap();
    assert_eq!(wanted.iter().map(|&k| all[k].name).collect::<Vec<_>>(), vec![ops::SPMV]);
    assert_eq!((m.name.as_str(), m.set, m.group.as_str(), m.csr.nnz()), ("stencil27_nx3", "stencil", "stencil", 343));
    assert!(notes.is_empty());
}

#[test]
fn the_band_set_joins_when_spmm_brcv_runs() {
    let bands = |s: &str| sources(&opts(s)).unwrap().into_iter().filter(|s| matches!(s, Source::Band { .. })).count();
    assert_eq!(bands("--quick --ops SpMM-brcv"), BAND_SET.len());
    assert_eq!(bands("--stencil 4 --ops SpMM,SpMM-brcv"), BAND_SET.len(), "asked for by name, even with named inputs");
    assert_eq!(bands("--quick"), 0);
    assert_eq!(bands("--quick --ops SpMM"), 0);
    // Alone, SpMM-brcv reads no matrix files (the default set need not exist).
    let files = sources(&opts("--ops SpMM-brcv --rmat-set none")).unwrap().into_iter().filter(|s| matches!(s, Source::File { .. })).count();
    assert_eq!(files, 0);
    assert_eq!(bands("--ops SpMM-brcv --rmat-set none"), BAND_SET.len());
    // SpMM-int makes its own inputs: alone, no source at all.
    assert!(sources(&opts("--ops SpMM-int --rmat-set none")).unwrap().is_empty());
    assert!(sources(&opts("--ops SpMM-int,SDDMM-int --rmat-set none")).unwrap().is_empty());
    assert!(sources(&opts("--ops SpMM-blocked,SpMM-int --rmat-set none")).unwrap().is_empty());
    assert_eq!(bands("--ops SpMM-int,SpMM-brcv --rmat-set none"), BAND_SET.len());
}

#[test]
fn generated_sources_load_with_their_names() {
    let mut notes = vec![];
    let ops: Vec<&ops::MatrixOp> = ops::MATRIX_OPS.iter().collect();
    let cfg = ops::OpConfig::with_cap(8 << 30);
    for (src, name, rows) in [
        (Source::Stencil { nx: 3 }, "stencil27_nx3", 27),
        (Source::BlockDiag { n: 50, block: 8, density: 0.5 }, "blockdiag_n50_b8_d0.5", 50),
        (Source::Rmat { nodes: 64, edges: 300, name: Some("tiny_like") }, "tiny_like", 64),
    ] {
        let (m, wanted) = load(&src, &ops, &cfg, &mut notes, &|_| {}).unwrap().unwrap();
        assert_eq!((m.name.as_str(), m.csr.rows), (name, rows));
        assert_eq!(source_name(&src), name);
        // Every operation but SpMM-brcv, which measures banded matrices only.
        assert_eq!(wanted.len(), ops.len() - 1);
        assert!(wanted.iter().all(|&k| ops[k].name != ops::SPMM_BRCV));
        let (o, _) = outline(&src).unwrap();
        assert!(m.csr.nnz() <= o.max_nnz, "{name}: the bound holds");
    }
    // The band set: SpMM-brcv's alone; a plain banded matrix: everyone's.
    let band = Source::Band { n: 300, half_width: 4, fill_percent: 50 };
    let (m, wanted) = load(&band, &ops, &cfg, &mut notes, &|_| {}).unwrap().unwrap();
    assert_eq!((m.name.as_str(), m.set), ("band_n300_w4_f50", "banded"));
    assert_eq!(wanted.iter().map(|&k| ops[k].name).collect::<Vec<_>>(), vec![ops::SPMM_BRCV]);
    let (_, wanted) = load(&Source::Banded { n: 100, half_width: 2 }, &ops, &cfg, &mut notes, &|_| {}).unwrap().unwrap();
    assert_eq!(wanted.len(), ops.len());
}

/// Generates the R-MAT set and compares each nnz with the reference run's. Slow (minutes on
/// few cores, several GiB): `cargo test --release --bin oxsparse-bench -- --ignored rmat_set`.
#[test]
#[ignore]
fn rmat_set_nnz_is_near_the_reference_runs() {
    let mut off = Vec::new();
    for g in &RMAT_SET {
        let t = std::time::Instant::now();
        let m = rmat::rmat(g.nodes, g.edges, MATRIX_SEED, &|s| println!("  {s}")).unwrap();
        let ratio = m.nnz() as f64 / g.reference_nnz as f64;
        println!("{}: {} nnz, reference {}, ratio {ratio:.4}, {:.1} s", g.name, m.nnz(), g.reference_nnz, t.elapsed().as_secs_f64());
        if (ratio - 1.0).abs() > 0.05 {
            off.push(g.name);
        }
    }
    assert!(off.is_empty(), "nnz more than 5% off the reference run's: {off:?}");
}

/// Reads every matrix of the default set and compares its shape and nnz with MANIFEST.tsv.
/// Slow (tens of seconds): `cargo test --release --bin oxsparse-bench -- --ignored`.
#[test]
#[ignore]
fn default_set_matches_its_manifest() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_MATRICES);
    let Ok(text) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
        println!("SKIP: no {}", dir.display());
        return;
    };
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let m = mtx::MtxFile::open(&dir.join(f[0])).and_then(|m| m.read(MATRIX_SEED)).unwrap();
        let want: Vec<usize> = f[2..5].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(vec![m.rows, m.cols, m.nnz()], want, "{}", f[0]);
    }
}

#[test]
fn attention_masks_join_when_sddmm_runs() {
    let masks = |s: &str| sources(&opts(s)).unwrap().into_iter().filter(|s| matches!(s, Source::Mask(_))).count();
    assert_eq!(masks("--quick"), 0);
    assert_eq!(masks("--stencil 4"), 0, "named inputs replace the default set");
    assert_eq!(masks("--stencil 4 --attention-set all"), ATTENTION_SET.len());
    assert_eq!(masks("--quick --attention-set all --ops spmm,SpMV"), 0, "only with SDDMM");
    // The set names inputs: alone, it is all there is.
    let set = sources(&opts("--attention-set all --ops SDDMM")).unwrap();
    assert_eq!(set, ATTENTION_SET.iter().map(|&m| Source::Mask(m)).collect::<Vec<_>>());
    assert_eq!(masks("--window 64:8 --ops SpMM"), 1, "named, it stays (and is noted when loaded)");
}

#[test]
fn masks_are_measured_by_sddmm_alone() {
    let all: Vec<&ops::MatrixOp> = ops::MATRIX_OPS.iter().collect();
    let cfg = ops::OpConfig::with_cap(8 << 30);
    let mask = Source::Mask(crate::masks::Mask::Window { len: 64, width: 8 });
    let mut notes = vec![];
    let (m, wanted) = load(&mask, &all, &cfg, &mut notes, &|_| {}).unwrap().unwrap();
    assert_eq!(wanted.iter().map(|&k| all[k].name).collect::<Vec<_>>(), vec![ops::SDDMM]);
    assert_eq!((m.name.as_str(), m.set, m.group.as_str(), m.csr.nnz()), ("window_L64_w8", "attention", "window", 64 * 9 - 4 * 5));
    assert_eq!(source_name(&mask), "window_L64_w8");
    assert!(notes.is_empty());
    let no_sddmm: Vec<&ops::MatrixOp> = all.iter().copied().filter(|o| o.name != ops::SDDMM).collect();
    assert!(load(&mask, &no_sddmm, &cfg, &mut notes, &|_| {}).unwrap().is_none());
    assert_eq!(notes, vec!["window_L64_w8: measured by SDDMM alone, which does not run"]);
}
