//! The worker pool matches and tournaments play their games on: `workers` threads take items
//! from a queue in order until it is empty, `stopped` says so (Ctrl-C, a decided SPRT), or a
//! job breaks off (its game could not be played).

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::Mutex;

/// Runs `job` on every item of `items` with up to `workers` threads at once.
pub fn work_through<T: Send>(
    items: VecDeque<T>,
    workers: usize,
    stopped: impl Fn() -> bool + Sync,
    job: impl Fn(T) -> ControlFlow<()> + Sync,
) {
    let workers = workers.min(items.len()).max(1);
    let queue = Mutex::new(items);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                if stopped() {
                    return;
                }
                let Some(item) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
                    return;
                };
                if job(item).is_break() {
                    return;
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_item_once_until_stopped_or_broken_off() {
        let done = AtomicUsize::new(0);
        work_through(
            (0..100).collect(),
            4,
            || false,
            |_| {
                done.fetch_add(1, Ordering::SeqCst);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(done.load(Ordering::SeqCst), 100);
        let done = AtomicUsize::new(0);
        work_through(
            (0..100).collect(),
            1,
            || done.load(Ordering::SeqCst) >= 10,
            |_| {
                done.fetch_add(1, Ordering::SeqCst);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(done.load(Ordering::SeqCst), 10);
        let done = AtomicUsize::new(0);
        work_through(
            (0..100).collect(),
            1,
            || false,
            |i: usize| {
                done.fetch_add(1, Ordering::SeqCst);
                if i == 4 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(done.load(Ordering::SeqCst), 5);
    }
}
