/**
 * One method's training loop, iteration by iteration: rollout → advantages → PPO update → metrics.
 *
 * The same class runs in Node (CLI, tests, study) and in the page. It assumes the tfjs backend is
 * already selected. Randomness comes from forks of one Rng seeded by `config.seed`, one stream per
 * consumer, so two trainers with the same seed see the same task stream, and a GRPO and a γ = 1 BEACON
 * trainer take identical steps.
 */
import * as tf from '@tensorflow/tfjs-core';
import { createEnv, type VecEnv } from '../../envs/index.ts';
import { randomizeMilestones } from '../advantages/random-segments.ts';
import type { AdvantageBatch, AdvantageResult } from '../advantages/types.ts';
import { advantageSettings, type TrainConfig } from '../config.ts';
import { creditMetrics } from '../metrics/credit-metrics.ts';
import { Policy } from '../policy/policy.ts';
import { Rng } from '../prng.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from './advantage-engine.ts';
import type { IterationRecord } from './iteration-record.ts';
import { ppoUpdate } from './ppo.ts';
import { RolloutCollector, type Rollout } from './rollout.ts';
import { disposePpoBatch, toPpoBatch } from './update-batch.ts';

/** The latest batch, kept for the episode viewer and the credit view. */
export interface BatchView {
  rollout: Rollout;
  /** The batch as the advantages saw it (milestones after random segmentation). */
  batch: AdvantageBatch;
  result: AdvantageResult;
}

const now = () => performance.now();

export class Trainer {
  readonly env: VecEnv;
  readonly policy: Policy;
  private config: TrainConfig;
  private readonly optimizer: tf.AdamOptimizer;
  private readonly collector: RolloutCollector;
  private readonly taskRng: Rng;
  private readonly rolloutRng: Rng;
  private readonly updateRng: Rng;
  private readonly segmentRng: Rng;
  private completed = 0;
  lastBatch: BatchView | null = null;

  constructor(config: TrainConfig, private readonly engine: AdvantageEngine = cpuAdvantageEngine) {
    this.config = config;
    const root = new Rng(config.seed);
    this.taskRng = root.fork('tasks');
    this.rolloutRng = root.fork('rollout');
    this.updateRng = root.fork('update');
    this.segmentRng = root.fork('segments');
    this.env = createEnv(config.env, {
      horizon: config.horizon,
      batchSize: config.tasksPerIteration * config.groupSize,
      milestoneDropout: config.milestoneDropout,
    });
    this.policy = new Policy({ obsDim: this.env.obsDim, actionDim: this.env.actionDim, hiddenSize: config.hiddenSize }, root.fork('init'));
    this.optimizer = tf.train.adam(config.learningRate);
    this.collector = new RolloutCollector(this.env, this.policy);
  }

  get iteration(): number {
    return this.completed;
  }

  get settings(): Readonly<TrainConfig> {
    return this.config;
  }

  /** Applies settings that take effect from the next iteration (those with `restart: false`). */
  updateSettings(changes: Partial<TrainConfig>): void {
    this.config = { ...this.config, ...changes };
    // tfjs's Adam reads its learning rate on every step; the field is not exposed in the typings.
    (this.optimizer as unknown as { learningRate: number }).learningRate = this.config.learningRate;
  }

  async step(): Promise<IterationRecord> {
    const c = this.config;
    const t0 = now();
    const taskSeeds = Uint32Array.from({ length: c.tasksPerIteration }, () => this.taskRng.nextUint32());
    const rollout = await this.collector.collect(taskSeeds, c.groupSize, this.rolloutRng);
    const t1 = now();

    const rewards = Float64Array.from(rollout.success, (s) => (s ? c.successReward : 0));
    const milestones = c.randomSegments ? randomizeMilestones(rollout.runOffsets, rollout.milestones, this.segmentRng) : rollout.milestones;
    const batch: AdvantageBatch = { groupOffsets: rollout.groupOffsets, runOffsets: rollout.runOffsets, milestones, rewards };
    const settings = advantageSettings(c);
    const { tensor: advantages, result } = await this.engine.compute(batch, settings);
    const t2 = now();

    const S = rollout.actions.length;
    const tensors = toPpoBatch(rollout, this.env, advantages as tf.Tensor1D);
    let stats;
    try {
      stats = await ppoUpdate(this.policy, this.optimizer, tensors, c, this.updateRng);
    } finally {
      disposePpoBatch(tensors);
    }
    const t3 = now();

    this.completed++;
    this.lastBatch = { rollout, batch, result };
    return {
      iteration: this.completed,
      method: c.method,
      ...creditMetrics({
        method: c.method,
        batch,
        advantages: result.advantages,
        success: rollout.success,
        milestonesReached: rollout.milestonesReached,
        stateKeys: rollout.stateKeys,
        actions: rollout.actions,
      }),
      ...stats,
      meanEpisodeLength: S / rollout.numRuns,
      envSteps: S,
      envStepsPerSecond: S / ((t1 - t0) / 1000),
      ms: { rollout: t1 - t0, advantage: t2 - t1, update: t3 - t2 },
    };
  }

  dispose(): void {
    this.policy.dispose();
    this.optimizer.dispose();
    this.engine.dispose();
  }
}
