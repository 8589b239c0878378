/**
 * The rollout on the GPU (webgpu backend): the environment steps in WGSL (src/gpu/gpu-envs.ts), the
 * policy scores candidates in one fused kernel (src/gpu/policy-logits.ts) and actions are sampled on the
 * GPU from the counter-based generator (src/gpu/counter-rng.ts), so a step is three dispatches and no
 * read-back. Each step's observation, candidates, mask and episode records, and the sampled actions
 * and log-probabilities, are copied into step-major GPU records as the rollout goes; one read-back at
 * the end brings them to the CPU and lays them out as the `Rollout` the update takes (rollout.ts), so
 * the methods, advantages and update run unchanged. Every kernel's uniforms are the same at every step,
 * so the whole rollout is recorded into one command buffer and submitted once.
 *
 * Without a read-back the CPU cannot tell when every episode has ended, so all maxSteps steps are
 * dispatched; finished episodes' steps change nothing (the kernels skip them).
 *
 * Reproducibility: the task layouts and dropout decisions come from the environment's seeded CPU reset,
 * drawn from `rng` exactly as the CPU rollout draws them; the actions from Philox keyed by (the stream's
 * seed, one word drawn from the stream after the reset), counter (run, step). The same seed therefore
 * gives the same rollouts on a given adapter, and a checkpoint (which saves the stream's position)
 * resumes them exactly. The cpu/wasm rollout (rollout.ts) is untouched.
 */
import type { VecEnv } from '../../envs/types.ts';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import { gpuEnvKernel, type GpuEnvKernel } from '../gpu/gpu-envs.ts';
import { GpuKernelError, KernelRunner } from '../gpu/kernel.ts';
import {
  gatherWeights,
  POLICY_LOGITS,
  POLICY_LOGITS_MAX_HIDDEN,
  POLICY_LOGITS_WORKGROUP,
  policyLogitsParams,
  policyWeightCount,
} from '../gpu/policy-logits.ts';
import { perEpisodeWorkgroups, SAMPLE_ACTIONS } from '../gpu/sample-actions.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import { CandidateDictionary } from '../policy/candidate-table.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import type { Rollout } from './rollout.ts';

const STORAGE = 0x0080; // GPUBufferUsage.STORAGE
const COPY_SRC = 0x0004;
const COPY_DST = 0x0008;
const MAP_READ = 0x0001;
const WORKGROUP = 64;
/**
 * Most bytes of per-step records a GPU rollout keeps (WebGPU's default maxBufferSize, 256 MiB). Every
 * (step, candidate) feature row is recorded, which does not scale: GridHouse long at 4,096 runs would
 * need 864 MB. Beyond it the trainer keeps the CPU-sampled rollout.
 */
const RECORD_BUDGET = 256 * 1024 * 1024;

/** Bytes of each step-major record, for one rollout of `env`. */
function recordSizes(env: VecEnv, recordWords: number) {
  const B = env.batchSize;
  const A = env.maxActions;
  const T = env.maxSteps;
  return {
    obs: 4 * T * B * env.obsDim,
    actionFeatures: 4 * T * B * A * env.actionDim,
    mask: 4 * T * B * A,
    actions: 4 * T * B,
    logProbs: 4 * T * B,
    episodes: 4 * (T + 1) * B * recordWords,
  };
}

type RecordName = keyof ReturnType<typeof recordSizes>;

/**
 * Why `env` cannot be rolled out on `device` by a GpuRolloutCollector, or null if it can: an environment
 * without a kernel, a width over the kernel's, or records over the device's buffer size limit or the
 * record budget.
 */
export function gpuRolloutRefusal(env: VecEnv, hiddenSize: number, device: GPUDevice): string | null {
  const kernel = gpuEnvKernel(env);
  if (!kernel) return `the ${env.name} environment has no GPU kernel`;
  if (hiddenSize > POLICY_LOGITS_MAX_HIDDEN) return `hiddenSize ${hiddenSize} is over the GPU acting pass's ${POLICY_LOGITS_MAX_HIDDEN}`;
  const sizes = recordSizes(env, kernel.recordWords);
  const total = Object.values(sizes).reduce((s, n) => s + n, 0);
  if (total > device.limits.maxBufferSize)
    return `the GPU rollout's records (${total} bytes) are over the adapter's maxBufferSize (${device.limits.maxBufferSize} bytes)`;
  // The records live twice on the GPU (records and read-back) and once more on the CPU.
  if (total > RECORD_BUDGET) return `the GPU rollout's records (${total} bytes) are over its budget of ${RECORD_BUDGET} bytes`;
  return null;
}

interface Runners {
  /** The environment kernel twice, with uniforms of its own each: after the reset, and per step. */
  envStart: KernelRunner<string, string>;
  env: KernelRunner<string, string>;
  logits: KernelRunner<string, string>;
  sample: KernelRunner<string, string>;
}

export class GpuRolloutCollector {
  private readonly kernel: GpuEnvKernel;
  private runners: Promise<Runners> | null = null;
  private buffers: Record<string, GPUBuffer> | null = null;
  private records: Record<RecordName, GPUBuffer> | null = null;
  private staging: GPUBuffer | null = null;
  /** Live GPU buffers this collector owns (tests check that it does not grow). */
  liveBuffers = 0;

  constructor(
    private readonly env: VecEnv,
    private readonly policy: Policy,
    private readonly shaders: ShaderSources,
    private device: GPUDevice = getWebGpuDevice(),
  ) {
    const refusal = gpuRolloutRefusal(env, policy.shape.hiddenSize, device);
    if (refusal) throw new RangeError(`GPU rollout: ${refusal}`);
    this.kernel = gpuEnvKernel(env)!;
  }

  private ready(): Promise<Runners> {
    const d = this.device;
    const s = this.shaders;
    this.runners ??= Promise.all([
      KernelRunner.create(d, this.kernel.spec, s[this.kernel.spec.name], WORKGROUP),
      KernelRunner.create(d, this.kernel.spec, s[this.kernel.spec.name], WORKGROUP),
      KernelRunner.create(d, POLICY_LOGITS, s['policy-logits'], POLICY_LOGITS_WORKGROUP),
      KernelRunner.create(d, SAMPLE_ACTIONS, s['sample-actions'], WORKGROUP),
    ]).then(([envStart, env, logits, sample]) => ({ envStart, env, logits, sample }));
    return this.runners;
  }

  private create(label: string, bytes: number, usage: number): GPUBuffer {
    this.liveBuffers++;
    return this.device.createBuffer({ label: `gpu rollout ${label}`, size: Math.max(4, Math.ceil(bytes / 4) * 4), usage });
  }

  /** The per-step buffers the kernels share, and the records, made once per collector. */
  private allocate(): void {
    if (this.buffers) return;
    const { env } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    const io = STORAGE | COPY_SRC | COPY_DST;
    this.buffers = {
      weights: this.create('weights', 4 * policyWeightCount(env.obsDim, env.actionDim, this.policy.shape.hiddenSize), io),
      episodes: this.create('episodes', 4 * B * this.kernel.recordWords, io),
      mask: this.create('mask', 4 * B * A, io),
      obs: this.create('obs', 4 * B * env.obsDim, io),
      actionFeatures: this.create('actionFeatures', 4 * B * A * env.actionDim, io),
      logits: this.create('logits', 4 * B * A, io),
      actions: this.create('actions', 4 * B, io),
      logProbs: this.create('logProbs', 4 * B, io),
      draws: this.create('draws', 4 * B, io),
    };
    const sizes = recordSizes(env, this.kernel.recordWords);
    this.records = Object.fromEntries(
      Object.entries(sizes).map(([name, bytes]) => [name, this.create(`${name} record`, bytes, COPY_SRC | COPY_DST)]),
    ) as Record<RecordName, GPUBuffer>;
    this.staging = this.create(
      'read-back',
      Object.values(sizes).reduce((s, n) => s + n, 0),
      MAP_READ | COPY_DST,
    );
  }

  /**
   * Plays one batch to the end on the GPU. `taskSeeds` has one seed per group; `dropoutRng` draws the
   * dropout decisions (in the environment's reset, as on the CPU) and `rng` one word of the action key.
   */
  async collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng: Rng = rng): Promise<Rollout> {
    const { env, kernel } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    const T = env.maxSteps;
    if (taskSeeds.length * groupSize !== B) throw new RangeError(`rollout needs ${B} episodes, got ${taskSeeds.length} tasks × ${groupSize}`);
    // src/backend re-initialises tfjs on a new device after a device loss: start over on that one.
    const current = getWebGpuDevice();
    if (current !== this.device) {
      this.dispose();
      this.device = current;
    }
    const device = this.device;
    const runners = await this.ready();
    this.allocate();
    const buffers = this.buffers!;
    const records = this.records!;
    const staging = this.staging!;

    const episodeSeeds = new Uint32Array(B);
    for (let b = 0; b < B; b++) episodeSeeds[b] = taskSeeds[Math.floor(b / groupSize)];
    env.reset(episodeSeeds, dropoutRng);
    const key = { seed: rng.seed, iteration: rng.nextUint32() };
    const { episodes, table } = kernel.upload(env);
    const tableBuffer = this.create(table.name, table.data.byteLength, STORAGE | COPY_DST);
    device.queue.writeBuffer(tableBuffer, 0, table.data);
    device.queue.writeBuffer(buffers.episodes, 0, episodes);
    gatherWeights(device, this.policy.variables, buffers.weights);

    const envBuffers = { ...buffers, [table.name]: tableBuffer };
    const logitsParams = policyLogitsParams(B, env.obsDim, env.actionDim, A, this.policy.shape.hiddenSize);
    const sampleParams = {
      numEpisodes: B,
      numCandidates: A,
      ...key,
      recordWords: kernel.recordWords,
      doneField: kernel.fields.done,
      stepsField: kernel.fields.steps,
    };
    const episodeGroups = perEpisodeWorkgroups(B, WORKGROUP);
    const sizes = recordSizes(env, kernel.recordWords);
    const perStep = (name: RecordName, steps: number) => sizes[name] / steps;
    const at = {} as Record<RecordName, number>;
    try {
      const encoder = device.createCommandEncoder({ label: 'gpu rollout' });
      const copy = (from: GPUBuffer, to: RecordName, t: number) => {
        const bytes = perStep(to, to === 'episodes' ? T + 1 : T);
        encoder.copyBufferToBuffer(from, 0, records[to], t * bytes, bytes);
      };
      const pass = (record: (p: GPUComputePassEncoder) => void) => {
        const p = encoder.beginComputePass({ label: 'gpu rollout' });
        record(p);
        p.end();
      };
      device.pushErrorScope('out-of-memory');
      device.pushErrorScope('internal');
      device.pushErrorScope('validation');
      let errors: Promise<(GPUError | null)[]>;
      try {
        const startGroup = runners.envStart.prepare(envBuffers, kernel.params(env, 0));
        const stepGroup = runners.env.prepare(envBuffers, kernel.params(env, 1));
        const logitsGroup = runners.logits.prepare(buffers, logitsParams);
        const sampleGroup = runners.sample.prepare(buffers, sampleParams);
        pass((p) => runners.envStart.record(p, startGroup, episodeGroups));
        for (let t = 0; t < T; t++) {
          copy(buffers.obs, 'obs', t);
          copy(buffers.actionFeatures, 'actionFeatures', t);
          copy(buffers.mask, 'mask', t);
          copy(buffers.episodes, 'episodes', t);
          pass((p) => {
            runners.logits.record(p, logitsGroup, perEpisodeWorkgroups(B * A, POLICY_LOGITS_WORKGROUP));
            runners.sample.record(p, sampleGroup, episodeGroups);
          });
          copy(buffers.actions, 'actions', t);
          copy(buffers.logProbs, 'logProbs', t);
          pass((p) => runners.env.record(p, stepGroup, episodeGroups));
        }
        copy(buffers.episodes, 'episodes', T);
        let offset = 0;
        for (const name of Object.keys(sizes) as RecordName[]) {
          at[name] = offset;
          encoder.copyBufferToBuffer(records[name], 0, staging, offset, sizes[name]);
          offset += sizes[name];
        }
        device.queue.submit([encoder.finish()]);
      } finally {
        errors = Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]);
      }
      const error = (await errors).find((e) => e !== null);
      if (error) throw new GpuKernelError('gpu rollout', error.message);
      await staging.mapAsync(MAP_READ);
      let rollout: Rollout;
      try {
        const bytes = staging.getMappedRange();
        const view = <C extends Float32Array | Uint32Array | Int32Array>(name: RecordName, Ctor: new (b: ArrayBuffer, o: number, n: number) => C) =>
          new Ctor(bytes, at[name], sizes[name] / 4);
        rollout = this.layOut(taskSeeds, groupSize, episodeSeeds, {
          obs: view('obs', Float32Array),
          actionFeatures: view('actionFeatures', Float32Array),
          mask: view('mask', Uint32Array),
          actions: view('actions', Int32Array),
          logProbs: view('logProbs', Float32Array),
          episodes: view('episodes', Uint32Array),
        });
      } finally {
        staging.unmap();
      }
      return rollout;
    } finally {
      // Queue order keeps the table alive for the work already submitted.
      tableBuffer.destroy();
      this.liveBuffers--;
    }
  }

  /** The run-major `Rollout` of the step-major records (copied out of the mapped read-back). */
  private layOut(
    taskSeeds: Uint32Array,
    groupSize: number,
    episodeSeeds: Uint32Array,
    rec: { obs: Float32Array; actionFeatures: Float32Array; mask: Uint32Array; actions: Int32Array; logProbs: Float32Array; episodes: Uint32Array },
  ): Rollout {
    const { env } = this;
    const { recordWords: W, fields } = this.kernel;
    const B = env.batchSize;
    const A = env.maxActions;
    const T = env.maxSteps;
    const { obsDim, actionDim } = env;
    const last = T * B * W;
    // The same words read as float32 (a graded outcome is stored as its f32 bits in the record).
    const episodeFloats = new Float32Array(rec.episodes.buffer, rec.episodes.byteOffset, rec.episodes.length);
    const steps = Int32Array.from({ length: B }, (_, b) => rec.episodes[last + b * W + fields.steps]);
    const runOffsets = new Int32Array(B + 1);
    for (let b = 0; b < B; b++) runOffsets[b + 1] = runOffsets[b] + steps[b];
    const S = runOffsets[B];
    const out: Rollout = {
      numRuns: B,
      groupSize,
      groupOffsets: Int32Array.from({ length: taskSeeds.length + 1 }, (_, g) => g * groupSize),
      runOffsets,
      taskSeeds: episodeSeeds,
      success: Uint8Array.from({ length: B }, (_, b) => rec.episodes[last + b * W + fields.success]),
      milestonesReached: Uint8Array.from({ length: B }, (_, b) => rec.episodes[last + b * W + fields.milestonesReached]),
      numMilestones: Uint8Array.from({ length: B }, (_, b) => rec.episodes[last + b * W + fields.numMilestones]),
      // A graded environment's outcome (the shop's WebShop reward, docs/maths.md §10), kept as f32 bits in the record.
      ...(fields.outcome !== undefined ? { outcome: Float32Array.from({ length: B }, (_, b) => episodeFloats[last + b * W + fields.outcome!]) } : {}),
      obs: new Float32Array(S * obsDim),
      candidateRows: new Int32Array(S * A),
      mask: new Uint8Array(S * A),
      actions: new Int32Array(S),
      logProbs: new Float32Array(S),
      stateKeys: new Uint32Array(S),
      milestones: new Uint8Array(S),
      candidates: new Float32Array(0),
    };
    const dictionary = new CandidateDictionary(actionDim);
    const stepRows = new Int32Array(B * A);
    for (let t = 0; t < T; t++) {
      let live = false;
      for (let b = 0; b < B && !live; b++) live = t < steps[b];
      if (!live) break;
      // Rows of finished episodes get no id, as on the CPU (rollout.ts).
      dictionary.addRows(rec.actionFeatures.subarray(t * B * A * actionDim, (t + 1) * B * A * actionDim), stepRows, (row) => t >= steps[Math.floor(row / A)]);
      for (let b = 0; b < B; b++) {
        if (t >= steps[b]) continue;
        const s = runOffsets[b] + t;
        const tb = t * B + b;
        out.obs.set(rec.obs.subarray(tb * obsDim, (tb + 1) * obsDim), s * obsDim);
        out.candidateRows.set(stepRows.subarray(b * A, (b + 1) * A), s * A);
        for (let a = 0; a < A; a++) out.mask[s * A + a] = rec.mask[tb * A + a];
        out.actions[s] = rec.actions[tb];
        out.logProbs[s] = rec.logProbs[tb];
        out.stateKeys[s] = rec.episodes[tb * W + fields.stateKey];
        // The batch takes 0/1 flags (Φ fired or not), read from the record after the step.
        out.milestones[s] = rec.episodes[(tb + B) * W + fields.milestone] > 0 ? 1 : 0;
      }
    }
    out.candidates = dictionary.rows();
    return out;
  }

  dispose(): void {
    const owned = [...Object.values(this.buffers ?? {}), ...Object.values(this.records ?? {}), ...(this.staging ? [this.staging] : [])];
    for (const buffer of owned) buffer.destroy();
    this.liveBuffers -= owned.length;
    this.buffers = this.records = this.staging = null;
    void this.runners?.then(
      (r) => Object.values(r).forEach((k) => k.destroy()),
      () => {},
    );
    this.runners = null;
  }
}
