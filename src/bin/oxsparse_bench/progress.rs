//! The progress of a long run on stderr: which matrix (i of n), what is running, time elapsed.
//! On a terminal one status line is redrawn in place and messages scroll above it; otherwise
//! (a log file, CI) each matrix gets one line, once it is loaded, and nothing is redrawn.

use std::io::{IsTerminal, Write};
use std::time::Instant;

pub struct Progress {
    start: Instant,
    tty: bool,
    /// "[ 3/60] cora", the matrix being measured.
    matrix: String,
    /// Whether a status line is drawn now (terminal only), to clear before a message.
    drawn: bool,
}

impl Progress {
    pub fn new() -> Progress {
        Progress { start: Instant::now(), tty: std::io::stderr().is_terminal(), matrix: String::new(), drawn: false }
    }

    /// "h:mm:ss" since the start.
    pub fn elapsed(&self) -> String {
        let s = self.start.elapsed().as_secs();
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    }

    /// Matrix `i` (from 0) of `n` begins (it is read or generated now).
    pub fn matrix(&mut self, i: usize, n: usize, name: &str) {
        self.matrix = format!("[{:>w$}/{n}] {name}", i + 1, w = n.to_string().len());
        self.status("loading");
    }

    /// The matrix's own line: "[ 3/60] cora: <what> (elapsed 0:01:02)".
    pub fn matrix_line(&mut self, what: &str) {
        let line = format!("{}: {what} (elapsed {})", self.matrix, self.elapsed());
        self.say(&line);
    }

    /// What runs now on the current matrix (terminal only: a log gets the results instead).
    pub fn status(&mut self, what: &str) {
        if self.tty {
            let line = format!("{}: {what} (elapsed {})", self.matrix, self.elapsed());
            // Cut to a common terminal width: a wrapped line cannot be redrawn in place.
            let line: String = line.chars().take(119).collect();
            eprint!("\r\x1b[2K{line}");
            let _ = std::io::stderr().flush();
            self.drawn = true;
        }
    }

    /// A message line; on a terminal it goes above the status line, which the next `status`
    /// draws again.
    pub fn say(&mut self, msg: &str) {
        self.clear();
        eprintln!("{msg}");
    }

    /// Removes the status line (at the end, or before output that must start on a clean line).
    pub fn clear(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
            self.drawn = false;
        }
    }
}
