//! Matrix Market reader: `coordinate` matrices with `real`, `double`, `integer` or `pattern`
//! values and `general`, `symmetric`, `skew-symmetric` or `hermitian` (real) symmetry; `.mtx.gz`
//! files are decompressed by a `gzip -dc` child process.
//!
//! The header is read first ([`MtxFile::open`]) so that a caller can decide from the shape alone
//! whether to read the entries at all. Symmetric matrices are expanded to both triangles, pattern
//! matrices get uniform random values in [-1, 1) from a fixed seed (mirrored entries share their
//! value), and duplicate entries are summed.

use crate::matrix::{Csr, Rng, MAX_I32};
use crate::Result;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Real,
    Integer,
    Pattern,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    General,
    Symmetric,
    Skew,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub rows: usize,
    pub cols: usize,
    /// Entry lines in the file (before symmetric expansion).
    pub entries: usize,
    pub field: Field,
    pub symmetry: Symmetry,
}

impl Header {
    /// Most stored entries after expansion (duplicates may make it fewer).
    pub fn max_nnz(&self) -> usize {
        match self.symmetry {
            Symmetry::General => self.entries,
            _ => self.entries.saturating_mul(2),
        }
    }
}

/// An open Matrix Market file whose header has been read.
pub struct MtxFile {
    pub header: Header,
    name: String,
    reader: Box<dyn BufRead>,
    line_no: u64,
    /// The `gzip -dc` process feeding `reader`, for `.gz` files.
    child: Option<Child>,
}

impl MtxFile {
    /// Opens `path` (plain or `.gz`) and reads its header.
    pub fn open(path: &Path) -> Result<MtxFile> {
        let name = path.display().to_string();
        let gz = path.extension().is_some_and(|e| e == "gz");
        let (reader, child): (Box<dyn Read>, Option<Child>) = if gz {
            let mut child = Command::new("gzip")
                .arg("-dc")
                .arg(path)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("{name}: cannot run gzip -dc: {e}"))?;
            (Box::new(child.stdout.take().expect("piped stdout")), Some(child))
        } else {
            (Box::new(std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?), None)
        };
        MtxFile::from_reader(&name, BufReader::with_capacity(1 << 20, reader), child)
    }

    /// Reads the header from any reader (the unit tests use in-memory text).
    pub fn from_reader(name: &str, reader: impl BufRead + 'static, child: Option<Child>) -> Result<MtxFile> {
        let mut f = MtxFile {
            header: Header { rows: 0, cols: 0, entries: 0, field: Field::Real, symmetry: Symmetry::General },
            name: name.to_string(),
            reader: Box::new(reader),
            line_no: 0,
            child,
        };
        let mut line = String::new();
        if !f.next_line(&mut line, false)? {
            return Err(f.early_end("empty file"));
        }
        let (field, symmetry) = parse_banner(&line).map_err(|e| f.err(&e))?;
        if !f.next_line(&mut line, true)? {
            return Err(f.early_end("no size line"));
        }
        let size: Vec<&str> = line.split_ascii_whitespace().collect();
        let num = |s: &str| s.parse::<usize>().map_err(|_| format!("bad size line {:?}", line.trim_end()));
        if size.len() != 3 {
            return Err(f.err(&format!("the size line must hold rows, cols and entries, found {:?}", line.trim_end())));
        }
        let (rows, cols, entries) =
            (num(size[0]).map_err(|e| f.err(&e))?, num(size[1]).map_err(|e| f.err(&e))?, num(size[2]).map_err(|e| f.err(&e))?);
        if rows > MAX_I32 || cols > MAX_I32 {
            return Err(f.err(&format!("{rows} x {cols} is too large for 32-bit indices")));
        }
        if symmetry != Symmetry::General && rows != cols {
            return Err(f.err(&format!("a {symmetry:?} matrix must be square, this one is {rows} x {cols}")));
        }
        f.header = Header { rows, cols, entries, field, symmetry };
        Ok(f)
    }

    /// Reads every entry and builds the CSR matrix; `seed` draws the values of pattern matrices.
    pub fn read(mut self, seed: u64) -> Result<Csr> {
        let h = self.header;
        let mut rng = Rng::new(seed);
        let mut triplets: Vec<(u32, u32, f32)> = Vec::with_capacity(h.max_nnz().min(1 << 28));
        let mut line = String::new();
        for k in 0..h.entries {
            if !self.next_line(&mut line, true)? {
                return Err(self.early_end(&format!("the header announces {} entries but the file ends after {k}", h.entries)));
            }
            let (r, c, v) = self.parse_entry(&line, &mut rng)?;
            triplets.push((r, c, v));
            if r != c {
                match h.symmetry {
                    Symmetry::General => {}
                    Symmetry::Symmetric => triplets.push((c, r, v)),
                    Symmetry::Skew => triplets.push((c, r, -v)),
                }
            }
        }
        if self.next_line(&mut line, true)? {
            return Err(self.err(&format!("more entries than the {} the header announces", h.entries)));
        }
        self.finish_child()?;
        Csr::from_triplets(h.rows, h.cols, triplets).map_err(|e| format!("{}: {e}", self.name))
    }

    /// One entry line: 1-based row and column, then the value unless the field is pattern.
    fn parse_entry(&self, line: &str, rng: &mut Rng) -> Result<(u32, u32, f32)> {
        let h = &self.header;
        let mut t = line.split_ascii_whitespace();
        let mut index = |what: &str, n: usize| -> Result<u32> {
            let s = t.next().ok_or_else(|| self.err(&format!("missing {what} index")))?;
            match s.parse::<usize>() {
                Ok(i) if (1..=n).contains(&i) => Ok((i - 1) as u32),
                _ => Err(self.err(&format!("{what} index {s:?} is not in 1..={n}"))),
            }
        };
        let r = index("row", h.rows)?;
        let c = index("column", h.cols)?;
        let v = match h.field {
            Field::Pattern => rng.value(),
            Field::Real | Field::Integer => {
                let s = t.next().ok_or_else(|| self.err("missing value"))?;
                s.parse::<f64>().map_err(|_| self.err(&format!("bad value {s:?}")))? as f32
            }
        };
        Ok((r, c, v))
    }

    /// Reads the next line that is not blank, skipping `%` comments when `skip_comments`.
    /// Returns false at the end of the input.
    fn next_line(&mut self, line: &mut String, skip_comments: bool) -> Result<bool> {
        loop {
            line.clear();
            let n = self.reader.read_line(line).map_err(|e| self.err(&format!("read error: {e}")))?;
            if n == 0 {
                return Ok(false);
            }
            self.line_no += 1;
            let t = line.trim_start();
            if t.is_empty() || (skip_comments && t.starts_with('%')) {
                continue;
            }
            return Ok(true);
        }
    }

    /// Waits for gzip and reports its failure (a truncated or corrupt archive).
    fn finish_child(&mut self) -> Result<()> {
        let Some(mut child) = self.child.take() else { return Ok(()) };
        // Drain what is left so gzip never blocks on a full pipe, then collect its verdict.
        std::io::copy(&mut self.reader, &mut std::io::sink()).ok();
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            e.read_to_string(&mut stderr).ok();
        }
        let status = child.wait().map_err(|e| self.err(&format!("gzip: {e}")))?;
        if !status.success() {
            return Err(self.err(&format!("gzip -dc failed ({status}): {}", stderr.trim())));
        }
        Ok(())
    }

    /// The input ended too soon: gzip's failure when it failed (a corrupt archive), else `what`.
    fn early_end(&mut self, what: &str) -> String {
        match self.finish_child() {
            Err(e) => e,
            Ok(()) => self.err(what),
        }
    }

    fn err(&self, what: &str) -> String {
        format!("{}:{}: {what}", self.name, self.line_no)
    }
}

impl Drop for MtxFile {
    /// A file dropped after its header only: stop gzip rather than decompress the rest.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().ok();
            child.wait().ok();
        }
    }
}

/// `%%MatrixMarket matrix coordinate <field> <symmetry>`, case-insensitive.
fn parse_banner(line: &str) -> Result<(Field, Symmetry)> {
    let w: Vec<String> = line.split_ascii_whitespace().map(|s| s.to_ascii_lowercase()).collect();
    if w.len() != 5 || w[0] != "%%matrixmarket" || w[1] != "matrix" {
        return Err(format!("not a Matrix Market matrix header: {:?}", line.trim_end()));
    }
    if w[2] != "coordinate" {
        return Err(format!("only coordinate (sparse) matrices are supported, not {:?}", w[2]));
    }
    let field = match w[3].as_str() {
        "real" | "double" => Field::Real,
        "integer" => Field::Integer,
        "pattern" => Field::Pattern,
        other => return Err(format!("value field {other:?} is not supported (real, double, integer, pattern)")),
    };
    let symmetry = match w[4].as_str() {
        "general" => Symmetry::General,
        // Hermitian with real values is symmetric; complex fields were refused above.
        "symmetric" | "hermitian" => Symmetry::Symmetric,
        "skew-symmetric" => Symmetry::Skew,
        other => return Err(format!("symmetry {other:?} is not supported")),
    };
    Ok((field, symmetry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn parse(text: &str, seed: u64) -> Result<Csr> {
        MtxFile::from_reader("test", Cursor::new(text.as_bytes().to_vec()), None)?.read(seed)
    }

    /// The dense form, row-major, for easy comparison.
    fn dense(m: &Csr) -> Vec<Vec<f32>> {
        let mut d = vec![vec![0.0; m.cols]; m.rows];
        for (r, row) in d.iter_mut().enumerate() {
            for k in m.row_ptr[r] as usize..m.row_ptr[r + 1] as usize {
                row[m.col_idx[k] as usize] = m.values[k];
            }
        }
        d
    }

    #[test]
    fn general_real_with_comments_and_blank_lines() {
        let m = parse("%%MatrixMarket matrix coordinate real general\n% a comment\n\n2 3 3\n1 1 1.5\n% inside\n2 3 -2e-1\n1 3 .25\n", 0)
            .unwrap();
        assert_eq!((m.rows, m.cols), (2, 3));
        assert_eq!(m.row_ptr, vec![0, 2, 3]);
        assert_eq!(m.col_idx, vec![0, 2, 2]);
        assert_eq!(m.values, vec![1.5, 0.25, -0.2]);
    }

    #[test]
    fn symmetric_is_expanded_and_the_diagonal_kept_once() {
        let m = parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n2 1 1\n3 2 2\n", 0).unwrap();
        assert_eq!(dense(&m), vec![vec![4.0, 1.0, 0.0], vec![1.0, 0.0, 2.0], vec![0.0, 2.0, 0.0]]);
        assert_eq!(m.nnz(), 5);
    }

    #[test]
    fn skew_symmetric_mirrors_with_the_opposite_sign() {
        let m = parse("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n", 0).unwrap();
        assert_eq!(dense(&m), vec![vec![0.0, -3.0], vec![3.0, 0.0]]);
    }

    #[test]
    fn pattern_gets_seeded_values_and_symmetric_pattern_stays_symmetric() {
        let text = "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 4\n2 1\n3 1\n4 3\n4 4\n";
        let a = parse(text, 42).unwrap();
        assert_eq!(a.nnz(), 7);
        assert_eq!(a, parse(text, 42).unwrap(), "same seed, same values");
        assert_ne!(a.values, parse(text, 43).unwrap().values);
        let d = dense(&a);
        for (r, row) in d.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                assert_eq!(*v, d[c][r]);
            }
        }
        assert!(a.values.iter().all(|v| (-1.0..1.0).contains(v) && *v != 0.0));
    }

    #[test]
    fn duplicates_are_summed_and_case_is_ignored() {
        let m = parse("%%MatrixMarket Matrix Coordinate Real General\n1 2 3\n1 2 1\n1 2 2\n1 1 1\n", 0).unwrap();
        assert_eq!(m.col_idx, vec![0, 1]);
        assert_eq!(m.values, vec![1.0, 3.0]);
    }

    #[test]
    fn header_alone_gives_the_shape() {
        let f = MtxFile::from_reader("t", Cursor::new(b"%%MatrixMarket matrix coordinate pattern symmetric\n%c\n5 5 7\n".to_vec()), None)
            .unwrap();
        assert_eq!(f.header, Header { rows: 5, cols: 5, entries: 7, field: Field::Pattern, symmetry: Symmetry::Symmetric });
        assert_eq!(f.header.max_nnz(), 14);
    }

    #[test]
    fn malformed_files_are_refused_with_a_reason() {
        let bad = [
            ("", "empty"),
            ("%%MatrixMarket matrix array real general\n2 2\n", "coordinate"),
            ("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "complex"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", "row index"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n", "column index"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n", "ends after 1"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n", "more entries"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", "missing value"),
            ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n", "bad value"),
            ("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", "square"),
            ("%%MatrixMarket matrix coordinate real general\n2 2\n", "size line"),
        ];
        for (text, why) in bad {
            let e = parse(text, 0).unwrap_err();
            assert!(e.contains(why), "{text:?}: {e}");
        }
    }

    #[test]
    fn gzip_files_are_read_through_gzip() {
        let dir = std::env::temp_dir().join(format!("oxsparse-bench-mtx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("m.mtx");
        std::fs::write(&plain, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2\n").unwrap();
        let ok = Command::new("gzip").arg("-kf").arg(&plain).status().map(|s| s.success()).unwrap_or(false);
        if ok {
            let m = MtxFile::open(&dir.join("m.mtx.gz")).unwrap().read(0).unwrap();
            assert_eq!(m.values, vec![1.0, 2.0]);
            // Only the header read: dropping stops gzip without error.
            drop(MtxFile::open(&dir.join("m.mtx.gz")).unwrap());
            std::fs::write(dir.join("bad.mtx.gz"), b"not gzip").unwrap();
            let e = MtxFile::open(&dir.join("bad.mtx.gz")).and_then(|f| f.read(0)).err().unwrap();
            assert!(e.contains("gzip -dc failed"), "{e}");
        }
        assert_eq!(MtxFile::open(&plain).unwrap().read(0).unwrap().nnz(), 2);
        std::fs::remove_dir_all(&dir).ok();
    }
}
