/**
 * TextHouse on the GPU (shaders/texthouse-step.wgsl) against the TypeScript environment, on Dawn: on
 * the same command sequences (a mix of the oracle's and random admissible ones, so that milestones,
 * dropout and successes happen), every step's state, mask, milestone, outcome and state key are equal
 * and every feature (the stale ones of masked slots included) is equal within float32 rounding, at
 * every horizon, over many seeds (test/support/gpu-env-lockstep.ts; the same check runs in Chromium in
 * test/e2e/gpu-env-parity.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { VITE_SHADER_FILES, VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { TEXT_EPISODE_OFFSET, TEXT_EPISODE_WORDS, ZOBRIST_OFFSET } from '../../src/gpu/texthouse-step.ts';
import { wgslConsts } from '../support/env-parity.ts';
import { runLockstep } from '../support/gpu-env-lockstep.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

describe('texthouse-step record layouts', () => {
  it('the WGSL constants are the TypeScript tables', () => {
    const consts = wgslConsts(VITE_SHADER_FILES['lib/texthouse.wgsl']);
    expect(consts.get('EPISODE_WORDS')).toBe(TEXT_EPISODE_WORDS);
    for (const [name, offset] of Object.entries(TEXT_EPISODE_OFFSET)) expect(consts.get(`E_${name}`), `E_${name}`).toBe(offset);
    for (const [name, offset] of Object.entries(ZOBRIST_OFFSET)) expect(consts.get(`Z_${name}`), `Z_${name}`).toBe(offset);
  });
});

describe('texthouse-step kernel on WebGPU (Dawn) against the TypeScript TextHouse', () => {
  let device: GPUDevice;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
  });

  it.each(
    HORIZONS.flatMap(
      (h) =>
        [
          [h, 0],
          [h, 0.4],
        ] as [Horizon, number][],
    ),
  )('%s, dropout %s: equal at every step', async (horizon, milestoneDropout) => {
    const run = await runLockstep(device, VITE_SHADERS, { env: 'texthouse', horizon, milestoneDropout, groups: 12, groupSize: 3, seed: 2000 + horizon.length });
    if (run.mismatch) expect.fail(run.mismatch);
    expect(run.milestones).toBeGreaterThan(0);
    expect(run.successes).toBeGreaterThan(0);
    if (milestoneDropout > 0) expect(run.dropped).toBeGreaterThan(0);
    else expect(run.dropped).toBe(0);
  });
});
