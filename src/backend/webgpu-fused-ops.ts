/**
 * Element-wise and reduction work of the update fused into single WebGPU programs, so that the update
 * asks the API for fewer dispatches on webgpu (each tfjs op is at least one dispatch, and at the page's
 * sizes a dispatch costs more than the arithmetic it carries). Each function is the same maths as the
 * stock ops it replaces, up to float rounding:
 *
 * - `tanhGrad(dy, y)` = dy · (1 − y²), the derivative of a tanh layer through its output (one program
 *   instead of square, sub and mul);
 * - `globalNorm(tensors)` = √(Σ_i Σ_j t_ij²), the global gradient norm by which the PPO update of
 *   docs/maths.md §4 clips its gradients (src/trainer/gradients.ts): one program instead of a square and
 *   a sum per tensor, an addN and a sqrt.
 *
 * Used on webgpu only; cpu and wasm keep the stock ops, and their records.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';
import { webgpuUtil } from './webgpu-module.ts';
import { getWebGpuBackend } from './webgpu-interop.ts';

/** dy · (1 − y·y), element by element. */
class TanhGradProgram implements WebGPUProgram {
  readonly variableNames = ['dy', 'y'];
  readonly outputShape: number[];
  readonly shaderKey = 'beaconTanhGrad';
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number] = [64, 1, 1];
  readonly size = true;

  constructor(length: number) {
    this.outputShape = [length];
    this.dispatchLayout = webgpuUtil().flatDispatchLayout(this.outputShape);
    this.dispatch = webgpuUtil().computeDispatch(this.dispatchLayout, this.outputShape, this.workgroupSize);
  }

  getUserCode(): string {
    return `
      fn main(index : i32) {
        if (index < uniforms.size) {
          let v = y[index];
          result[index] = dy[index] * (1.0 - v * v);
        }
      }`;
  }
}

/** Workgroup size of the norm's single workgroup. */
const NORM_WORKGROUP = 256;

/**
 * √(Σ of squares) over the inputs' elements (plus a partial sum of squares from an earlier program, when
 * `partial`), in one workgroup: each invocation strides over every input, then a tree sum in workgroup
 * memory. `root`: write the square root (the norm), else the sum of squares (a partial).
 */
class GlobalNormProgram implements WebGPUProgram {
  readonly variableNames: string[];
  readonly outputShape = [1];
  readonly shaderKey: string;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number] = [1, 1, 1];
  readonly workgroupSize: [number, number, number] = [NORM_WORKGROUP, 1, 1];
  readonly size = true;

  constructor(
    private readonly lengths: number[],
    private readonly partial: boolean,
    private readonly root: boolean,
  ) {
    this.variableNames = [...lengths.map((_, i) => `g${i}`), ...(partial ? ['partial'] : [])];
    this.shaderKey = `beaconGlobalNorm_${lengths.join('_')}_${partial}_${root}`;
    this.dispatchLayout = webgpuUtil().flatDispatchLayout(this.outputShape);
  }

  getUserCode(): string {
    const loops = this.lengths
      .map((n, i) => `for (var k = i32(localId.x); k < ${n}; k = k + ${NORM_WORKGROUP}) { let v = f32(g${i}[k]); total = total + v * v; }`)
      .join('\n          ');
    return `
      var<workgroup> sums : array<f32, ${NORM_WORKGROUP}>;
      fn main(index : i32) {
        var total = 0.0;
        ${loops}
        sums[localId.x] = total;
        workgroupBarrier();
        for (var width = ${NORM_WORKGROUP / 2}u; width > 0u; width = width / 2u) {
          if (localId.x < width) {
            sums[localId.x] = sums[localId.x] + sums[localId.x + width];
          }
          workgroupBarrier();
        }
        // uniforms.size (1) is read so that the layout keeps tfjs's uniform binding ('auto' layouts drop unused ones).
        if (localId.x == 0u && uniforms.size == 1) {
          let sum = sums[0]${this.partial ? ' + partial[0]' : ''};
          result[0] = ${this.root ? 'sqrt(sum)' : 'sum'};
        }
      }`;
  }
}

function run(program: WebGPUProgram, inputs: tf.Tensor[]): tf.Tensor {
  const info = getWebGpuBackend().runWebGPUProgram(program, inputs, 'float32');
  return tf.engine().makeTensorFromTensorInfo(info);
}

/** dy · (1 − y²) in one dispatch (webgpu only); same shape as `y`. */
export function tanhGrad(dy: tf.Tensor, y: tf.Tensor): tf.Tensor {
  return tf.tidy(() => tf.reshape(run(new TanhGradProgram(y.size), [tf.reshape(dy, [-1]), tf.reshape(y, [-1])]), y.shape));
}

/**
 * The global norm √(Σ t²) over every element of `tensors` as a scalar (webgpu only): one dispatch when
 * the adapter binds enough storage buffers for all of them at once, else one per group of inputs.
 * `perProgram`: inputs per program (default: what the adapter binds; tests pass fewer).
 */
export function globalNorm(tensors: tf.Tensor[], perProgram = normInputsPerProgram()): tf.Scalar {
  return tf.tidy(() => {
    const flat = tensors.map((t) => tf.reshape(t, [-1]));
    let partial: tf.Tensor | null = null;
    for (let start = 0; start < flat.length; start += perProgram) {
      const group = flat.slice(start, start + perProgram);
      const last = start + perProgram >= flat.length;
      const program = new GlobalNormProgram(
        group.map((t) => t.size),
        partial !== null,
        last,
      );
      partial = run(program, partial ? [...group, partial] : group);
    }
    return tf.reshape(partial!, []) as tf.Scalar;
  });
}

/** Gradients one norm program reads: the storage bindings less the output and the carried partial sum. */
function normInputsPerProgram(): number {
  return Math.max(1, getWebGpuBackend().device.limits.maxStorageBuffersPerShaderStage - 2);
}
