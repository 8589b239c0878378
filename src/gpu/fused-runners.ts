/**
 * What a fused update keeps on one device: its pool of buffers, and its kernel runners (fused-ppo.ts for the policy, fused-critic.ts
 * for critic PPO's value network): per minibatch slot, one runner per kernel of the minibatch, since
 * every minibatch of an update is recorded into one command buffer with uniforms of its own; and the
 * kernels dispatched once per update (the permutation, the gather, the critic's values), one runner
 * each. Each runner holds one uniform buffer; the pipelines are compiled once per device and shared
 * (kernel.ts).
 */
import { GpuBufferPool } from './buffer-pool.ts';
import { NORM_WORKGROUP, PPO_GRAD_NORM, WORKGROUP } from './fused-ppo-kernels.ts';
import { KernelRunner, type KernelSpec } from './kernel.ts';
import type { KernelName, ShaderSources } from './shader-source.ts';

type Runner = KernelRunner<string, string>;
type AnySpec = KernelSpec<string, string>;

export class FusedRunners {
  readonly pool: GpuBufferPool;
  private readonly slots: Promise<Runner[]>[] = [];
  private readonly once = new Map<string, Promise<Runner>>();

  /** `label` names the pool's buffers; `minibatchKernels`: the kernels of one minibatch, in dispatch order. */
  constructor(
    readonly device: GPUDevice,
    private readonly shaders: ShaderSources,
    label: string,
    private readonly minibatchKernels: readonly { name: string }[],
  ) {
    this.pool = new GpuBufferPool(device, label);
  }

  /** GPU buffers held: the pool's, and one uniform buffer per runner. */
  get liveBuffers(): number {
    return this.pool.liveBuffers + this.slots.length * this.minibatchKernels.length + this.once.size;
  }

  /** The runners of the first `count` minibatch slots, made as needed. */
  minibatches(count: number): Promise<Runner[][]> {
    while (this.slots.length < count) this.slots.push(Promise.all(this.minibatchKernels.map((spec) => this.create(spec as AnySpec))));
    return Promise.all(this.slots.slice(0, count));
  }

  /** The one runner of a kernel dispatched once per update, made on first use. */
  single(spec: { name: string }): Promise<Runner> {
    let runner = this.once.get(spec.name);
    if (!runner) this.once.set(spec.name, (runner = this.create(spec as AnySpec)));
    return runner;
  }

  private create(spec: AnySpec): Promise<Runner> {
    // The gradient norm sums in one workgroup of 256 (its tree sums); every other kernel runs 64 wide.
    const workgroup = spec.name === PPO_GRAD_NORM.name ? NORM_WORKGROUP : WORKGROUP;
    return KernelRunner.create(this.device, spec, this.shaders[spec.name as KernelName], workgroup);
  }

  /**
   * Lets go of what the next update makes again: the pool's scratch and free buffers (buffer-pool.ts
   * `trim`) and the runners' uniform buffers (the pipelines stay compiled, kernel.ts). For a race that
   * ended or settings that shrank; call it between updates, never while one is being recorded.
   */
  trim(): void {
    this.pool.trim();
    this.destroyRunners();
  }

  /** Destroys every buffer (work already submitted keeps them alive until done). */
  dispose(): void {
    this.pool.destroy();
    this.destroyRunners();
  }

  private destroyRunners(): void {
    for (const slot of this.slots) slot.then((runners) => runners.forEach((r) => r.destroy())).catch(() => undefined);
    for (const runner of this.once.values()) runner.then((r) => r.destroy()).catch(() => undefined);
    this.slots.length = 0;
    this.once.clear();
  }
}
