//! The host tier's sparse-matrix rows: every format's create (and Const twin), the getters, the
//! setters, attributes and strided batches, over the host fixture's descriptors.

use super::descriptors::*;
use super::table::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::descr_sparse_access::*;
use std::os::raw::c_int;
use std::rc::Rc;
use Arg::*;
use Kind::*;

const ATTRIBUTE_GAPS: &[i32] = &[2];

pub fn rows(t: &mut Table, fx: &HostFixture) {
    create(t, fx);
    access(t, fx);
    format_getters(t, fx);
}

/// The enum arguments every sparse-matrix create ends with (offsets type where the format has one).
fn index_and_value_types(with_offsets: bool, offsets_name: &'static str, indices_name: &'static str) -> Vec<(&'static str, Arg)> {
    let mut v = Vec::new();
    if with_offsets {
        v.push((offsets_name, Enum(I32, INDEX_TYPE_GAPS)));
    }
    v.extend([(indices_name, Enum(I32, INDEX_TYPE_GAPS)), ("idxBase", Enum(0, BASE_GAPS)), ("valueType", Enum(R32F, &[]))]);
    v
}

fn create(t: &mut Table, fx: &HostFixture) {
    let out = ("spMatDescr", Made(fx.s(0), SpMat));
    let (o, i, v) = (Data(OFFSETS, 4), Data(INDICES, 4), Data(VALUES, 4));
    // CSR and CSC, each with its Const twin: 8 x 6, 10 entries.
    let compressed: [(&'static str, bool, Caller); 4] = [
        ("oxsparseCreateCsr", false, |a| unsafe {
            oxsparseCreateCsr(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
                int(a[10]),
            )
        }),
        ("oxsparseCreateConstCsr", false, |a| unsafe {
            oxsparseCreateConstCsr(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
                int(a[10]),
            )
        }),
        ("oxsparseCreateCsc", true, |a| unsafe {
            oxsparseCreateCsc(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
                int(a[10]),
            )
        }),
        ("oxsparseCreateConstCsc", true, |a| unsafe {
            oxsparseCreateConstCsc(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
                int(a[10]),
            )
        }),
    ];
    for (func, csc, call) in compressed {
        let (offsets, indices, values) =
            if csc { ("cscColOffsets", "cscRowInd", "cscValues") } else { ("csrRowOffsets", "csrColInd", "csrValues") };
        let mut args = vec![out, ("rows", Size(8)), ("cols", Size(6)), ("nnz", Size(10)), (offsets, o), (indices, i), (values, v)];
        let (ot, it) = if csc { ("cscColOffsetsType", "cscRowIndType") } else { ("csrRowOffsetsType", "csrColIndType") };
        args.extend(index_and_value_types(true, ot, it));
        let mut f = t.func(func, &args, call);
        f.bad(&format!("{offsets} NULL with {}", if csc { "6 columns" } else { "8 rows" }), &[(offsets, 0)], INVALID)
            .bad(&format!("{indices} NULL with nnz 10"), &[(indices, 0)], INVALID)
            .bad(&format!("{values} NULL with nnz 10"), &[(values, 0)], INVALID)
            .bad(
                "all NULL for a 0 x 0 matrix (empty)",
                &[("rows", 0), ("cols", 0), ("nnz", 0), (offsets, 0), (indices, 0), (values, 0)],
                SUCCESS,
            )
            .bad("nnz 2^31 with 32-bit offsets", &[("nnz", 1 << 31)], INVALID)
            .bad("nnz 2^31 - 1 with 32-bit offsets and base one", &[("nnz", (1 << 31) - 1), ("idxBase", 1)], INVALID)
            .bad("rows 2^31 with 32-bit indices", &[("rows", 1 << 31)], INVALID)
            .bad(&format!("{offsets} at 0x100004 for 64-bit offsets"), &[(offsets, OFFSETS + 4), (ot, I64 as u64)], INVALID);
    }

    let coo: [(&'static str, Caller); 2] = [
        ("oxsparseCreateCoo", |a| unsafe {
            oxsparseCreateCoo(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
            )
        }),
        ("oxsparseCreateConstCoo", |a| unsafe {
            oxsparseCreateConstCoo(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                cptr(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
            )
        }),
    ];
    for (func, call) in coo {
        let mut args =
            vec![out, ("rows", Size(8)), ("cols", Size(6)), ("nnz", Size(10)), ("cooRowInd", o), ("cooColInd", i), ("cooValues", v)];
        args.extend(index_and_value_types(false, "", "cooIdxType"));
        t.func(func, &args, call)
            .bad("cooRowInd NULL with nnz 10", &[("cooRowInd", 0)], INVALID)
            .bad("cooColInd NULL with nnz 10", &[("cooColInd", 0)], INVALID)
            .bad("cooValues NULL with nnz 10", &[("cooValues", 0)], INVALID)
            .bad("nnz 2^31 with 32-bit indices", &[("nnz", 1 << 31)], INVALID)
            .bad("cooRowInd at 0x100004 for 64-bit indices", &[("cooRowInd", OFFSETS + 4), ("cooIdxType", I64 as u64)], INVALID);
    }

    let bsr: [(&'static str, Caller); 2] = [
        ("oxsparseCreateBsr", |a| unsafe {
            oxsparseCreateBsr(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                size(a[4]),
                size(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                int(a[9]),
                int(a[10]),
                int(a[11]),
                int(a[12]),
                int(a[13]),
            )
        }),
        ("oxsparseCreateConstBsr", |a| unsafe {
            oxsparseCreateConstBsr(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                size(a[4]),
                size(a[5]),
                cptr(a[6]),
                cptr(a[7]),
                cptr(a[8]),
                int(a[9]),
                int(a[10]),
                int(a[11]),
                int(a[12]),
                int(a[13]),
            )
        }),
    ];
    for (func, call) in bsr {
        // 4 x 3 blocks of 2 x 2, 5 stored.
        let mut args = vec![
            out,
            ("brows", Size(4)),
            ("bcols", Size(3)),
            ("bnnz", Size(5)),
            ("rowBlockSize", Size(2)),
            ("colBlockSize", Size(2)),
            ("bsrRowOffsets", o),
            ("bsrColInd", i),
            ("bsrValues", v),
        ];
        args.extend(index_and_value_types(true, "bsrRowOffsetsType", "bsrColIndType"));
        args.push(("order", Enum(ROW, ORDER_GAPS)));
        t.func(func, &args, call)
            .bad("rowBlockSize 0", &[("rowBlockSize", 0)], INVALID)
            .bad("colBlockSize 0", &[("colBlockSize", 0)], INVALID)
            .bad("bsrRowOffsets NULL with 4 block rows", &[("bsrRowOffsets", 0)], INVALID)
            .bad("bsrColInd NULL with bnnz 5", &[("bsrColInd", 0)], INVALID)
            .bad("bsrValues NULL with bnnz 5", &[("bsrValues", 0)], INVALID)
            .bad("brows x rowBlockSize overflows int64 (block size 2^62)", &[("rowBlockSize", 1 << 62)], INVALID)
            .bad("bcols 2^31 with 32-bit indices", &[("bcols", 1 << 31)], INVALID);
    }

    let bell: [(&'static str, Caller); 2] = [
        ("oxsparseCreateBlockedEll", |a| unsafe {
            oxsparseCreateBlockedEll(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                size(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
            )
        }),
        ("oxsparseCreateConstBlockedEll", |a| unsafe {
            oxsparseCreateConstBlockedEll(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                size(a[4]),
                cptr(a[5]),
                cptr(a[6]),
                int(a[7]),
                int(a[8]),
                int(a[9]),
            )
        }),
    ];
    for (func, call) in bell {
        // 8 x 6 in blocks of 2, 4 stored columns per row.
        let mut args = vec![
            out,
            ("rows", Size(8)),
            ("cols", Size(6)),
            ("ellBlockSize", Size(2)),
            ("ellCols", Size(4)),
            ("ellColInd", i),
            ("ellValue", v),
        ];
        args.extend(index_and_value_types(false, "", "ellIdxType"));
        t.func(func, &args, call)
            .bad("ellCols 3, not a multiple of the block size", &[("ellCols", 3)], INVALID)
            .bad("rows 7, not a multiple of the block size", &[("rows", 7)], INVALID)
            .bad("ellCols 8 > cols 6", &[("ellCols", 8)], INVALID)
            .bad("ellBlockSize 0 with ellCols 4", &[("ellBlockSize", 0)], INVALID)
            .bad("ellCols 2^62: rows x ellCols overflows int64", &[("ellCols", 1 << 62), ("cols", 1 << 62)], INVALID)
            .bad("ellColInd NULL", &[("ellColInd", 0)], INVALID)
            .bad("ellValue NULL", &[("ellValue", 0)], INVALID)
            .bad("2^32 block columns of 1 with 32-bit indices", &[("cols", 1 << 32), ("ellBlockSize", 1)], INVALID);
    }

    let sell: [(&'static str, Caller); 2] = [
        ("oxsparseCreateSlicedEll", |a| unsafe {
            oxsparseCreateSlicedEll(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                size(a[4]),
                size(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                int(a[9]),
                int(a[10]),
                int(a[11]),
                int(a[12]),
            )
        }),
        ("oxsparseCreateConstSlicedEll", |a| unsafe {
            oxsparseCreateConstSlicedEll(
                ptr(a[0]),
                size(a[1]),
                size(a[2]),
                size(a[3]),
                size(a[4]),
                size(a[5]),
                cptr(a[6]),
                cptr(a[7]),
                cptr(a[8]),
                int(a[9]),
                int(a[10]),
                int(a[11]),
                int(a[12]),
            )
        }),
    ];
    for (func, call) in sell {
        // 8 x 6, 10 entries in 16 slots, slices of 4 rows.
        let mut args = vec![
            out,
            ("rows", Size(8)),
            ("cols", Size(6)),
            ("nnz", Size(10)),
            ("sellValuesSize", Size(16)),
            ("sliceSize", Size(4)),
            ("sellSliceOffsets", o),
            ("sellColInd", i),
            ("sellValues", v),
        ];
        args.extend(index_and_value_types(true, "sellSliceOffsetsType", "sellColIndType"));
        t.func(func, &args, call)
            .bad("sellValuesSize 9 < nnz 10", &[("sellValuesSize", 9)], INVALID)
            .bad("sliceSize 0", &[("sliceSize", 0)], INVALID)
            .bad("sellSliceOffsets NULL with 8 rows", &[("sellSliceOffsets", 0)], INVALID)
            .bad("sellColInd NULL", &[("sellColInd", 0)], INVALID)
            .bad("sellValues NULL", &[("sellValues", 0)], INVALID)
            .bad("cols 2^31 + 5 with 32-bit indices", &[("cols", (1 << 31) + 5)], INVALID);
    }
    t.destroy_rows("oxsparseDestroySpMat", SpMat, SUCCESS, Some(Rc::new(new_csr)));
}

fn access(t: &mut Table, fx: &HostFixture) {
    let csr = ("spMatDescr", Obj(SpMat, fx.csr));
    t.func("oxsparseSpMatGetSize", &[csr, ("rows", Out(fx.s(0))), ("cols", Out(fx.s(1))), ("nnz", Out(fx.s(2)))], |a| unsafe {
        oxsparseSpMatGetSize(cptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]))
    });
    t.func("oxsparseSpMatGetFormat", &[csr, ("format", Out(fx.s(0)))], |a| unsafe { oxsparseSpMatGetFormat(cptr(a[0]), ptr(a[1])) });
    t.func("oxsparseSpMatGetIndexBase", &[csr, ("idxBase", Out(fx.s(0)))], |a| unsafe { oxsparseSpMatGetIndexBase(cptr(a[0]), ptr(a[1])) });
    t.func("oxsparseSpMatGetValues", &[csr, ("values", Out(fx.s(0)))], |a| unsafe { oxsparseSpMatGetValues(ptr(a[0]), ptr(a[1])) });
    t.func("oxsparseConstSpMatGetValues", &[csr, ("values", Out(fx.s(0)))], |a| unsafe {
        oxsparseConstSpMatGetValues(cptr(a[0]), ptr(a[1]))
    });
    t.func("oxsparseSpMatSetValues", &[csr, ("values", Data(VALUES, 4))], |a| unsafe { oxsparseSpMatSetValues(ptr(a[0]), ptr(a[1])) }).bad(
        "values NULL with nnz 10",
        &[("values", 0)],
        INVALID,
    );
    t.func("oxsparseSpMatGetStridedBatch", &[csr, ("batchCount", Out(fx.s(0)))], |a| unsafe {
        oxsparseSpMatGetStridedBatch(cptr(a[0]), ptr(a[1]))
    });

    // Strided batches: setting one batch with zero strides leaves the descriptor as it was.
    t.func(
        "oxsparseCooSetStridedBatch",
        &[("spMatDescr", Obj(SpMat, fx.coo)), ("batchCount", Count(1)), ("batchStride", Size(0))],
        |a| unsafe { oxsparseCooSetStridedBatch(ptr(a[0]), int(a[1]), size(a[2])) },
    )
    .bad("a CSR descriptor", &[("spMatDescr", fx.csr)], INVALID);
    let args = [csr, ("batchCount", Count(1)), ("offsetsBatchStride", Size(0)), ("columnsValuesBatchStride", Size(0))];
    t.func("oxsparseCsrSetStridedBatch", &args, |a| unsafe { oxsparseCsrSetStridedBatch(ptr(a[0]), int(a[1]), size(a[2]), size(a[3])) })
        .bad("a COO descriptor", &[("spMatDescr", fx.coo)], INVALID)
        .bad("a BSR descriptor", &[("spMatDescr", fx.bsr)], INVALID);
    let args = [
        ("spMatDescr", Obj(SpMat, fx.bsr)),
        ("batchCount", Count(1)),
        ("offsetsBatchStride", Size(0)),
        ("columnsBatchStride", Size(0)),
        ("ValuesBatchStride", Size(0)),
    ];
    t.func("oxsparseBsrSetStridedBatch", &args, |a| unsafe {
        oxsparseBsrSetStridedBatch(ptr(a[0]), int(a[1]), size(a[2]), size(a[3]), size(a[4]))
    })
    .bad("a CSR descriptor", &[("spMatDescr", fx.csr)], INVALID);

    // Attributes: data points to a 4-byte enum, dataSize must be 4.
    let args = [csr, ("attribute", Enum(0, ATTRIBUTE_GAPS)), ("data", Out(fx.s(0))), ("dataSize", Plain(4))];
    t.func("oxsparseSpMatGetAttribute", &args, |a| unsafe { oxsparseSpMatGetAttribute(cptr(a[0]), int(a[1]), ptr(a[2]), a[3] as usize) })
        .bad("dataSize 0", &[("dataSize", 0)], INVALID)
        .bad("dataSize 8", &[("dataSize", 8)], INVALID)
        .bad("dataSize SIZE_MAX", &[("dataSize", u64::MAX)], INVALID);
    let inputs = &*fx.inputs;
    let lower = &inputs.fill_lower as *const c_int as u64;
    let args = [csr, ("attribute", Enum(0, ATTRIBUTE_GAPS)), ("data", In(lower)), ("dataSize", Plain(4))];
    t.func("oxsparseSpMatSetAttribute", &args, |a| unsafe { oxsparseSpMatSetAttribute(ptr(a[0]), int(a[1]), ptr(a[2]), a[3] as usize) })
        .bad("fill mode 5 (not an enumerator)", &[("data", &inputs.fill_bad as *const c_int as u64)], INVALID)
        .bad("diag type 7 (not an enumerator)", &[("attribute", 1), ("data", &inputs.diag_bad as *const c_int as u64)], INVALID)
        .bad("dataSize 8", &[("dataSize", 8)], INVALID)
        .bad("dataSize 0", &[("dataSize", 0)], INVALID);

    // Pointer setters: the descriptor's own arrays again, so the baseline changes nothing.
    let setters: [(&'static str, u64, [&'static str; 3], Caller); 3] = [
        ("oxsparseCsrSetPointers", fx.csr, ["csrRowOffsets", "csrColInd", "csrValues"], |a| unsafe {
            oxsparseCsrSetPointers(ptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]))
        }),
        ("oxsparseCscSetPointers", fx.csc, ["cscColOffsets", "cscRowInd", "cscValues"], |a| unsafe {
            oxsparseCscSetPointers(ptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]))
        }),
        ("oxsparseCooSetPointers", fx.coo, ["cooRows", "cooColumns", "cooValues"], |a| unsafe {
            oxsparseCooSetPointers(ptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]))
        }),
    ];
    for (func, d, [a0, a1, a2], call) in setters {
        let args = [("spMatDescr", Obj(SpMat, d)), (a0, Data(OFFSETS, 4)), (a1, Data(INDICES, 4)), (a2, Data(VALUES, 4))];
        let other = if d == fx.csr { fx.csc } else { fx.csr };
        t.func(func, &args, call)
            .bad(&format!("{a0} NULL with nnz 10"), &[(a0, 0)], INVALID)
            .bad(&format!("{a1} NULL with nnz 10"), &[(a1, 0)], INVALID)
            .bad(&format!("{a2} NULL with nnz 10"), &[(a2, 0)], INVALID)
            .bad("a descriptor of another format", &[("spMatDescr", other)], INVALID);
    }
}

/// CsrGet, CscGet, CooGet, BlockedEllGet and their Const twins: every output NULL in turn, and a
/// descriptor of another format.
fn format_getters(t: &mut Table, fx: &HostFixture) {
    let three = |offsets: &'static str, indices: &'static str, values: &'static str, types: &[&'static str]| {
        let mut v = vec![("rows", 0), ("cols", 1), ("nnz", 2), (offsets, 3), (indices, 4), (values, 5)];
        v.extend(types.iter().enumerate().map(|(i, &n)| (n, 6 + i)));
        v.extend([("idxBase", 6 + types.len()), ("valueType", 7 + types.len())]);
        v
    };
    let csr_outs = three("csrRowOffsets", "csrColInd", "csrValues", &["csrRowOffsetsType", "csrColIndType"]);
    let csc_outs = three("cscColOffsets", "cscRowInd", "cscValues", &["cscColOffsetsType", "cscRowIndType"]);
    let coo_outs = three("cooRowInd", "cooColInd", "cooValues", &["idxType"]);
    let bell_outs: Vec<(&str, usize)> =
        ["rows", "cols", "ellBlockSize", "ellCols", "ellColInd", "ellValue", "ellIdxType", "idxBase", "valueType"]
            .into_iter()
            .zip(0..)
            .collect();
    // (function, its format's descriptor, its outputs and their slots, two descriptors of other formats)
    type Getter<'a> = (&'static str, u64, &'a [(&'static str, usize)], [(u64, &'static str); 2], Caller);
    let getters: [Getter; 8] = [
        ("oxsparseCsrGet", fx.csr, &csr_outs, [(fx.csc, "CSC"), (fx.coo, "COO")], |a| unsafe {
            oxsparseCsrGet(
                ptr(a[0]),
                ptr(a[1]),
                ptr(a[2]),
                ptr(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
                ptr(a[10]),
            )
        }),
        ("oxsparseConstCsrGet", fx.csr, &csr_outs, [(fx.csc, "CSC"), (fx.bsr, "BSR")], |a| unsafe {
            oxsparseConstCsrGet(
                cptr(a[0]),
                ptr(a[1]),
                ptr(a[2]),
                ptr(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
                ptr(a[10]),
            )
        }),
        ("oxsparseCscGet", fx.csc, &csc_outs, [(fx.csr, "CSR"), (fx.coo, "COO")], |a| unsafe {
            oxsparseCscGet(
                ptr(a[0]),
                ptr(a[1]),
                ptr(a[2]),
                ptr(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
                ptr(a[10]),
            )
        }),
        ("oxsparseConstCscGet", fx.csc, &csc_outs, [(fx.csr, "CSR"), (fx.sell, "Sliced-ELL")], |a| unsafe {
            oxsparseConstCscGet(
                cptr(a[0]),
                ptr(a[1]),
                ptr(a[2]),
                ptr(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
                ptr(a[10]),
            )
        }),
        ("oxsparseCooGet", fx.coo, &coo_outs, [(fx.csr, "CSR"), (fx.bell, "Blocked-ELL")], |a| unsafe {
            oxsparseCooGet(ptr(a[0]), ptr(a[1]), ptr(a[2]), ptr(a[3]), ptr(a[4]), ptr(a[5]), ptr(a[6]), ptr(a[7]), ptr(a[8]), ptr(a[9]))
        }),
        ("oxsparseConstCooGet", fx.coo, &coo_outs, [(fx.csc, "CSC"), (fx.bsr, "BSR")], |a| unsafe {
            oxsparseConstCooGet(
                cptr(a[0]),
                ptr(a[1]),
                ptr(a[2]),
                ptr(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
            )
        }),
        ("oxsparseBlockedEllGet", fx.bell, &bell_outs, [(fx.csr, "CSR"), (fx.bsr, "BSR")], |a| unsafe {
            oxsparseBlockedEllGet(
                ptr(a[0]),
                ptr(a[1]),
                ptr(a[2]),
                ptr(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
            )
        }),
        ("oxsparseConstBlockedEllGet", fx.bell, &bell_outs, [(fx.coo, "COO"), (fx.sell, "Sliced-ELL")], |a| unsafe {
            oxsparseConstBlockedEllGet(
                cptr(a[0]),
                ptr(a[1]),
                ptr(a[2]),
                ptr(a[3]),
                ptr(a[4]),
                ptr(a[5]),
                ptr(a[6]),
                ptr(a[7]),
                ptr(a[8]),
                ptr(a[9]),
            )
        }),
    ];
    for (func, d, outs, others, call) in getters {
        let mut args = vec![("spMatDescr", Obj(SpMat, d))];
        args.extend(outs.iter().map(|&(name, slot)| (name, Out(fx.s(slot)))));
        let mut f = t.func(func, &args, call);
        for (other, format) in others {
            f.bad(&format!("a {format} descriptor"), &[("spMatDescr", other)], INVALID);
        }
    }
}
