/**
 * The backend's matmul rate at given shapes: what the hardware does for exactly the products an update
 * runs, as the yardstick for the update's achieved rate (update-rate.ts).
 *
 * Each shape is timed as untransposed tf.matMul (the fast path on wasm) on random operands, a burst of
 * products per read-back so that webgpu's queue is measured, not its latency. The rate is the shapes'
 * total FLOPs over their total time, each shape weighted by how often the update runs it.
 */
import * as tf from '@tensorflow/tfjs-core';

/** [m, k, n]: an [m, k] · [k, n] product, run `count` times per update. */
export interface MatmulShape {
  m: number;
  k: number;
  n: number;
  count: number;
}

export const matmulFlops = (s: MatmulShape) => 2 * s.m * s.k * s.n * s.count;

export async function measureMatmulRate(shapes: MatmulShape[], burst = 8, rounds = 3): Promise<number> {
  let flops = 0;
  let ms = 0;
  for (const s of shapes) {
    const a = tf.randomUniform([s.m, s.k], -1, 1, 'float32', 1);
    const b = tf.randomUniform([s.k, s.n], -1, 1, 'float32', 2);
    const run = async () => {
      const outs = Array.from({ length: burst }, () => tf.matMul(a, b));
      await outs[burst - 1].data();
      tf.dispose(outs);
    };
    await run(); // warm-up: kernel selection, shader compilation
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      await run();
      times.push((performance.now() - t0) / burst);
    }
    tf.dispose([a, b]);
    flops += matmulFlops(s);
    ms += Math.min(...times) * s.count; // the least disturbed round: the machine is shared
  }
  return flops / ms / 1e6;
}
