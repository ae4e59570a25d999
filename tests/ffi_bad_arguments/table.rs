//! The table's machinery: what an argument is (and so which bad values it gets), a row, the builder
//! that turns one valid call into its rows, and the runner that checks each row's status and that a
//! refused call changed nothing.

use oxsparse::types::Status::{self, *};
use std::collections::BTreeSet;
use std::os::raw::c_int;
use std::rc::Rc;

pub const SUCCESS: c_int = OXSPARSE_STATUS_SUCCESS as c_int;
pub const NOT_INIT: c_int = OXSPARSE_STATUS_NOT_INITIALIZED as c_int;
pub const INVALID: c_int = OXSPARSE_STATUS_INVALID_VALUE as c_int;
pub const UNSUPPORTED: c_int = OXSPARSE_STATUS_NOT_SUPPORTED as c_int;

/// A value no object ever had: the library names objects with multiples of 16 counted up from 16
/// (so 0x10 is a real name, the first object a process makes), never with one that is 8 mod 16.
pub const NEVER_ISSUED: u64 = 0x7e57_0008;

/// The kinds of object the library hands out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Handle,
    SpVec,
    DnVec,
    SpMat,
    DnMat,
    BitTcf,
    Brcv,
    MatDescr,
    SrBcrs,
}

impl Kind {
    pub const ALL: [Kind; 9] =
        [Kind::Handle, Kind::SpVec, Kind::DnVec, Kind::SpMat, Kind::DnMat, Kind::BitTcf, Kind::Brcv, Kind::MatDescr, Kind::SrBcrs];

    pub fn index(self) -> usize {
        Kind::ALL.iter().position(|&k| k == self).unwrap()
    }

    /// The kind passed where this one is expected, in the "wrong kind" rows.
    pub fn confused_with(self) -> Kind {
        match self {
            Kind::Handle | Kind::SpMat | Kind::SpVec => Kind::DnVec,
            Kind::DnVec => Kind::DnMat,
            Kind::DnMat | Kind::BitTcf | Kind::Brcv | Kind::MatDescr | Kind::SrBcrs => Kind::SpMat,
        }
    }
}

/// One argument of a valid call, tagged with what it is; the tag decides its bad values.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    /// A library handle: NULL, never issued and destroyed are NOT_INITIALIZED; another kind of
    /// object is INVALID_VALUE.
    Handle(u64),
    /// A descriptor or object: NULL and another kind are INVALID_VALUE; never issued and destroyed
    /// are NOT_INITIALIZED.
    Obj(Kind, u64),
    /// A pointer the call writes through (into the sentinel area): NULL is INVALID_VALUE.
    Out(u64),
    /// An output the call creates an object of this kind in (destroyed after a call that
    /// succeeded). NULL is INVALID_VALUE.
    Made(u64, Kind),
    /// An output that may be NULL: no bad values.
    OptOut(u64),
    /// A pointer the call reads (scalars, attribute data): NULL is INVALID_VALUE.
    In(u64),
    /// An enum: -1, 12345 and the listed gaps between valid values are INVALID_VALUE.
    Enum(i32, &'static [i32]),
    /// A size, count or stride that must not be negative: -1 and i64::MIN are INVALID_VALUE.
    Size(i64),
    /// A batch count (c_int) that must be positive: 0 and -1 are INVALID_VALUE.
    Count(i32),
    /// A device data pointer to elements of `align` bytes: one byte off is INVALID_VALUE.
    Data(u64, u64),
    /// Anything else: no automatic bad values (the function's own rows cover it).
    Plain(u64),
}

impl Arg {
    fn value(self) -> u64 {
        match self {
            Arg::Handle(v) | Arg::Obj(_, v) | Arg::Out(v) | Arg::Made(v, _) | Arg::OptOut(v) | Arg::In(v) | Arg::Data(v, _) => v,
            Arg::Plain(v) => v,
            Arg::Enum(v, _) | Arg::Count(v) => v as i64 as u64,
            Arg::Size(v) => v as u64,
        }
    }
}

/// Destroys an object of `kind` through the library.
pub fn destroy(kind: Kind, v: u64) -> c_int {
    use oxsparse::ffi::{bittcf::*, brcv::*, descr_dense::*, descr_sparse::*, handle::*, mat_descr::*, srbcrs::*};
    // SAFETY: destroying accepts any value (refusing what is not a live object of its kind).
    unsafe {
        match kind {
            Kind::Handle => oxsparseDestroy(ptr(v)),
            Kind::SpVec => oxsparseDestroySpVec(cptr(v)),
            Kind::DnVec => oxsparseDestroyDnVec(cptr(v)),
            Kind::SpMat => oxsparseDestroySpMat(cptr(v)),
            Kind::DnMat => oxsparseDestroyDnMat(cptr(v)),
            Kind::BitTcf => oxsparseDestroyBitTcf(cptr(v)),
            Kind::Brcv => oxsparseDestroyBrcv(cptr(v)),
            Kind::MatDescr => oxsparseDestroyMatDescr(ptr(v)),
            Kind::SrBcrs => oxsparseDestroySrBcrs(cptr(v)),
        }
    }
}

/// Argument values as the calls decode them.
pub fn ptr<T>(v: u64) -> *mut T {
    v as usize as *mut T
}
pub fn cptr<T>(v: u64) -> *const T {
    v as usize as *const T
}
pub fn int(v: u64) -> c_int {
    v as i64 as c_int
}
pub fn size(v: u64) -> i64 {
    v as i64
}

type Call = Rc<dyn Fn(&[u64]) -> c_int>;

/// One call with one thing wrong (or none: a baseline), and the status it must return.
pub struct Row {
    pub func: &'static str,
    pub what: String,
    pub want: c_int,
    call: Box<dyn Fn() -> c_int>,
    /// Run after a call that succeeded: destroys what it created.
    cleanup: Option<Box<dyn Fn()>>,
}

/// What the builder emits for each function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every row: the baseline, each argument's bad values, the function's own rows.
    All,
    /// Only the bad values of the first argument (the handle, or the object checked first): what a
    /// function that needs a GPU refuses before it looks at anything else, runnable without one.
    FirstArgOnly,
}

/// Objects the automatic rows substitute: one destroyed and one live of each kind.
#[derive(Clone, Copy, Debug)]
pub struct Objects {
    pub dead: [u64; 9],
    pub live: [u64; 9],
}

pub struct Table {
    pub rows: Vec<Row>,
    pub mode: Mode,
    pub objects: Objects,
}

impl Table {
    pub fn new(mode: Mode, objects: Objects) -> Table {
        Table { rows: Vec::new(), mode, objects }
    }

    /// A row written out by hand.
    pub fn row(&mut self, func: &'static str, what: impl Into<String>, want: c_int, call: impl Fn() -> c_int + 'static) {
        self.rows.push(Row { func, what: what.into(), want, call: Box::new(call), cleanup: None });
    }

    /// The rows of `func` from one valid call: the call itself (SUCCESS), then each argument in turn
    /// given each bad value its tag implies. `.bad()` on the result adds the function's own rows.
    pub fn func(&mut self, func: &'static str, args: &[(&'static str, Arg)], call: impl Fn(&[u64]) -> c_int + 'static) -> Func<'_> {
        let mut f = Func { table: self, func, args: args.to_vec(), call: Rc::new(call) };
        if f.table.mode == Mode::All {
            f.push("valid arguments", f.valid(), SUCCESS);
        }
        let count = if f.table.mode == Mode::All { args.len() } else { 1 };
        for i in 0..count {
            for (what, value, want) in f.bad_values(i) {
                let mut values = f.valid();
                values[i] = value;
                f.push(&format!("{}: {what}", args[i].0), values, want);
            }
        }
        f
    }

    /// The rows of a `Destroy*` function: a fresh object (made by `fresh`, when given) is destroyed;
    /// NULL gets `null` (SUCCESS for descriptors, as `free(NULL)`; NOT_INITIALIZED for a handle);
    /// never issued and destroyed objects are NOT_INITIALIZED, another kind INVALID_VALUE (and
    /// stays alive: the fixture's snapshot reads it).
    pub fn destroy_rows(&mut self, func: &'static str, kind: Kind, null: c_int, fresh: Option<Rc<dyn Fn() -> u64>>) {
        if let Some(fresh) = fresh {
            self.row(func, "a fresh object", SUCCESS, move || destroy(kind, fresh()));
        }
        let other = kind.confused_with();
        let (dead, live) = (self.objects.dead[kind.index()], self.objects.live[other.index()]);
        self.row(func, "NULL", null, move || destroy(kind, 0));
        self.row(func, format!("never issued ({NEVER_ISSUED:#x})"), NOT_INIT, move || destroy(kind, NEVER_ISSUED));
        self.row(func, "destroyed", NOT_INIT, move || destroy(kind, dead));
        self.row(func, format!("a live {other:?} (wrong kind)"), INVALID, move || destroy(kind, live));
    }
}

/// The rows of one function being built.
pub struct Func<'t> {
    table: &'t mut Table,
    func: &'static str,
    args: Vec<(&'static str, Arg)>,
    call: Call,
}

impl Func<'_> {
    fn valid(&self) -> Vec<u64> {
        self.args.iter().map(|a| a.1.value()).collect()
    }

    fn push(&mut self, what: &str, values: Vec<u64>, want: c_int) {
        let call = self.call.clone();
        let made: Vec<(u64, Kind)> =
            self.args.iter().zip(&values).filter_map(|(a, &v)| if let Arg::Made(_, kind) = a.1 { Some((v, kind)) } else { None }).collect();
        let cleanup: Option<Box<dyn Fn()>> = (!made.is_empty()).then(|| {
            Box::new(move || {
                for &(slot, kind) in &made {
                    if slot != 0 {
                        // SAFETY: a create that succeeded wrote an object's name to the slot.
                        let name = unsafe { *(slot as usize as *const u64) };
                        assert_eq!(destroy(kind, name), SUCCESS, "destroying what a {kind:?} create made");
                    }
                }
            }) as Box<dyn Fn()>
        });
        self.table.rows.push(Row { func: self.func, what: what.into(), want, call: Box::new(move || call(&values)), cleanup });
    }

    /// Each bad value of argument `i` with its label and the status it must get.
    fn bad_values(&self, i: usize) -> Vec<(String, u64, c_int)> {
        let o = self.table.objects;
        let objects = |kind: Kind, null: c_int| {
            let other = kind.confused_with();
            vec![
                ("NULL".to_string(), 0, null),
                (format!("never issued ({NEVER_ISSUED:#x})"), NEVER_ISSUED, NOT_INIT),
                ("destroyed".to_string(), o.dead[kind.index()], NOT_INIT),
                (format!("a live {other:?} (wrong kind)"), o.live[other.index()], INVALID),
            ]
        };
        match self.args[i].1 {
            Arg::Handle(_) => objects(Kind::Handle, NOT_INIT),
            Arg::Obj(kind, _) => objects(kind, INVALID),
            Arg::Out(_) | Arg::Made(..) | Arg::In(_) => vec![("NULL".to_string(), 0, INVALID)],
            Arg::Enum(_, gaps) => {
                [-1, 12345].iter().chain(gaps).map(|&v| (format!("{v} (not an enumerator)"), v as i64 as u64, INVALID)).collect()
            }
            Arg::Size(_) => [-1, i64::MIN].iter().map(|&v| (format!("{v} (negative)"), v as u64, INVALID)).collect(),
            Arg::Count(_) => [0, -1].iter().map(|&v| (format!("{v} (not positive)"), v as i64 as u64, INVALID)).collect(),
            Arg::Data(v, align) if align > 1 && v != 0 => vec![(format!("misaligned ({:#x})", v + 1), v + 1, INVALID)],
            Arg::Data(..) | Arg::OptOut(_) | Arg::Plain(_) => vec![],
        }
    }

    /// A row of this function's own: the valid call with the named arguments changed.
    pub fn bad(&mut self, what: &str, changes: &[(&str, u64)], want: c_int) -> &mut Self {
        if self.table.mode != Mode::All {
            return self;
        }
        let mut values = self.valid();
        for &(name, value) in changes {
            let i = self.args.iter().position(|a| a.0 == name).unwrap_or_else(|| panic!("{}: no argument {name}", self.func));
            values[i] = value;
        }
        self.push(what, values, want);
        self
    }
}

/// What a row may not change, read through the library's getters and from memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot(pub Vec<(String, Vec<u8>)>);

impl Snapshot {
    /// Names of the entries that differ from `before`.
    pub fn changed_from(&self, before: &Snapshot) -> Vec<String> {
        let mut out = Vec::new();
        for ((name, now), (_, then)) in self.0.iter().zip(&before.0) {
            if now == then {
                continue;
            }
            match (std::str::from_utf8(then), std::str::from_utf8(now)) {
                // A descriptor's getters, as text.
                (Ok(then), Ok(now)) => out.push(format!("{name}: was [{then}], now [{now}]")),
                _ => {
                    let at = now.iter().zip(then).position(|(a, b)| a != b).unwrap_or(now.len().min(then.len()));
                    out.push(format!("{name} (from byte {at})"));
                }
            }
        }
        if self.0.len() != before.0.len() {
            out.push("the number of entries".into());
        }
        out
    }
}

/// The fixture a table runs against.
pub trait Watch {
    /// What no call of the table may change: every descriptor and handle of the fixture through its
    /// getters, device inputs.
    fn state(&self) -> Snapshot;
    /// What a refused call must leave alone as well: the sentinel area outputs point into, device
    /// outputs (poisoned).
    fn outputs(&self) -> Snapshot;
    /// Refills the sentinels and poisons the device outputs again (after a call that wrote them).
    fn reset(&self);
}

pub fn status_name(s: c_int) -> String {
    Status::from_raw(s).map_or_else(|| format!("status {s}"), |s| s.name().to_string())
}

/// Runs every row against the fixture; returns the failures.
pub fn run(rows: &[Row], w: &dyn Watch) -> Vec<String> {
    let mut failures = Vec::new();
    w.reset();
    let mut state = w.state();
    let outputs = w.outputs();
    for row in rows {
        let got = (row.call)();
        let label = format!("{}: {}", row.func, row.what);
        if got != row.want {
            failures.push(format!("{label}: returned {}, want {}", status_name(got), status_name(row.want)));
        }
        let now = w.state();
        let changed = now.changed_from(&state);
        if !changed.is_empty() {
            failures.push(format!("{label}: changed {}", changed.join(", ")));
            state = now;
        }
        if got == SUCCESS {
            if let Some(cleanup) = &row.cleanup {
                cleanup();
            }
            w.reset();
        } else {
            let changed = w.outputs().changed_from(&outputs);
            if !changed.is_empty() {
                failures.push(format!("{label}: refused, but wrote {}", changed.join(", ")));
                w.reset();
            }
        }
    }
    failures
}

/// "N rows over M functions".
pub fn count(rows: &[Row]) -> String {
    let functions: BTreeSet<_> = rows.iter().map(|r| r.func).collect();
    format!("{} rows over {} functions", rows.len(), functions.len())
}
