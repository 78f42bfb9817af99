//! The allocator's settings, shared by the `tb` binary and the benchmarks (`benches/perf.rs` includes this file), which both use mimalloc.
//!
//! Evaluation makes and drops many short-lived buffers: mimalloc keeps them
//! in the process instead of returning pages to the kernel and faulting
//! them in again (a fifth of the time of a large event with the system
//! allocator).
//!
//! mimalloc's version 2 is built (`libmimalloc-sys` feature `v2`), not its
//! version 3: version 3 spreads a small run's pages over more of its
//! arena, and each 2 MB region touched is a transparent huge page the
//! kernel zeroes whole (11 regions against 5 for the FIDE chain at
//! 1,000 × 9, a sixth of that run's time; docs/performance.md, session 14).

/// mimalloc's `mi_option_purge_delay` (`enum mi_option_e` in mimalloc.h:
/// 15 in versions 2 and 3 alike; the crate names no constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Never hand freed memory back to the kernel during a run: `tb` is a
/// short-lived process, and pages given back and touched again are faulted
/// in and zeroed afresh (huge pages, under transparent huge pages), which
/// at 100,000 × 15 cost from 0.3 to 1.5 s of system time, varying run to
/// run. Peak memory is unchanged: freed pages are reused, not returned.
pub fn keep_freed_pages() {
    // SAFETY: sets an integer option; mimalloc reads it when it next
    // considers purging.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}
