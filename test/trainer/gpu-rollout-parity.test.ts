/**
 * The GPU rollout at the page's real shapes (width 64, each environment's own observation and
 * candidate features, 8 × 8 runs at the long horizon, hundreds of distinct candidate rows) and at
 * 4,096 runs (64 × 64, the tiny horizon): every run replays in the TypeScript environment step by step,
 * every draw is the CPU twin's under the policy's float64 twin (src/policy/plain-policy.ts, the acting
 * kernels' order of summation), the records on the GPU are the replay's, and the candidate dictionary
 * (each distinct row's embedding computed once per rollout and shared by every run that meets it,
 * shaders/lib/rollout_candidates.wgsl) numbers the rows as the host does. The small shapes are in
 * gpu-rollout.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import type { Horizon } from '../../envs/types.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { GpuRolloutCollector } from '../../src/trainer/gpu-rollout.ts';
import { countGpuCalls, expectDictionaryMatches, expectRecordsMatch, replay } from '../support/gpu-rollout-replay.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

describe('GPU rollout at the page’s shapes (Dawn)', () => {
  beforeAll(async () => {
    await useWebGpuBackend();
  });

  // [environment, horizon, tasks, group size, the fewest distinct candidate rows the rollout must hold]
  const cases: ['gridhouse' | 'texthouse' | 'shop', Horizon, number, number, number][] = [
    ['gridhouse', 'long', 8, 8, 100],
    ['texthouse', 'long', 8, 8, 100],
    ['shop', 'long', 8, 8, 100],
    ['gridhouse', 'tiny', 64, 64, 20],
  ];

  it.each(cases)(
    '%s %s, %i × %i runs, width 64: every run replays, every draw is the twin’s, the dictionary is the host’s',
    async (envName, horizon, tasks, groupSize, fewestRows) => {
      const makeEnv = () => createEnv(envName, { horizon, batchSize: tasks * groupSize });
      const env = makeEnv();
      const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 64 }, new Rng(21));
      const collector = new GpuRolloutCollector(env, policy, VITE_SHADERS);
      try {
        const seeds = Uint32Array.from({ length: tasks }, (_, k) => 300 + k);
        const [rollout, counts] = await countGpuCalls(() => collector.collect(seeds, groupSize, new Rng(17).fork('rollout')));
        expect(counts.dispatches).toBe(3);
        expect(counts.maps).toBe(1);
        const distinctRows = rollout.candidates.length / env.actionDim;
        expect(distinctRows, 'distinct candidate rows').toBeGreaterThanOrEqual(fewestRows);
        await expectRecordsMatch(rollout, env.obsDim, env.detector, collector.lastCheckedRuns);
        // A draw whose u falls within rounding of a CDF boundary may differ from the twin's; among thousands of steps, a few.
        const nearBoundary = await replay(rollout, makeEnv, new Rng(17).fork('rollout'), policy);
        expect(nearBoundary).toBeLessThanOrEqual(Math.max(1, Math.ceil(rollout.actions.length / 2000)));
        await expectDictionaryMatches(rollout, collector, env.actionDim, env.maxActions);
      } finally {
        collector.dispose();
        policy.dispose();
      }
    },
    900_000,
  );
});
