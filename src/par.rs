//! Work split across threads: the one rule for when a job is large enough to pay for a second thread, and the one way to run two halves at once.
//!
//! Every stage that splits work (a loader's records, the evaluator's
//! running scores and columns, the standings' rows) asks [`pays`] and runs
//! the halves with [`join`], so the threshold is measured and changed in
//! one place (docs/performance.md).

/// Most threads used by default.
const MAX_THREADS: usize = 8;

/// Jobs of at least this many cells (entries read, participant-round
/// values, standings cells) are split in two halves; below it a second
/// thread costs more than it saves.
pub const PARALLEL_CELLS: usize = 20_000;

/// Events of fewer participant-rounds than this are ranked on one thread
/// by default: below it, starting the column workers costs more than the
/// second core saves (docs/performance-sessions.md, session 12).
pub const PARALLEL_EVENT: usize = 40_000;

/// Threads by default for ranking an event of `participant_rounds`
/// participant-rounds: one for a small event, the cores otherwise.
pub fn threads_for(participant_rounds: usize) -> usize {
    if participant_rounds < PARALLEL_EVENT {
        1
    } else {
        default_threads()
    }
}

/// Threads by default: the processor's cores, at most eight.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(MAX_THREADS)
}

/// Whether a job of `cells` cells, allowed `threads` threads, is split.
pub fn pays(cells: usize, threads: usize) -> bool {
    threads > 1 && cells >= PARALLEL_CELLS
}

/// Run `here` on this thread and `there` on a second one, at once, and
/// return both results; a panic on the second thread is resumed here.
pub fn join<A, B>(here: impl FnOnce() -> A, there: impl FnOnce() -> B + Send) -> (A, B)
where
    B: Send,
{
    std::thread::scope(|s| {
        let job = s.spawn(there);
        let a = here();
        let b = job.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (a, b)
    })
}
