/**
 * gather with a gradient every backend can run.
 *
 * tfjs's gather gradient is an UnsortedSegmentSum, which the wasm backend lacks. Its meaning is a
 * scatter-add, which ScatterNd is (duplicate indices sum) on cpu, wasm and webgpu alike.
 */
import * as tf from '@tensorflow/tfjs-core';

/** values[indices] for 1-D values; the gradient scatter-adds back into values' shape. */
export function pick(values: tf.Tensor1D, indices: tf.Tensor1D): tf.Tensor1D {
  const op = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const save = args[1] as tf.GradSaveFunc;
    save([indices]); // keeps the indices alive until the backward pass, wherever they were made
    return {
      value: tf.gather(args[0] as tf.Tensor, indices),
      gradFunc: (dy: tf.Tensor | tf.Tensor[], [saved]: tf.Tensor[]) => tf.scatterND(tf.expandDims(saved, 1), dy as tf.Tensor, values.shape),
    };
  });
  return op(values) as tf.Tensor1D;
}
