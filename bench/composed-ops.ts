/**
 * The maths of the fused kernels composed from stock tfjs ops (cumsum, scatterND, gather,
 * unsortedSegmentSum, pow, where …), for `npm run bench:kernels`: the baseline the fused kernels are
 * measured against on the same adapter. Same batch layout, same result (to f32 rounding; it does not
 * promise the exact zeros of the kernels and the CPU reference). Not used on the training path.
 */
import * as tf from '@tensorflow/tfjs-core';
import { STD_EPSILON, type AdvantageSettings } from '../src/advantages/types.ts';
import type { AdvantageTensors } from '../src/gpu/advantage-tensors.ts';

/** Per-element id from offsets: element e gets i where offsets[i] ≤ e < offsets[i + 1]. int32 [total]. */
function idsFromOffsets(offsets: tf.Tensor1D, count: number, total: number): tf.Tensor1D {
  if (count === 1) return tf.zeros([total], 'int32');
  const interior = tf.reshape(tf.slice(offsets, 1, count - 1), [count - 1, 1]);
  const marks = tf.scatterND(interior, tf.ones([count - 1], 'float32'), [total]) as tf.Tensor1D;
  return tf.cast(tf.cumsum(marks), 'int32');
}

/** Per-step A, float32 [numSteps]; the caller disposes it. */
export function composedAdvantages(b: AdvantageTensors, s: AdvantageSettings): tf.Tensor1D {
  if (s.variant === 'released') throw new RangeError('composedAdvantages: only the paper variant is composed from tfjs ops');
  const G = b.groupOffsets.shape[0] - 1;
  const R = b.runOffsets.shape[0] - 1;
  const S = b.milestones.shape[0];
  return tf.tidy(() => {
    const runOfStep = idsFromOffsets(b.runOffsets, R, S);
    const groupOfRun = idsFromOffsets(b.groupOffsets, G, R);
    const runStarts = tf.slice(b.runOffsets, 0, R);

    // Trajectory term (docs/maths.md §4), means shifted by each group's first reward.
    let aTraj: tf.Tensor1D = tf.zeros([R]);
    if (s.trajectoryTerm) {
      const first = tf.gather(b.rewards, tf.slice(b.groupOffsets, 0, G));
      const shifted = tf.sub(b.rewards, tf.gather(first, groupOfRun));
      const count = tf.unsortedSegmentSum(tf.onesLike(b.rewards), groupOfRun, G);
      const mean = tf.add(first, tf.div(tf.unsortedSegmentSum(shifted, groupOfRun, G), count));
      const dev = tf.sub(b.rewards, tf.gather(mean, groupOfRun));
      const tied = tf.equal(tf.unsortedSegmentSum(tf.abs(shifted), groupOfRun, G), 0);
      let scaled: tf.Tensor = dev;
      if (s.normalize === 'meanStd') {
        const std = tf.sqrt(tf.div(tf.unsortedSegmentSum(tf.square(dev), groupOfRun, G), tf.sub(count, 1)));
        scaled = tf.div(dev, tf.add(tf.gather(std, groupOfRun), STD_EPSILON));
      }
      aTraj = tf.where(tf.gather(tied, groupOfRun), tf.zerosLike(dev), scaled) as tf.Tensor1D;
    }
    const trajPerStep = tf.gather(aTraj, runOfStep);
    if (s.method === 'grpo') return trajPerStep as tf.Tensor1D;

    // Segmentation and shaping (§2–3).
    const m = tf.cast(b.milestones, 'float32');
    const iota = tf.range(0, S, 1, 'float32');
    const before = tf.cumsum(m, 0, true); // milestones strictly before each step, batch-wide
    const runStartOfStep = tf.gather(runStarts, runOfStep);
    const k = tf.add(tf.sub(before, tf.gather(before, runStartOfStep)), 1); // 1-based segment index
    const runLast = tf.sub(tf.slice(b.runOffsets, 1, R), tf.scalar(1, 'int32'));
    const K = tf.sub(tf.add(tf.gather(before, runLast), tf.gather(m, runLast)), tf.gather(before, runStarts));
    const completed = tf.lessEqual(k, tf.gather(K, runOfStep));
    const runStartMark = tf.scatterND(tf.reshape(runStarts, [R, 1]), tf.ones([R], 'float32'), [S]);
    const afterMilestone = tf.concat([tf.zeros([1]), tf.slice(m, 0, S - 1)]);
    const segmentStart = tf.minimum(tf.add(runStartMark, afterMilestone), 1);
    const segId = tf.cast(tf.sub(tf.cumsum(segmentStart), 1), 'int32') as tf.Tensor1D;
    const segLen = tf.unsortedSegmentSum(tf.onesLike(m), segId, S);
    const segFirst = tf.unsortedSegmentSum(tf.mul(segmentStart, iota), segId, S);
    const toEnd = tf.sub(tf.sub(tf.add(tf.gather(segFirst, segId), tf.gather(segLen, segId)), 1), iota);
    const r = tf.where(completed, tf.mul(s.rMs, tf.pow(tf.scalar(s.gamma), toEnd)), tf.zerosLike(m));

    // Baseline slot of each step: (group's first step) + k − 1, as in the kernels.
    const groupStepStart = tf.gather(b.runOffsets, tf.gather(tf.slice(b.groupOffsets, 0, G), tf.gather(groupOfRun, runOfStep)));
    const key = tf.cast(tf.add(tf.cast(groupStepStart, 'float32'), tf.sub(k, 1)), 'int32') as tf.Tensor1D;

    let aSeg: tf.Tensor;
    if (s.segmentBaseline === 'perStepReturn') {
      // ρ per segment, averaged over the runs of the group that completed segment k.
      const rho = tf.div(tf.unsortedSegmentSum(r, segId, S), tf.maximum(segLen, 1));
      const segCompleted = tf.cast(tf.greater(tf.unsortedSegmentSum(tf.cast(completed, 'float32'), segId, S), 0), 'float32');
      const segKey = tf.gather(key, tf.cast(segFirst, 'int32')) as tf.Tensor1D;
      const votes = tf.unsortedSegmentSum(segCompleted, segKey, S);
      const baseline = tf.div(tf.unsortedSegmentSum(tf.mul(rho, segCompleted), segKey, S), tf.maximum(votes, 1));
      aSeg = tf.where(completed, tf.sub(r, tf.gather(baseline, key)), tf.zerosLike(r));
    } else {
      const pool = tf.unsortedSegmentSum(tf.onesLike(r), key, S);
      const baseline = tf.div(tf.unsortedSegmentSum(r, key, S), tf.maximum(pool, 1));
      aSeg = tf.sub(r, tf.gather(baseline, key));
    }
    return tf.add(trajPerStep, tf.mul(s.lambda, aSeg)) as tf.Tensor1D;
  });
}
