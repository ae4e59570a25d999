//! Sparse matrices assembled from the entries a test generator drew: CSR, CSC or COO arrays that
//! keep each line's entries in the order given (generators shuffle them, so columns come unsorted
//! within rows), and BSR over a CSR pattern of blocks.

use oxsparse::descr::FormatInfo;
use oxsparse::reference::sparse_to_dense::HostSparse;
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::Order;

/// The CSR, CSC or COO arrays (`format`) of entries `e` (row, column, value) of a `rows x cols`
/// matrix, indices counted from `base`. A stable sort by line keeps each line's order; COO
/// entries are sorted by row only when `coo_sorted`, else kept entirely in the order given.
pub fn from_entries(
    format: FormatInfo,
    (rows, cols): (i64, i64),
    base: i64,
    mut e: Vec<(i64, i64, Value)>,
    coo_sorted: bool,
) -> HostSparse {
    let (by_col, coo) = (format == FormatInfo::Csc, format == FormatInfo::Coo);
    assert!(coo || by_col || format == FormatInfo::Csr, "from_entries makes CSR, CSC or COO, not {format:?}");
    let key = |x: &(i64, i64, Value)| if by_col { x.1 } else { x.0 };
    if !coo || coo_sorted {
        e.sort_by_key(key);
    }
    let offsets = if coo {
        e.iter().map(|x| x.0 + base).collect()
    } else {
        let lines = if by_col { cols } else { rows };
        let mut o = vec![0i64; lines as usize + 1];
        for x in &e {
            o[key(x) as usize + 1] += 1;
        }
        for i in 0..lines as usize {
            o[i + 1] += o[i];
        }
        o.iter().map(|v| v + base).collect()
    };
    let indices = e.iter().map(|x| if by_col { x.0 } else { x.1 } + base).collect();
    HostSparse { format, rows, cols, base, offsets, indices, values: e.iter().map(|x| x.2).collect() }
}

/// BSR of a `rows x cols` matrix in blocks of `rb x cb` stored in `order`: `blocks` holds the
/// (block row, block column) of each stored block, kept in the order given within block rows;
/// `values` holds rb * cb values a block, in stored order.
pub fn bsr(
    (rows, cols): (i64, i64),
    (rb, cb): (i64, i64),
    order: Order,
    base: i64,
    blocks: &[(i64, i64)],
    values: Vec<Value>,
) -> HostSparse {
    let (brows, bcols) = (rows / rb, cols / cb);
    let pattern = blocks.iter().map(|p| (p.0, p.1, ZERO)).collect();
    let mut m = from_entries(FormatInfo::Csr, (brows, bcols), base, pattern, true);
    let bnnz = blocks.len() as i64;
    assert_eq!(values.len() as i64, bnnz * rb * cb, "values for every block");
    m.values = values;
    m.format = FormatInfo::Bsr { brows, bcols, bnnz, row_block: rb, col_block: cb, block_order: order };
    (m.rows, m.cols) = (rows, cols);
    m
}
