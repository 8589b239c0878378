/**
 * The PPO update's cost and achieved rate, against the same update before candidate deduplication
 * (legacy-update.ts) and against the backend's matmul rate at the update's own shapes (matmul-rate.ts).
 *
 * A trainer plays a few iterations to get a real batch; then the new and the legacy update run on that
 * batch, interleaved round by round from the same weights (restored after each), so that both see the
 * same machine load. FLOPs are nominal: 2·m·k·n for every matmul the update runs, forward and backward,
 * counted from the shapes (elementwise work is not counted).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { NodeBackend } from '../cli/node-backend.ts';
import type { TrainConfig } from '../src/config.ts';
import { renumberByFirstUse } from '../src/policy/candidate-table.ts';
import { Rng } from '../src/prng.ts';
import { ppoUpdate } from '../src/trainer/ppo.ts';
import { Trainer } from '../src/trainer/trainer.ts';
import { disposePpoBatch, toPpoBatch } from '../src/trainer/update-batch.ts';
import { legacyUpdate, pairFeatures } from './legacy-update.ts';
import { matmulFlops, measureMatmulRate, type MatmulShape } from './matmul-rate.ts';

export interface UpdateRateReport {
  backend: string;
  settings: string;
  steps: number;
  candidatePairs: number;
  distinctCandidates: number;
  updateMsPer1kSteps: number;
  legacyUpdateMsPer1kSteps: number;
  /** legacy / new: how many times cheaper the update is per environment step. */
  speedup: number;
  updateGflop: number;
  updateGflops: number;
  legacyGflop: number;
  legacyGflops: number;
  /** The backend's rate on the new update's matmul shapes. */
  matmulGflops: number;
  /** updateGflops / matmulGflops. */
  rateRatio: number;
}

interface Dims {
  obsDim: number;
  actionDim: number;
  hidden: number;
}

/** Every matmul of one minibatch step of the deduplicated update: M steps, K distinct candidates. */
export function updateMatmuls(d: Dims, M: number, K: number, count: number): MatmulShape[] {
  const { obsDim: o, actionDim: a, hidden: h } = d;
  const mm = (m: number, k: number, n: number) => ({ m, k, n, count });
  return [
    mm(M, o, h),
    mm(M, h, h),
    mm(K, a, h),
    mm(K, h, h),
    mm(M, h, K), // forward
    mm(o, M, h),
    mm(M, h, h),
    mm(h, M, h), // observation tower: dW1, dX2, dW2
    mm(a, K, h),
    mm(K, h, h),
    mm(h, K, h), // candidate tower: dV1, dX2, dV2
    mm(M, K, h),
    mm(h, M, K), // scores h · eᵀ: dh, d(eᵀ)
  ];
}

/** The legacy update's matmuls: every (step, candidate) pair through the candidate tower. */
function legacyMatmuls(d: Dims, M: number, pairs: number, count: number): MatmulShape[] {
  const { obsDim: o, actionDim: a, hidden: h } = d;
  const mm = (m: number, k: number, n: number) => ({ m, k, n, count });
  return [mm(M, o, h), mm(M, h, h), mm(pairs, a, h), mm(pairs, h, h), mm(o, M, h), mm(M, h, h), mm(h, M, h), mm(a, pairs, h), mm(pairs, h, h), mm(h, pairs, h)];
}

const sum = (shapes: MatmulShape[]) => shapes.reduce((acc, s) => acc + matmulFlops(s), 0);

export async function measureUpdateRate(config: TrainConfig, backend: NodeBackend, rounds = 5): Promise<UpdateRateReport> {
  const trainer = new Trainer(config, backend.advantageEngine(config.method));
  try {
    for (let i = 0; i < 2; i++) await trainer.step(); // warm-up, and a batch from a policy that has learnt a little
    const { rollout, result } = trainer.lastBatch!;
    const env = trainer.env;
    const dims = { obsDim: env.obsDim, actionDim: env.actionDim, maxActions: env.maxActions };
    const S = rollout.actions.length;
    const advantages = Float32Array.from(result.advantages);
    const policy = trainer.policy;
    const times = { new: [] as number[], legacy: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const which of ['new', 'legacy'] as const) {
        const weights = policy.snapshot();
        const optimizer = tf.train.adam(config.learningRate);
        const t0 = performance.now();
        if (which === 'new') {
          const batch = toPpoBatch(rollout, dims, tf.tensor1d(advantages));
          try {
            await ppoUpdate(policy, optimizer, batch, config, new Rng(r));
          } finally {
            disposePpoBatch(batch);
          }
        } else {
          await legacyUpdate(policy, optimizer, { ...rollout, features: pairFeatures(rollout, dims.actionDim), advantages }, dims, config, new Rng(r));
        }
        times[which].push(performance.now() - t0);
        process.stderr.write(`update-rate: round ${r + 1}/${rounds}, ${which}: ${times[which][r].toFixed(0)} ms\n`);
        optimizer.dispose();
        policy.restore(weights);
      }
    }
    const K = renumberByFirstUse(rollout.candidateRows, rollout.candidates, env.actionDim).count;
    const minibatches = Math.max(1, Math.min(config.minibatches, S));
    const M = Math.round(S / minibatches);
    const steps = config.epochs * minibatches;
    const d = { obsDim: env.obsDim, actionDim: env.actionDim, hidden: config.hiddenSize };
    const shapes = updateMatmuls(d, M, K, steps);
    const updateFlops = sum(shapes);
    const legacyFlops = sum(legacyMatmuls(d, M, M * env.maxActions, steps));
    // The least disturbed round of each, as for the matmul rate: the machine is shared.
    const newMs = Math.min(...times.new);
    const legacyMs = Math.min(...times.legacy);
    const matmulGflops = await measureMatmulRate(shapes);
    const updateGflops = updateFlops / newMs / 1e6;
    return {
      backend: backend.describe,
      settings: `${config.env}/${config.horizon}, width ${config.hiddenSize}, ${config.epochs} epochs × ${config.minibatches} minibatches, ${config.tasksPerIteration}×${config.groupSize} runs`,
      steps: S,
      candidatePairs: S * env.maxActions,
      distinctCandidates: K,
      updateMsPer1kSteps: (1000 * newMs) / S,
      legacyUpdateMsPer1kSteps: (1000 * legacyMs) / S,
      speedup: legacyMs / newMs,
      updateGflop: updateFlops / 1e9,
      updateGflops,
      legacyGflop: legacyFlops / 1e9,
      legacyGflops: legacyFlops / legacyMs / 1e6,
      matmulGflops,
      rateRatio: updateGflops / matmulGflops,
    };
  } finally {
    trainer.dispose();
  }
}

/** Lines for bench:train's text output. */
export function formatUpdateRate(r: UpdateRateReport): string {
  const f = (x: number, d = 1) => x.toFixed(d);
  return [
    `PPO update on one batch (${r.settings}; ${r.steps} steps, ${r.candidatePairs} candidate pairs, ${r.distinctCandidates} distinct), backend ${r.backend}:`,
    `  update cost: ${f(r.updateMsPer1kSteps)} ms per 1000 env steps (before deduplication, same batch, interleaved: ${f(r.legacyUpdateMsPer1kSteps)} ms; ${f(r.speedup, 2)}x cheaper, target >= 3x: ${r.speedup >= 3 ? 'met' : 'NOT met'})`,
    `  achieved: ${f(r.updateGflop, 3)} GFLOP of matmuls per update at ${f(r.updateGflops, 2)} GFLOP/s (before: ${f(r.legacyGflop, 3)} GFLOP at ${f(r.legacyGflops, 2)} GFLOP/s)`,
    `  matmul rate at the update's shapes: ${f(r.matmulGflops, 2)} GFLOP/s; achieved / matmul = ${f(100 * r.rateRatio)}% (target >= 30%: ${r.rateRatio >= 0.3 ? 'met' : 'NOT met'})`,
  ].join('\n');
}
