/**
 * The advantages' milestone flags gathered on the GPU from a GPU rollout's action records
 * (shaders/milestone-gather.wgsl), where the whole-episode kernel left each step's flag
 * (src/trainer/rollout-records.ts MILESTONE_FLAG): run-major int32, as the advantage kernels read them
 * (advantage-tensors.ts), without the host writing S flags. Only for a batch whose flags are Φ's as
 * the rollout recorded them: no detector setting rewrote them (the trainer decides).
 */
import * as tf from '@tensorflow/tfjs-core';
import { TENSOR_BUFFER_USAGE } from '../backend/webgpu-interop.ts';
import { defineKernel, KernelRunner } from './kernel.ts';
import type { RolloutRecords } from './ppo-gather.ts';
import type { ShaderSources } from './shader-source.ts';
import { uniformFields } from './uniforms.ts';

export const MILESTONE_GATHER = defineKernel({
  name: 'milestone-gather',
  params: uniformFields([
    ['numSteps', 'u32'],
    ['numRuns', 'u32'],
  ]),
  storage: [
    ['runOffsets', 'read'],
    ['actionRecord', 'read'],
    ['milestones', 'read_write'],
  ],
});

const WORKGROUP = 64;

export class MilestoneGather {
  private runner: Promise<KernelRunner<string, string>> | null = null;
  /** The flags' buffer (one slot per record slot, so it never needs to grow). */
  private milestones: GPUBuffer | null = null;

  constructor(
    readonly device: GPUDevice,
    private readonly shaders: ShaderSources,
  ) {}

  /**
   * The `numSteps` run-major flags of `records`, as an int32 tensor on this object's buffer (submitted
   * here, before any work the caller queues next): valid until the next call; disposing the tensor
   * leaves the buffer here.
   */
  async gather(records: RolloutRecords, numSteps: number): Promise<tf.Tensor1D> {
    this.runner ??= KernelRunner.create(this.device, MILESTONE_GATHER, this.shaders[MILESTONE_GATHER.name], WORKGROUP);
    const runner = await this.runner;
    const bytes = 4 * Math.max(1, numSteps);
    if (!this.milestones || this.milestones.size < bytes) {
      this.destroyBuffers();
      this.milestones = this.device.createBuffer({ label: 'milestone gather flags', size: bytes, usage: TENSOR_BUFFER_USAGE });
    }
    const milestones = this.milestones;
    await runner.dispatch(
      { runOffsets: records.offsets, actionRecord: records.actions, milestones },
      { numSteps, numRuns: records.runOffsets.length - 1 },
      Math.ceil(numSteps / WORKGROUP),
    );
    return tf.tensor({ buffer: milestones, zeroCopy: true }, [numSteps], 'int32') as tf.Tensor1D;
  }

  dispose(): void {
    this.destroyBuffers();
    void this.runner?.then(
      (k) => k.destroy(),
      () => {},
    );
    this.runner = null;
  }

  private destroyBuffers(): void {
    this.milestones?.destroy();
    this.milestones = null;
  }
}
