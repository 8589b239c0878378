/**
 * Adam with global-norm gradient clipping in fewer WebGPU dispatches: the same update as tfjs's
 * AdamOptimizer after `applyClippedGradients` (src/trainer/gradients.ts), up to float rounding, with the
 * global norm in one program over every gradient (webgpu-fused-ops.ts), and the clipping scale and
 * Adam's element-wise work fused into three small programs per variable (new first moment, new second
 * moment, new value) instead of about fifteen stock ops.
 *
 * The optimiser keeps tfjs's own state (its moment variables, β1^t and β2^t, the step count), so a
 * checkpoint's optimiser part (src/trainer/state-parts.ts adamPart) saves and restores it unchanged and a
 * run moves between backends. Used on webgpu only: cpu and wasm keep tfjs's Adam, and their records.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import { webgpuUtil } from './webgpu-module.ts';
import { globalNorm } from './webgpu-fused-ops.ts';
import { getWebGpuBackend } from './webgpu-interop.ts';

type Output = 'firstMoment' | 'secondMoment' | 'value';

/**
 * One element-wise program of the fused step. Inputs by output:
 * - firstMoment: moment, grad, clipScale → β1·m + (1 − β1)·(s·g)
 * - secondMoment: moment, grad, clipScale → β2·v + (1 − β2)·(s·g)²
 * - value: param, first, second, accBeta1, accBeta2 → θ + (m'/(1 − β1^t)) / (√(v'/(1 − β2^t)) + ε) · (−lr)
 * in the order of operations of tfjs's AdamOptimizer.applyGradients.
 */
class AdamStepProgram implements WebGPUProgram {
  readonly variableNames: string[];
  readonly outputShape: number[];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [64, 1, 1];
  readonly size = true;
  readonly uniforms = 'beta1 : f32, beta2 : f32, learningRate : f32, epsilon : f32, maxGradNorm : f32,';

  constructor(
    private readonly output: Output,
    length: number,
  ) {
    this.variableNames = output === 'value' ? ['param', 'first', 'second', 'accBeta1', 'accBeta2'] : ['moment', 'grad', 'gradNorm'];
    this.outputShape = [length];
    this.shaderKey = `beaconAdam_${output}`;
    this.dispatchLayout = webgpuUtil().flatDispatchLayout(this.outputShape);
    this.dispatch = webgpuUtil().computeDispatch(this.dispatchLayout, this.outputShape, this.workgroupSize);
  }

  getUserCode(): string {
    // The clipping scale min(1, maxGradNorm / (‖g‖ + 1e-6)), in the order of ops of applyClippedGradients.
    const g = 'let g = grad[index] * min(1.0, uniforms.maxGradNorm / (gradNorm[0] + 1e-6));';
    const body = {
      firstMoment: `${g}\n          result[index] = moment[index] * uniforms.beta1 + g * (1.0 - uniforms.beta1);`,
      secondMoment: `${g}\n          result[index] = moment[index] * uniforms.beta2 + (g * g) * (1.0 - uniforms.beta2);`,
      value:
        'let m = first[index] / (1.0 - accBeta1[0]);\n          let v = second[index] / (1.0 - accBeta2[0]);\n' +
        '          result[index] = (m / (sqrt(v) + uniforms.epsilon)) * (-uniforms.learningRate) + param[index];',
    }[this.output];
    return `
      fn main(index : i32) {
        if (index < uniforms.size) {
          ${body}
        }
      }`;
  }
}

/** tfjs's Adam internals that the fused steps read and update (this file's and src/trainer/ppo-fused.ts). */
export interface AdamInternals {
  beta1: number;
  beta2: number;
  epsilon: number;
  learningRate: number;
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: ({ originalName: string; variable: tf.Variable } | undefined)[];
  accumulatedSecondMoment: ({ originalName: string; variable: tf.Variable } | undefined)[];
  incrementIterations(): void;
}

export class WebGpuAdam extends tf.AdamOptimizer {
  constructor(learningRate: number) {
    // tfjs's defaults for tf.train.adam.
    super(learningRate, 0.9, 0.999);
  }

  /**
   * One step on `grads` scaled by min(1, maxGradNorm / (‖g‖ + 1e-6)); returns ‖g‖ before clipping, like
   * applyClippedGradients. Call inside a tf.tidy.
   */
  applyClippedGradients(grads: tf.NamedTensorMap, maxGradNorm: number): tf.Scalar {
    const names = Object.keys(grads);
    const gradNorm = globalNorm(names.map((n) => grads[n]));
    this.fusedStep(names, grads, gradNorm, maxGradNorm);
    return gradNorm;
  }

  /** Unclipped gradients (tfjs's entry point): the fused step with a scale of 1. */
  override applyGradients(variableGradients: Parameters<tf.AdamOptimizer['applyGradients']>[0]): void {
    if (Array.isArray(variableGradients)) {
      super.applyGradients(variableGradients);
      return;
    }
    // A norm of 0 under a bound of 1 gives a clipping scale of min(1, 1 / 1e-6) = 1 exactly.
    tf.tidy(() => this.fusedStep(Object.keys(variableGradients), variableGradients, tf.scalar(0), 1));
  }

  private fusedStep(names: string[], grads: tf.NamedTensorMap, gradNorm: tf.Tensor, maxGradNorm: number): void {
    const self = this as unknown as AdamInternals;
    const backend = getWebGpuBackend();
    const uniforms = [
      { type: 'float32', data: [self.beta1] },
      { type: 'float32', data: [self.beta2] },
      { type: 'float32', data: [self.learningRate] },
      { type: 'float32', data: [self.epsilon] },
      { type: 'float32', data: [maxGradNorm] },
    ];
    const run = (output: Output, inputs: tf.Tensor[], shape: number[]): tf.Tensor => {
      const info = backend.runWebGPUProgram(new AdamStepProgram(output, inputs[0].size), inputs, 'float32', uniforms);
      return tf.reshape(tf.engine().makeTensorFromTensorInfo(info), shape);
    };
    tf.tidy(() => {
      names.forEach((name, i) => {
        const value = tf.engine().registeredVariables[name];
        self.accumulatedFirstMoment[i] ??= { originalName: `${name}/m`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
        self.accumulatedSecondMoment[i] ??= { originalName: `${name}/v`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
        const grad = grads[name];
        if (grad == null) return;
        const first = self.accumulatedFirstMoment[i]!.variable;
        const second = self.accumulatedSecondMoment[i]!.variable;
        const newFirst = run('firstMoment', [first, grad, gradNorm], value.shape);
        const newSecond = run('secondMoment', [second, grad, gradNorm], value.shape);
        const newValue = run('value', [value, newFirst, newSecond, self.accBeta1, self.accBeta2], value.shape);
        first.assign(newFirst);
        second.assign(newSecond);
        value.assign(newValue);
      });
      self.accBeta1.assign(tf.mul(self.accBeta1, self.beta1));
      self.accBeta2.assign(tf.mul(self.accBeta2, self.beta2));
    });
    self.incrementIterations();
  }
}

/** Adam for the current backend: the fused one on webgpu, tfjs's own elsewhere (cpu and wasm records unchanged). */
export function createAdam(learningRate: number): tf.AdamOptimizer {
  return tf.getBackend() === 'webgpu' ? new WebGpuAdam(learningRate) : tf.train.adam(learningRate);
}
