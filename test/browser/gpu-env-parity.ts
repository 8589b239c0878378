/**
 * Runs in Chromium (served by the Vite dev server, test/e2e/gpu-env-parity.test.ts): the lockstep
 * parity check of the three WGSL environments (test/support/gpu-env-lockstep.ts) on the browser's own
 * WebGPU adapter, with the shaders as the page bundles them. The outcome lands on
 * `window.gpuEnvParity` for the test to read.
 */
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { runLockstep, type LockstepCase, type LockstepResult } from '../support/gpu-env-lockstep.ts';

type Outcome = { adapter: string; results: (LockstepResult & { case: LockstepCase })[] } | { error: string };

const CASES: LockstepCase[] = [
  { env: 'gridhouse', horizon: 'long', milestoneDropout: 0.4, groups: 6, groupSize: 2, seed: 31 },
  { env: 'gridhouse', horizon: 'short', milestoneDropout: 0, groups: 6, groupSize: 2, seed: 32 },
  { env: 'texthouse', horizon: 'long', milestoneDropout: 0.4, groups: 6, groupSize: 2, seed: 33 },
  { env: 'texthouse', horizon: 'medium', milestoneDropout: 0, groups: 6, groupSize: 2, seed: 34 },
  { env: 'shop', horizon: 'long', milestoneDropout: 0.4, groups: 6, groupSize: 2, seed: 35 },
  { env: 'shop', horizon: 'short', milestoneDropout: 0, groups: 6, groupSize: 2, seed: 36 },
  // Deliberate faults: the harness must report a mismatch on this adapter too.
  { env: 'shop', horizon: 'long', milestoneDropout: 0, groups: 4, groupSize: 2, seed: 37, sabotage: 'layout' },
  { env: 'shop', horizon: 'long', milestoneDropout: 0, groups: 4, groupSize: 2, seed: 38, sabotage: 'actions' },
];

async function main(): Promise<Outcome> {
  if (!('gpu' in navigator)) return { error: 'this browser exposes no WebGPU API (navigator.gpu)' };
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return { error: 'no WebGPU adapter: start Chromium with --enable-unsafe-webgpu' };
  const device = await adapter.requestDevice();
  const results: (LockstepResult & { case: LockstepCase })[] = [];
  for (const c of CASES) results.push({ case: c, ...(await runLockstep(device, VITE_SHADERS, c)) });
  device.destroy();
  const info = (adapter as GPUAdapter & { info?: { vendor?: string; architecture?: string; description?: string } }).info;
  return { adapter: [info?.vendor, info?.architecture, info?.description].filter(Boolean).join(' ') || 'unknown adapter', results };
}

(window as unknown as { gpuEnvParity?: Outcome }).gpuEnvParity = undefined;
main().then(
  (outcome) => ((window as unknown as { gpuEnvParity?: Outcome }).gpuEnvParity = outcome),
  (e: unknown) => ((window as unknown as { gpuEnvParity?: Outcome }).gpuEnvParity = { error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) }),
);
