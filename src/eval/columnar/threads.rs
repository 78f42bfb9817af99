//! Blocks computed on several threads: forks of the evaluator take the next block not yet taken, on the ranking's waiting workers or on threads started for one computation.

use crate::eval::{Evaluator, Value, R};
use crate::model::Pid;
use crate::plan::PExpr;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// Stack of each thread computing blocks (the main thread's usual size;
/// deeper nesting grows it on the heap, as on the main thread).
const THREAD_STACK: usize = 8 * 1024 * 1024;
/// The blocks computed by one fork: (index among the shared blocks, the
/// block's participants, their values), or the failure that stopped it.
type Done = R<Vec<(usize, Range<Pid>, Vec<Value>)>>;

/// What the forks of one computation share: the expression, the blocks
/// after the first (`1..blocks`), the next block not yet taken, and
/// whether one failed.
struct Share<'a> {
    e: &'a PExpr,
    slots: usize,
    blocks: usize,
    next: AtomicUsize,
    failed: AtomicBool,
}

impl<'a> Share<'a> {
    /// Compute blocks with `fork`, one at a time, until none is left or
    /// one of the forks failed.
    fn run(&self, fork: &mut Evaluator<'a>) -> Done {
        let mut done = Vec::new();
        while !self.failed.load(Relaxed) {
            let k = self.next.fetch_add(1, Relaxed);
            if 1 + k >= self.blocks {
                break;
            }
            match fork.block_col(self.e, self.slots, 1 + k) {
                // Values made here, on the fork's thread, not in turn on
                // the calling one.
                Ok((blk, col)) => done.push((k, blk.parts.clone(), blk.values(&col))),
                Err(er) => {
                    self.failed.store(true, Relaxed);
                    return Err(er);
                }
            }
        }
        Ok(done)
    }
}

/// A fork's share of one computation, sent to a worker.
struct Job<'a> {
    fork: Evaluator<'a>,
    share: Arc<Share<'a>>,
    /// Where the fork goes back, with what it computed.
    done: std::sync::mpsc::Sender<(Evaluator<'a>, Done)>,
}

/// Threads that wait, for a whole ranking, to compute blocks of columns
/// (see [`Evaluator::blocks`]): started once, where a computation would
/// otherwise start and join threads of its own each time (at 10,000 × 15,
/// a ranking makes about fourteen such computations).
pub(crate) struct Workers<'a> {
    jobs: Vec<std::sync::mpsc::Sender<Job<'a>>>,
}

impl<'a> Workers<'a> {
    /// `n` workers living in `scope`. They stop when this is dropped (the
    /// evaluator holding it must be dropped before the scope ends).
    pub(crate) fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        n: usize,
    ) -> Workers<'a>
    where
        'a: 'scope,
    {
        let mut jobs = Vec::new();
        for _ in 0..n {
            let (tx, rx) = std::sync::mpsc::channel::<Job<'a>>();
            let started = std::thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(scope, move || {
                    for mut job in rx {
                        let r = job.share.run(&mut job.fork);
                        let _ = job.done.send((job.fork, r));
                    }
                });
            // Without a thread, computations start their own as before.
            if started.is_ok() {
                jobs.push(tx);
            }
        }
        Workers { jobs }
    }
}

impl<'a> Evaluator<'a> {
    /// Expression `e` (a metric's body or a step, `slots` local slots) over
    /// every participant, block by block, handing each block's
    /// participants and their values to `put` in order. Stops at the first
    /// failure.
    ///
    /// The first block is computed here: it computes every whole column of
    /// other metrics that `e` gathers (`r.opponent.adjusted_score`), each
    /// itself spread over the threads. The other blocks are then computed
    /// by [`Evaluator::threads`] forks of this evaluator, each taking the
    /// next block not yet taken — on this thread and on the ranking's
    /// [`Workers`] if it has them, else on threads started for this
    /// computation; the forks read those columns and write nothing here;
    /// the values (made by the forks, in parallel) are handed to `put` in
    /// block order after all have finished.
    pub(super) fn blocks(
        &mut self,
        e: &'a PExpr,
        slots: usize,
        mut put: impl FnMut(&mut Self, Range<Pid>, Vec<Value>),
    ) -> R<()> {
        let blocks = self.fields.spans.len();
        if blocks == 0 {
            return Ok(());
        }
        let (blk, col) = self.block_col(e, slots, 0)?;
        put(self, blk.parts.clone(), blk.values(&col));
        let rest = blocks - 1;
        let threads = self.threads.clamp(1, rest.max(1));
        if threads == 1 {
            for k in 1..blocks {
                let (blk, col) = self.block_col(e, slots, k)?;
                put(self, blk.parts.clone(), blk.values(&col));
            }
            return Ok(());
        }
        // Blocks are handed out one at a time, to whichever thread is free:
        // the calling thread has more to do afterwards (putting the columns
        // in place), and on a shared machine one core may run slower.
        let share = Share {
            e,
            slots,
            blocks,
            next: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
        };
        let (forks, results) = match &self.workers {
            Some(w) => self.on_workers(w, Arc::new(share), threads),
            None => self.on_threads(&share, threads),
        };
        self.absorb_fuel(&forks);
        // In block order, whoever computed them.
        let mut cols: Vec<Option<(Range<Pid>, Vec<Value>)>> = (0..rest).map(|_| None).collect();
        for r in results {
            for (k, parts, vals) in r? {
                cols[k] = Some((parts, vals));
            }
        }
        debug_assert!(cols.iter().all(Option::is_some));
        for (parts, vals) in cols.into_iter().flatten() {
            put(self, parts, vals);
        }
        Ok(())
    }

    /// [`Evaluator::blocks`]' shared blocks on `threads` forks: this thread
    /// and threads started for them.
    fn on_threads(&self, share: &Share<'a>, threads: usize) -> (Vec<Evaluator<'a>>, Vec<Done>) {
        let mut forks: Vec<Evaluator> = (0..threads).map(|_| self.fork()).collect();
        let results = std::thread::scope(|scope| {
            let mut forks = forks.iter_mut();
            let here = forks.next();
            let mut handles = Vec::new();
            for fork in forks {
                handles.push(
                    std::thread::Builder::new()
                        .stack_size(THREAD_STACK)
                        .spawn_scoped(scope, move || share.run(fork)),
                );
            }
            let mut results = vec![here.map_or(Ok(Vec::new()), |f| share.run(f))];
            for h in handles {
                results.push(match h {
                    Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    // No thread to be had: give the columnar attempt up.
                    Err(_) => Err(self.give_up(share.e)),
                });
            }
            results
        });
        (forks, results)
    }

    /// [`Evaluator::blocks`]' shared blocks on `threads` forks: this thread
    /// and the ranking's workers, which are waiting for work (starting
    /// threads for every computation cost 0.1-0.2 ms each time).
    fn on_workers(
        &self,
        workers: &Workers<'a>,
        share: Arc<Share<'a>>,
        threads: usize,
    ) -> (Vec<Evaluator<'a>>, Vec<Done>) {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut sent = 0;
        for w in workers.jobs.iter().take(threads - 1) {
            let job = Job {
                fork: self.fork(),
                share: share.clone(),
                done: tx.clone(),
            };
            if w.send(job).is_ok() {
                sent += 1;
            }
        }
        drop(tx);
        let mut here = self.fork();
        let mut results = vec![share.run(&mut here)];
        let mut forks = vec![here];
        for _ in 0..sent {
            match rx.recv() {
                Ok((fork, r)) => {
                    forks.push(fork);
                    results.push(r);
                }
                // A worker is gone (it panicked, which ends the ranking
                // with that panic when the workers are joined).
                Err(_) => results.push(Err(self.give_up(share.e))),
            }
        }
        (forks, results)
    }
}
