/**
 * One dense layer, act(a · W + b), with a hand-written gradient that runs only what the wasm backend
 * runs fast. Measured at the policy's shapes on wasm ([2500, 64] activations):
 *
 * - a matMul with transposeA or transposeB takes a slow path (~10× an untransposed one), and tfjs's
 *   own matMul gradient uses exactly those flags: here the operands are transposed explicitly (a cheap
 *   copy) and multiplied untransposed;
 * - tanh is a scalar loop (~13× sigmoid, which XNNPACK vectorises and fuses into the matMul), so
 *   tanh(z) is computed as 2·σ(2z) − 1, with 2z = a · (2W) + 2b exact in float32 (a power-of-two scale):
 *   the same function, rounded differently (absolute error ~1e-7);
 * - a column sum (the bias gradient) is ~4× slower than the product 1ᵀ · dz.
 *
 * On webgpu none of that holds and each op is a dispatch (the cost there), so the layer takes the
 * fewest ops instead (`fewestDispatches`): tanh itself after a fused matMul + bias, transposes folded
 * into the matMuls' flags, the bias gradient as a column sum, and tanh's derivative in one program
 * (src/backend/webgpu-fused-ops.ts). The same function and gradient, rounded differently.
 *
 * `a` may be a constant input (observations, candidate features): then its gradient is not computed.
 */
import * as tf from '@tensorflow/tfjs-core';
import { tanhGrad } from '../backend/webgpu-fused-ops.ts';

export type Activation = 'linear' | 'tanh';

export interface DenseOptions {
  activation?: Activation;
  /** No gradient flows into `a` (a layer's input data). */
  aIsConstant?: boolean;
}

export function dense(a: tf.Tensor2D, w: tf.Tensor2D, bias: tf.Tensor1D | null = null, options: DenseOptions = {}): tf.Tensor2D {
  const { activation = 'linear', aIsConstant = false } = options;
  if (activation === 'tanh' && !bias) throw new RangeError('a tanh layer needs a bias');
  const inputs: tf.Tensor[] = [...(aIsConstant ? [] : [a]), w, ...(bias ? [bias] : [])];
  if (tf.getBackend() === 'webgpu') return fewestDispatches(a, bias, activation, aIsConstant, inputs);
  const op = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const save = args[inputs.length] as tf.GradSaveFunc;
    const x = aIsConstant ? a : (args[0] as tf.Tensor2D);
    const weight = args[aIsConstant ? 0 : 1] as tf.Tensor2D;
    const b = bias ? (args[inputs.length - 1] as tf.Tensor1D) : null;
    const y = activation === 'tanh' ? tanhLayer(x, tf.mul(weight, 2), tf.mul(b!, 2)) : linearLayer(x, weight, b);
    save([x, weight, y]);
    return {
      value: y,
      gradFunc: (dy: tf.Tensor | tf.Tensor[], saved: tf.Tensor[]) => {
        const [sx, sw, sy] = saved as tf.Tensor2D[];
        // d tanh(z)/dz = 1 − tanh(z)²
        const dz = (activation === 'tanh' ? tf.mul(dy as tf.Tensor, tf.sub(1, tf.square(sy))) : dy) as tf.Tensor2D;
        const grads: tf.Tensor[] = [];
        if (!aIsConstant) grads.push(tf.matMul(dz, tf.transpose(sw)));
        grads.push(tf.matMul(tf.transpose(sx), dz));
        if (bias) grads.push(tf.reshape(tf.matMul(tf.ones([1, dz.shape[0]]), dz), [-1]));
        return grads;
      },
    };
  });
  return op(...inputs) as tf.Tensor2D;
}

/**
 * The forward arithmetic of a tanh layer, from its doubled weights and bias: tanh(z) = 2·σ(2z) − 1.
 * `dense` doubles them on every call; acting with fixed weights (policy.ts `Actor`, through tower.ts `frozen`) doubles them once. Doubling
 * is exact, so both give the same values.
 */
export function tanhLayer(x: tf.Tensor2D, weight2: tf.Tensor2D, bias2: tf.Tensor1D, constants: LayerConstants = { two: 2, one: 1 }): tf.Tensor2D {
  const s = tf.fused.matMul({ a: x, b: weight2, bias: bias2, activation: 'sigmoid' });
  return tf.sub(tf.mul(s, constants.two), constants.one) as tf.Tensor2D;
}

/** The constants 2 and 1 of a tanh layer: numbers (a scalar tensor made per call) or scalar tensors made once. */
export interface LayerConstants {
  two: number | tf.Scalar;
  one: number | tf.Scalar;
}

/** The forward arithmetic of a linear layer. */
export function linearLayer(x: tf.Tensor2D, weight: tf.Tensor2D, bias: tf.Tensor1D | null): tf.Tensor2D {
  return (bias ? tf.fused.matMul({ a: x, b: weight, bias }) : tf.matMul(x, weight)) as tf.Tensor2D;
}

/** `dense` on webgpu: the same layer and gradient in the fewest dispatches (see the module's note). */
function fewestDispatches(a: tf.Tensor2D, bias: tf.Tensor1D | null, activation: Activation, aIsConstant: boolean, inputs: tf.Tensor[]): tf.Tensor2D {
  const op = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const save = args[inputs.length] as tf.GradSaveFunc;
    const x = aIsConstant ? a : (args[0] as tf.Tensor2D);
    const weight = args[aIsConstant ? 0 : 1] as tf.Tensor2D;
    const b = bias ? (args[inputs.length - 1] as tf.Tensor1D) : null;
    const z = linearLayer(x, weight, b);
    const y = activation === 'tanh' ? tf.tanh(z) : z;
    save([x, weight, y]);
    return {
      value: y,
      gradFunc: (dy: tf.Tensor | tf.Tensor[], saved: tf.Tensor[]) => {
        const [sx, sw, sy] = saved as tf.Tensor2D[];
        const dz = (activation === 'tanh' ? tanhGrad(dy as tf.Tensor, sy) : dy) as tf.Tensor2D;
        const grads: tf.Tensor[] = [];
        if (!aIsConstant) grads.push(tf.matMul(dz, sw, false, true));
        grads.push(tf.matMul(sx, dz, true, false));
        if (bias) grads.push(tf.sum(dz, 0));
        return grads;
      },
    };
  });
  return op(...inputs) as tf.Tensor2D;
}
