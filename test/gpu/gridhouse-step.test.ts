/**
 * GridHouse on the GPU (shaders/gridhouse-step.wgsl, the step in shaders/lib/gridhouse.wgsl) against the TypeScript environment, on Dawn: on
 * the same action sequences (a mix of random admissible actions and the oracle's, so that milestones,
 * dropout and successes happen), every step's state, mask, milestone, outcome and state key are equal
 * and every feature is equal within float32 rounding, at every horizon, over many seeds
 * (test/support/gpu-env-lockstep.ts; the same check runs in Chromium in test/e2e/gpu-env-parity.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { EPISODE_OFFSET, EPISODE_WORDS, LAYOUT_CELL_ARRAYS, LAYOUT_OFFSET } from '../../src/gpu/gridhouse-step.ts';
import { VITE_SHADER_FILES, VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { wgslConsts } from '../support/env-parity.ts';
import { runLockstep } from '../support/gpu-env-lockstep.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

describe('gridhouse-step record layouts', () => {
  it('the WGSL constants are the TypeScript tables', () => {
    // The step lives in a module (the kernels hold only what they use of it): read the module itself.
    const consts = wgslConsts(VITE_SHADER_FILES['lib/gridhouse.wgsl']);
    expect(consts.get('LAYOUT_CELL_ARRAYS')).toBe(LAYOUT_CELL_ARRAYS);
    expect(consts.get('EPISODE_WORDS')).toBe(EPISODE_WORDS);
    for (const [name, offset] of Object.entries(LAYOUT_OFFSET)) expect(consts.get(`L_${name}`), `L_${name}`).toBe(offset);
    for (const [name, offset] of Object.entries(EPISODE_OFFSET)) expect(consts.get(`E_${name}`), `E_${name}`).toBe(offset);
  });
});

describe('gridhouse-step kernel on WebGPU (Dawn) against the TypeScript GridHouse', () => {
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
    const run = await runLockstep(device, VITE_SHADERS, { env: 'gridhouse', horizon, milestoneDropout, groups: 12, groupSize: 3, seed: 1000 + horizon.length });
    if (run.mismatch) expect.fail(run.mismatch);
    // The comparison covered what it claims to: reported milestones, successes, and dropped ones.
    expect(run.milestones).toBeGreaterThan(0);
    expect(run.successes).toBeGreaterThan(0);
    if (milestoneDropout > 0) expect(run.dropped).toBeGreaterThan(0);
    else expect(run.dropped).toBe(0);
  });
});
