//! SpMM under cuSPARSE's preprocess contract, as a training loop lives it: preprocess once, then
//! calls with new values of A in place (uploaded and read back in the legacy stream's order only,
//! as a C program's cudaMemcpy is), a refused preprocess (which must leave the earlier state in
//! force: the same bits after it), values behind a new pointer (`SpMatSetValues`), all arrays
//! moved (`CsrSetPointers`), a new B, and the buffer freed and allocated again. The device suite runs this binary again with each SpMM kernel forced.

mod common;

use common::hubs::{Problem, SETS};
use common::{gpu, DevBuf};
use oxsparse::ffi::descr_sparse_access::*;
use oxsparse::ffi::handle::*;
use oxsparse::ffi::*;
use oxsparse::types::Status;
use std::ffi::c_void;
use std::ptr::null_mut;

const OK: i32 = Status::OXSPARSE_STATUS_SUCCESS as i32;
const INVALID: i32 = Status::OXSPARSE_STATUS_INVALID_VALUE as i32;

unsafe fn lifecycle(p: &mut Problem) -> Result<(), String> {
    let ptr = |d: &DevBuf| d.ptr as *mut c_void;
    let mut h: oxsparseHandle_t = null_mut();
    assert_eq!(oxsparseCreate(&mut h), OK);
    let d = p.on_device(h);
    let (val, b, c, size) = (&d.a_arrays[2], &d.b, &d.out, d.size);
    let mut ws = DevBuf::poisoned(size, 0xFF);
    let call = |ws: &DevBuf| {
        c.poison(0xFF);
        let s = d.call(ptr(ws));
        (s, c.read_ordered())
    };
    let floats = |bytes: &[u8]| bytes.chunks_exact(4).map(|x| f32::from_ne_bytes(x.try_into().unwrap())).collect::<Vec<f32>>();
    assert_eq!(d.preprocess(0, ptr(&ws)), OK);
    let mut outcome = Ok(());
    let mut last = Vec::new();
    for round in 0..2 * SETS {
        let s = round % SETS;
        val.write_ordered(bytes_of(&p.values[s]));
        let (st, got) = call(&ws);
        let wrong = p.wrong(s, &floats(&got));
        if st != OK || wrong > 0 {
            outcome = Err(format!("round {round} with new values: status {st}, {wrong} wrong"));
            break;
        }
        last = got;
    }
    // Refused preprocesses change nothing: the next call gives the same bits.
    if outcome.is_ok() {
        let bad_alg = d.preprocess(77, ptr(&ws));
        let no_buffer = if size > 0 { d.preprocess(0, null_mut()) } else { INVALID };
        let (st, got) = call(&ws);
        if bad_alg != INVALID || no_buffer != INVALID {
            outcome = Err(format!("refused preprocesses returned {bad_alg} and {no_buffer}"));
        } else if st != OK || got != last {
            outcome = Err("a refused preprocess changed the next call's bits".into());
        }
    }
    // Values behind a new pointer, then every array moved.
    let moved_values = DevBuf::from_slice(&p.values[1]);
    let (moved_off, moved_ind) = (DevBuf::from_slice(&p.a.offsets), DevBuf::from_slice(&p.a.indices));
    if outcome.is_ok() {
        assert_eq!(oxsparseSpMatSetValues(d.a, ptr(&moved_values)), OK);
        let (st, got) = call(&ws);
        let wrong = p.wrong(1, &floats(&got));
        if st != OK || wrong > 0 {
            outcome = Err(format!("values behind a new pointer: status {st}, {wrong} wrong"));
        }
    }
    if outcome.is_ok() {
        val.write_ordered(bytes_of(&p.values[2]));
        assert_eq!(oxsparseCsrSetPointers(d.a, ptr(&moved_off), ptr(&moved_ind), ptr(val)), OK);
        let (st, got) = call(&ws);
        let wrong = p.wrong(2, &floats(&got));
        if st != OK || wrong > 0 {
            outcome = Err(format!("arrays moved by CsrSetPointers: status {st}, {wrong} wrong"));
        }
    }
    // New dense operands: B rewritten in place.
    if outcome.is_ok() {
        let mut rng = common::Rng::new(p.n as u64 ^ 0xB);
        p.b.iter_mut().for_each(|x| *x = rng.value() as f32);
        b.write_ordered(bytes_of(&p.b));
        let (st, got) = call(&ws);
        let wrong = p.wrong(2, &floats(&got));
        if st != OK || wrong > 0 {
            outcome = Err(format!("new B: status {st}, {wrong} wrong"));
        }
    }
    // The buffer freed and allocated again (most likely at the same address), with other bytes:
    // preprocess's state must not be trusted in it, and the call must still be right.
    if outcome.is_ok() {
        drop(std::mem::replace(&mut ws, DevBuf::zeroed(1)));
        ws = DevBuf::poisoned(size, 0xA5);
        let (st, got) = call(&ws);
        let wrong = p.wrong(2, &floats(&got));
        if st != OK || wrong > 0 {
            outcome = Err(format!("buffer reallocated: status {st}, {wrong} wrong"));
        }
    }
    d.destroy();
    assert_eq!(oxsparseDestroy(h), OK);
    outcome
}

fn bytes_of(v: &[f32]) -> &[u8] {
    // SAFETY: f32 has no padding; the slice covers exactly its bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

#[test]
fn preprocess_contract_holds_over_a_training_loop() {
    let Some(_gpu) = gpu("spmm preprocess contract") else { return };
    let mut failures = Vec::new();
    let mut cases = 0;
    for (seed, n) in [(5u64, 8192usize), (6, 30000)] {
        for w in [32, 64, 128] {
            cases += 1;
            if let Err(e) = unsafe { lifecycle(&mut Problem::new(n, w, seed)) } {
                failures.push(format!("{n} rows, N = {w}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("spmm preprocess contract: {cases} cases passed");
}
