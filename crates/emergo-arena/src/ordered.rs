//! Jobs run on several threads whose results are taken in the jobs' order, so that a run's
//! output is the same whatever the number of threads (self-play data, puzzles).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What takes the results of [`run_in_order`]'s jobs.
pub(crate) trait InOrder: Send {
    type Item: Send;
    /// What a progress report is told after each job.
    type Progress;
    /// A result, as soon as its job ends (in any order): for counts.
    fn arrived(&mut self, item: &Self::Item);
    /// A result, once every earlier job's result has been taken.
    fn take(&mut self, item: Self::Item);
    fn progress(&self) -> Self::Progress;
}

/// Runs `work(0)`, …, `work(count - 1)` on `threads` threads (1 to 64) and hands the results to
/// `sink` under one lock: each to [`InOrder::arrived`] as it comes, then to [`InOrder::take`]
/// in the jobs' order; after each job, `progress` gets the sink's report, outside the lock.
/// Returns the sink.
pub(crate) fn run_in_order<S: InOrder>(
    count: usize,
    threads: usize,
    sink: S,
    work: impl Fn(usize) -> S::Item + Sync,
    progress: &(dyn Fn(S::Progress) + Sync),
) -> S {
    struct Shared<S: InOrder> {
        sink: S,
        /// The next job whose result is taken.
        next: usize,
        waiting: Vec<Option<S::Item>>,
    }
    let jobs = AtomicUsize::new(0);
    let shared = Mutex::new(Shared {
        sink,
        next: 0,
        waiting: (0..count).map(|_| None).collect(),
    });
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, 64) {
            scope.spawn(|| loop {
                let index = jobs.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    break;
                }
                let item = work(index);
                let report = {
                    let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let s = &mut *guard;
                    s.sink.arrived(&item);
                    s.waiting[index] = Some(item);
                    while let Some(item) = s.waiting.get_mut(s.next).and_then(Option::take) {
                        s.sink.take(item);
                        s.next += 1;
                    }
                    s.sink.progress()
                };
                progress(report);
            });
        }
    });
    shared.into_inner().unwrap_or_else(|e| e.into_inner()).sink
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes the numbers in order, counting them as they come.
    #[derive(Default)]
    struct Collect {
        arrived: usize,
        taken: Vec<usize>,
    }

    impl InOrder for Collect {
        type Item = usize;
        type Progress = (usize, usize);
        fn arrived(&mut self, _: &usize) {
            self.arrived += 1;
        }
        fn take(&mut self, item: usize) {
            self.taken.push(item);
        }
        fn progress(&self) -> (usize, usize) {
            (self.arrived, self.taken.len())
        }
    }

    #[test]
    fn results_are_taken_in_the_jobs_order_whatever_the_threads() {
        for threads in [1, 2, 5] {
            let reports = Mutex::new(Vec::new());
            // Later jobs finish first: each sleeps less than the one before it.
            let sink = run_in_order(
                12,
                threads,
                Collect::default(),
                |i| {
                    std::thread::sleep(std::time::Duration::from_millis(12 - i as u64));
                    i * 10
                },
                &|report| reports.lock().unwrap().push(report),
            );
            assert_eq!(sink.taken, (0..12).map(|i| i * 10).collect::<Vec<_>>());
            let reports = reports.into_inner().unwrap();
            assert_eq!(reports.len(), 12);
            assert!(reports.iter().all(|&(arrived, taken)| taken <= arrived));
            assert_eq!(reports.iter().map(|r| r.0).max(), Some(12));
        }
    }
}
