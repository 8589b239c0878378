/**
 * Critic PPO's value network on WGSL kernels (docs/maths.md §8; src/policy/critic.ts), as the fused
 * PPO update (fused-ppo.ts) runs the policy: its forward pass over a whole batch in one dispatch, and
 * its regression as six dispatches per minibatch, all of one update in one submit. src/trainer/
 * critic-update.ts is the reference (tfjs ops and autodiff); the values agree up to float32 rounding
 * (test/trainer/critic-fused-webgpu.test.ts).
 *
 * The critic's tower has the policy's observation tower's shape, so its flat weights share the fused
 * PPO kernels' offsets (shaders/lib/ppo_batch.wgsl): W1, b1, W2, b2, then the linear head [H] and its
 * bias where the policy's V1 and c1 would be, with actionDim 1. Four of the policy's kernels serve
 * unchanged, with no candidate rows (numRows 0):
 *
 *   1. ppo-forward        (32 rows)     a1, h per minibatch row
 *   2. critic-value-loss  (per row)     V, the squared error, g = ∂loss/∂V, dz2, dz1
 *   3. ppo-step-grads     (per tile)    dW1, db1, dW2, db2 summed per span of rows
 *   4. critic-head-grads  (per output)  the head's and its bias's gradients; the spans' sums added
 *   5. ppo-grad-norm      (1 workgroup) ‖g‖, the minibatch's loss, Adam's β^t
 *   6. ppo-adam           (per weight)  clipped Adam step
 *
 * The observations come from the host, or are gathered on the GPU from where the rollout left them
 * (ppo-gather.ts); the minibatches from a key (minibatch-permutation.ts). The returns are written by
 * the host (S floats: they come from the advantages' read-back, which critic PPO needs before its
 * update anyway, docs/maths.md §8).
 */
import { type FusedMinibatch, type FusedPpoTargets, fusedPpoRefusal, workFloats } from './fused-ppo-batch.ts';
import {
  FUSED_PPO_PARAMS,
  STATE_ROWS,
  PPO_ADAM,
  PPO_FORWARD,
  forwardWorkgroups,
  PPO_GRAD_NORM,
  PPO_STEP_GRADS,
  WORKGROUP,
  type ParamName,
  spanRows,
  towerGrads,
} from './fused-ppo-kernels.ts';
import { copyIn, copyOut, popScopes, pushScopes, sumOf } from './fused-flat-buffers.ts';
import { FusedRunners } from './fused-runners.ts';
import { defineKernel } from './kernel.ts';
import { MINIBATCH_PERMUTATION, type PermutationKey, recordPermutation } from './minibatch-permutation.ts';
import { PPO_GATHER, recordPpoGather, type RolloutRecords } from './ppo-gather.ts';
import type { ShaderSources } from './shader-source.ts';
import { COPY_DST, COPY_SRC, MAP_READ, STORAGE } from './buffer-usage.ts';

export const CRITIC_VALUES = defineKernel({
  name: 'critic-values',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['weights', 'read'],
    ['obs', 'read'],
    ['values', 'read_write'],
  ],
});
export const CRITIC_VALUE_LOSS = defineKernel({
  name: 'critic-value-loss',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['weights', 'read'],
    ['work', 'read_write'],
    ['returns', 'read'],
    ['perm', 'read'],
  ],
});
export const CRITIC_HEAD_GRADS = defineKernel({
  name: 'critic-head-grads',
  params: FUSED_PPO_PARAMS,
  seeds: true,
  storage: [
    ['work', 'read'],
    ['grads', 'read_write'],
    ['partials', 'read'],
  ],
});

/** The critic update's kernels per minibatch, in dispatch order. */
export const FUSED_CRITIC_KERNELS = [PPO_FORWARD, CRITIC_VALUE_LOSS, PPO_STEP_GRADS, CRITIC_HEAD_GRADS, PPO_GRAD_NORM, PPO_ADAM] as const;

export interface CriticShape {
  obsDim: number;
  hiddenSize: number;
}

/** Floats of each of the critic's variables, in `Critic.variables` order. */
export function criticVariableSizes({ obsDim: D, hiddenSize: H }: CriticShape): number[] {
  return [D * H, H, H * H, H, H, 1];
}

/** Where a batch's observations are: host floats (S × obsDim), or a GPU rollout's records. */
export type CriticObs = { host: Float32Array } | { records: RolloutRecords };

export interface FusedCriticSettings {
  epochs: number;
  valueCoef: number;
  maxGradNorm: number;
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

const SCRATCH_USAGE = STORAGE | COPY_SRC | COPY_DST;

/**
 * Why the fused critic cannot take a batch of `steps` steps on `device`, or null: the same limits as
 * the fused policy update's observation side (a width over the kernels' arrays, a buffer over the
 * adapter's binding size).
 */
export function fusedCriticRefusal(shape: CriticShape, steps: number, epochs: number, largestMinibatch: number, device: GPUDevice): string | null {
  return fusedPpoRefusal({ ...shape, actionDim: 1, numActions: 1 }, steps, 0, epochs, largestMinibatch, device);
}

export class FusedCriticKernels {
  private readonly runners: FusedRunners;
  private disposed = false;

  constructor(
    readonly device: GPUDevice,
    shaders: ShaderSources,
  ) {
    this.runners = new FusedRunners(device, shaders, 'fused critic', FUSED_CRITIC_KERNELS);
  }

  /** GPU buffers held now: the pool's and the runners'. */
  get liveBuffers(): number {
    return this.runners.liveBuffers;
  }

  private get pool() {
    return this.runners.pool;
  }

  /**
   * The batch's observations in a buffer of the pool: written by the host, or gathered in `pass`
   * from the rollout's records (one dispatch).
   */
  private async observations(obs: CriticObs, steps: number, obsDim: number, pass: () => GPUComputePassEncoder): Promise<GPUBuffer> {
    const scratch = (name: string, floats: number) => this.pool.scratchBuffer(name, 4 * Math.max(1, floats), SCRATCH_USAGE);
    const buffer = scratch('obs', steps * obsDim);
    if ('host' in obs) {
      this.device.queue.writeBuffer(buffer, 0, obs.host);
      return buffer;
    }
    const runner = await this.runners.single(PPO_GATHER);
    // The gather writes actions and old log-probabilities too; the critic leaves them unread.
    const into = { obs: buffer, actions: scratch('actions', steps), oldLogProbs: scratch('oldLogProbs', steps) };
    recordPpoGather(pass(), runner, WORKGROUP, obs.records, steps, obsDim, into);
    return buffer;
  }

  /** V(s) of every step of a batch, at the weights in `weights` (the critic's variables' buffers): one read-back. */
  async values(shape: CriticShape, obs: CriticObs, steps: number, weights: GPUBuffer[]): Promise<Float32Array> {
    const runner = await this.runners.single(CRITIC_VALUES);
    const d = this.device;
    this.pool.reclaim();
    const sizes = criticVariableSizes(shape);
    const flat = this.pool.scratchBuffer('weights', 4 * sumOf(sizes), SCRATCH_USAGE);
    const out = this.pool.scratchBuffer('values', 4 * Math.max(1, steps), SCRATCH_USAGE);
    const staging = d.createBuffer({ label: 'fused critic values read-back', size: 4 * Math.max(1, steps), usage: MAP_READ | COPY_DST });
    try {
      const scopes = pushScopes(d);
      const encoder = d.createCommandEncoder({ label: 'fused critic values' });
      let offset = 0;
      weights.forEach((w, i) => {
        encoder.copyBufferToBuffer(w, 0, flat, offset, sizes[i] * 4);
        offset += sizes[i] * 4;
      });
      const pass = encoder.beginComputePass({ label: 'fused critic values' });
      const obsBuffer = await this.observations(obs, steps, shape.obsDim, () => pass);
      runner.record(pass, runner.prepare({ weights: flat, obs: obsBuffer, values: out }, this.params(shape, { numSteps: steps })), steps);
      pass.end();
      encoder.copyBufferToBuffer(out, 0, staging, 0, 4 * steps);
      d.queue.submit([encoder.finish()]);
      await popScopes(d, scopes, 'fused critic values');
      await staging.mapAsync(MAP_READ);
      return new Float32Array(staging.getMappedRange().slice(0, 4 * steps));
    } finally {
      staging.destroy();
    }
  }

  /**
   * The critic's regression in one submit: every epoch's order drawn from `key`, every minibatch's six
   * dispatches, the weights and Adam's state read from and written back to `targets`. Resolves to
   * the mean loss over the last epoch's minibatches (one read-back).
   */
  async update(
    shape: CriticShape,
    obs: CriticObs,
    returns: Float32Array,
    key: PermutationKey,
    minibatches: readonly FusedMinibatch[],
    settings: FusedCriticSettings,
    targets: FusedPpoTargets,
  ): Promise<number> {
    const steps = returns.length;
    const statsOver = minibatches.length / settings.epochs;
    if (!Number.isInteger(statsOver)) throw new Error(`the critic's ${minibatches.length} minibatches are not ${settings.epochs} epochs of equal count`);
    const slots = await this.runners.minibatches(minibatches.length);
    const permutationRunner = await this.runners.single(MINIBATCH_PERMUTATION);
    const d = this.device;
    this.pool.reclaim();
    const sizes = criticVariableSizes(shape);
    const weightFloats = sumOf(sizes);
    const largest = Math.max(...minibatches.map((m) => m.size));
    const scratch = (name: string, floats: number) => this.pool.scratchBuffer(name, 4 * Math.max(1, floats), SCRATCH_USAGE);
    const buffers = {
      weights: scratch('weights', weightFloats),
      firstMoment: scratch('firstMoment', weightFloats),
      secondMoment: scratch('secondMoment', weightFloats),
      grads: scratch('grads', weightFloats),
      state: scratch('state', STATE_ROWS + 5 * minibatches.length),
      work: scratch('work', workFloats(largest, 0, shape.hiddenSize, 1)),
      returns: scratch('returns', steps),
      perm: scratch('perm', steps * settings.epochs),
      // ppo-forward binds the candidates' features and, with ppo-step-grads, the rows' grouping, and
      // ppo-grad-norm the candidate tower's partial gradients; with no candidate rows they read none.
      features: scratch('features', 1),
      rows: scratch('rows', 1),
      groups: scratch('groups', 1),
      // ppo-step-grads' partial sums of the tower's gradients, per span of rows (critic-head-grads adds them).
      partials: scratch(
        'partials',
        Math.max(...minibatches.map((mb) => towerGrads(mb.size, shape.obsDim, shape.hiddenSize).spans)) * towerGrads(1, shape.obsDim, shape.hiddenSize).floats,
      ),
      statsOut: scratch('statsOut', 5),
    };
    d.queue.writeBuffer(buffers.returns, 0, returns);
    const staging = d.createBuffer({ label: 'fused critic loss read-back', size: 4, usage: MAP_READ | COPY_DST });
    try {
      const scopes = pushScopes(d);
      const encoder = d.createCommandEncoder({ label: 'fused critic update' });
      copyIn(encoder, targets, buffers, sizes);
      const pass = encoder.beginComputePass({ label: 'fused critic update' });
      const obsBuffer = await this.observations(obs, steps, shape.obsDim, () => pass);
      recordPermutation(pass, permutationRunner, WORKGROUP, steps, settings.epochs, key, buffers.perm);
      const bound: Record<string, GPUBuffer> = { ...buffers, obs: obsBuffer };
      const groups = (n: number) => Math.ceil(n / WORKGROUP);
      const { obsDim: D, hiddenSize: H } = shape;
      minibatches.forEach((mb, j) => {
        const params = this.params(shape, {
          numSteps: steps,
          batchSize: mb.size,
          permOffset: mb.offset,
          statsRow: j % statsOver,
          statsRows: statsOver,
          weightCount: weightFloats,
          maxGradNorm: settings.maxGradNorm,
          learningRate: settings.learningRate,
          beta1: settings.beta1,
          beta2: settings.beta2,
          epsilon: settings.epsilon,
          valueCoef: settings.valueCoef,
          spanRows: spanRows(mb.size),
        });
        const tower = towerGrads(mb.size, D, H);
        const workgroups = [forwardWorkgroups(mb.size, 0), mb.size, tower.workgroups, groups(H + 1 + tower.floats), 1, groups(weightFloats)];
        slots[j].forEach((runner, k) => {
          const named = Object.fromEntries(runner.spec.storage.map(([name]) => [name, bound[name]]));
          runner.record(pass, runner.prepare(named, params), workgroups[k]);
        });
      });
      pass.end();
      copyOut(encoder, targets, buffers, sizes);
      encoder.copyBufferToBuffer(buffers.statsOut, 0, staging, 0, 4);
      d.queue.submit([encoder.finish()]);
      await popScopes(d, scopes, 'fused critic update');
      await staging.mapAsync(MAP_READ);
      return new Float32Array(staging.getMappedRange())[0];
    } finally {
      staging.destroy();
    }
  }

  /** The Params uniforms for the critic's shape (no candidates: numRows 0, actionDim 1), with `own` over the zeros. */
  private params(shape: CriticShape, own: Partial<Record<ParamName, number>>): Record<ParamName, number> {
    const zeros = Object.fromEntries(FUSED_PPO_PARAMS.map(([name]) => [name, 0])) as Record<ParamName, number>;
    return { ...zeros, obsDim: shape.obsDim, hiddenSize: shape.hiddenSize, actionDim: 1, numActions: 1, numRows: 0, ...own };
  }

  /** Lets go of the buffers the next update makes again (fused-runners.ts `trim`). */
  trim(): void {
    if (!this.disposed) this.runners.trim();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.runners.dispose();
  }
}
