//! Criterion benchmark: one light playout from the empty board on 9x9, 13x13 and 19x19.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use engine_core::{light_playout, Board, Color};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn light_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("light_playout");
    for size in [9usize, 13, 19] {
        let empty = Board::with_size(size).expect("valid size");
        let mut board = empty;
        let mut rng = SmallRng::seed_from_u64(1);
        group.throughput(Throughput::Elements(1));
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{size}x{size}")),
            &size,
            |b, _| {
                b.iter(|| {
                    board.copy_from(&empty);
                    light_playout(&mut board, Color::Black, &mut rng, 3 * (size * size) as u32)
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, light_playouts);
criterion_main!(benches);
