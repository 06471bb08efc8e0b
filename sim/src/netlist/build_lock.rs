//! One builder per cached file: while a thread or process makes a cache entry (a Yosys netlist, a
//! native library, a Verilator harness), the others that want the same entry wait for it instead of
//! making it again. Elaborating the texture unit takes minutes and gigabytes, and the tests of one
//! binary (and several binaries) ask for the same design at once.
//!
//! The lock is the file `<entry>.lock`, created exclusively, holding its maker's process id. A lock
//! whose process is gone (killed half-way) is taken over; where process ids cannot be checked
//! (no `/proc`), a lock older than an hour is.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The held lock of one cache entry; dropping it releases the entry to the waiters.
pub struct BuildLock {
    path: PathBuf,
}

/// What [`BuildLock::acquire`] found.
pub enum Acquired {
    /// The entry exists (made before, or by the lock's holder while this caller waited).
    Ready,
    /// The entry is missing and the caller now makes it, holding the lock. Also given, without
    /// exclusion, where no lock file can be created (a read-only cache fails later with its own
    /// error).
    Make(Option<BuildLock>),
}

impl BuildLock {
    /// Waits until `entry` exists or its lock is this caller's.
    pub fn acquire(entry: &Path) -> Acquired {
        let mut name = entry.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        loop {
            if entry.exists() {
                return Acquired::Ready;
            }
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    let _ = write!(f, "{}", std::process::id());
                    let lock = BuildLock { path };
                    // The previous holder may have finished between the check and the create.
                    if entry.exists() {
                        return Acquired::Ready;
                    }
                    return Acquired::Make(Some(lock));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if is_stale(&path) {
                        let _ = std::fs::remove_file(&path);
                        continue;
                    }
                    std::thread::sleep(Duration::from_millis(250));
                }
                Err(_) => return Acquired::Make(None),
            }
        }
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A lock left by a process that no longer runs.
fn is_stale(lock: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(lock) else {
        return false;
    };
    let proc_fs = Path::new("/proc/self");
    match text.trim().parse::<u32>() {
        Ok(pid) if proc_fs.exists() => !Path::new(&format!("/proc/{pid}")).exists(),
        // Written but not yet filled in by its maker, or no process table to ask: go by age.
        _ => std::fs::metadata(lock)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(3600)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_caller_waits_for_the_first_and_finds_the_entry() {
        let dir = std::env::temp_dir().join(format!("texpix-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let entry = dir.join("entry.json");
        let _ = std::fs::remove_file(&entry);
        let Acquired::Make(Some(lock)) = BuildLock::acquire(&entry) else {
            panic!("the first caller must make the entry");
        };
        let waiter = {
            let entry = entry.clone();
            std::thread::spawn(move || matches!(BuildLock::acquire(&entry), Acquired::Ready))
        };
        std::thread::sleep(Duration::from_millis(600));
        assert!(
            !waiter.is_finished(),
            "the waiter must wait while the lock is held"
        );
        std::fs::write(&entry, "made").unwrap();
        drop(lock);
        assert!(
            waiter.join().unwrap(),
            "the waiter must find the entry made"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_of_a_dead_process_is_taken_over() {
        let dir = std::env::temp_dir().join(format!("texpix-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let entry = dir.join("entry.json");
        // Process ids are below 2^22 on Linux; this one cannot run.
        std::fs::write(dir.join("entry.json.lock"), "4294967295").unwrap();
        if Path::new("/proc/self").exists() {
            assert!(matches!(
                BuildLock::acquire(&entry),
                Acquired::Make(Some(_))
            ));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
