//! Every format x opA x opB x order of B x order of C in FP32 (140 cases), and every format x opA x
//! opB in complex FP32, where H conjugates (35 cases). Index type, base, pointer mode, padding,
//! scalars (beta == 0 included) and algorithm hint are cycled through the cases.

use super::harness::*;
use oxsparse::types::DataType::*;

pub const FORMATS: [Fmt; 6] = [Fmt::Csr, Fmt::Csc, Fmt::Coo, Fmt::Bsr(ROW), Fmt::Bsr(COL), Fmt::Bell];
/// (m, k, n): multiples of 2, 3 and 4 give the blocked formats real blocks.
const SHAPES: [(i64, i64, i64); 6] = [(36, 24, 7), (24, 36, 33), (60, 12, 1), (12, 60, 12), (1, 36, 24), (36, 1, 9)];
const C32: Types = (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F);

pub fn every_format_op_and_layout_fp32_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in FORMATS {
        let (ops_a, ops_b) = ops_for(fmt);
        for &op_a in ops_a {
            for &op_b in ops_b {
                for order_b in [COL, ROW] {
                    for order_c in [COL, ROW] {
                        let i = cases.len();
                        cases.push(vary(Case { op_a, op_b, order_b, order_c, ..Case::new(fmt, pick(&SHAPES, i)) }, i));
                    }
                }
            }
        }
    }
    cases
}

#[test]
fn every_format_op_and_layout_fp32() {
    sweep("spmm every format, op and layout (fp32)", &every_format_op_and_layout_fp32_cases());
}

pub fn every_format_and_op_complex_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for fmt in FORMATS {
        let (ops_a, ops_b) = ops_for(fmt);
        for &op_a in ops_a {
            for &op_b in ops_b {
                let i = cases.len();
                let (order_b, order_c) = (pick(&[COL, ROW], i), pick(&[ROW, COL], i / 2));
                let c = Case { op_a, op_b, order_b, order_c, types: C32, ..Case::new(fmt, pick(&SHAPES, i + 1)) };
                cases.push(vary(c, 1000 + i));
            }
        }
    }
    cases
}

#[test]
fn every_format_and_op_complex() {
    sweep("spmm every format and op (complex fp32)", &every_format_and_op_complex_cases());
}
