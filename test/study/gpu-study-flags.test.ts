/**
 * `npm run study -- --backend webgpu`: a GPU study writes into <outDir>/webgpu/, trains in the command's
 * process (no --workers, --shard, --estimator or merge), and its runs' configs and shared settings say
 * webgpu, so its stored runs never pass for the pre-registered (wasm) study's.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/flags.ts';
import { parseStudyFlags } from '../../cli/study-flags.ts';
import { planRuns, runConfig, runKey, runSpec, stepBudget } from '../../src/study/matrix.ts';
import { PROFILES } from '../../src/study/profile.ts';
import { sharedHyperparameters } from '../../src/study/report.ts';

describe('the GPU study', () => {
  it('writes beside the wasm study, never over it, with one process', () => {
    const gpu = parseStudyFlags(['--backend', 'webgpu', '--quick'])!;
    expect(gpu.backend).toBe('webgpu');
    expect(gpu.profile.outDir).toBe(`${PROFILES.quick.outDir}/webgpu`);
    expect(gpu.workers).toBe(1);
    expect(parseStudyFlags(['--backend', 'webgpu'])!.profile.outDir).toBe('docs/results/webgpu');
    const wasm = parseStudyFlags(['--quick'])!;
    expect(wasm.backend).toBe('wasm');
    expect(wasm.profile.outDir).toBe(PROFILES.quick.outDir);
    for (const args of [['--workers', '2'], ['--shard', '1/2'], ['--estimator', 'x.js'], ['merge']]) {
      const argv = args[0] === 'merge' ? ['merge', '--backend', 'webgpu'] : ['--backend', 'webgpu', ...args];
      expect(() => parseStudyFlags(argv), argv.join(' ')).toThrow(UsageError);
    }
    expect(() => parseStudyFlags(['--backend', 'cpu'])).toThrow(/--backend must be one of wasm, webgpu; got "cpu"/);
  });

  it('its runs are configured on webgpu and are not taken for the wasm study’s', () => {
    const { budget } = PROFILES.quick;
    const spec = runSpec('gridhouse', 'short', 'grpo', 101);
    const gpuConfig = runConfig(spec, budget, 'webgpu');
    expect(gpuConfig.backend).toBe('webgpu');
    expect({ ...gpuConfig, backend: 'wasm' }).toEqual(runConfig(spec, budget));
    const stored = new Map([[runKey(spec), { key: runKey(spec), config: gpuConfig, envStepBudget: stepBudget(spec, budget), result: null, commit: 'c' }]]);
    expect(planRuns([spec], stored, budget, 'webgpu').done).toHaveLength(1);
    expect(planRuns([spec], stored, budget).todo).toEqual([spec]);
    expect(sharedHyperparameters(budget, 'webgpu').backend).toBe('webgpu');
    expect(sharedHyperparameters(budget).backend).toBe('wasm');
  });
});
