/**
 * bench:device bundled for a machine that reaches no registry (scripts/device-bundle.ts): built into a
 * folder with no `node_modules` above it, the bundles load and run there, tfjs's wasm binaries and
 * gradients and Dawn's addon travel with them, and the bundled bench:device still refuses a software
 * adapter (docs/performance-device.md).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A child's stderr for a failure message, without its stack frames: vitest reads frames in a message as
 * the error's own and fails on the bundle's embedded source maps.
 */
const why = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .slice(-8)
    .join('\n');

describe('bench:device bundle', () => {
  // Outside the repo, so that nothing resolves from its node_modules.
  let root = '';
  let bundle = '';
  const node = (script: string, args: string[], timeout = 60_000) =>
    spawnSync(process.execPath, [join(bundle, 'bench', script), ...args], { cwd: root, encoding: 'utf8', timeout, env: process.env });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'device-bundle-'));
    bundle = join(root, '.device');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/device-bundle.ts', '--out', bundle], { stdio: 'pipe' });
    // The bundles read the kernels from ../../shaders/, the repo's own folder that travels with it.
    cpSync('shaders', join(root, 'shaders'), { recursive: true });
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('holds each part, the wasm binaries beside them and Dawn where `import "webgpu"` finds it', () => {
    for (const file of ['device.mjs', 'gpu.mjs', 'train.mjs', 'tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm'])
      expect(existsSync(join(bundle, 'bench', file)), file).toBe(true);
    expect(existsSync(join(bundle, 'node_modules/webgpu/dist/linux-x64/dawn.node'))).toBe(true);
    expect(existsSync(join(root, 'node_modules'))).toBe(false);
  });

  it('trains on wasm from the bundle alone: tfjs, its gradients and its wasm binary travel inside', () => {
    const run = node('train.mjs', ['--json', '--backend', 'wasm', '--methods', 'beacon', '--horizon', 'tiny', '--iters', '3', '--skipUpdateRate']);
    expect(run.status, why(run.stderr)).toBe(0);
    const report = JSON.parse(run.stdout) as { backend: string; iterations: { 'iteration ms': string; 'steps/iter': string }[] };
    expect(report.backend).toBe('wasm');
    expect(Number(report.iterations[0]!['iteration ms'])).toBeGreaterThan(0);
    expect(Number(report.iterations[0]!['steps/iter'])).toBeGreaterThan(0);
  });

  it('refuses a software adapter from the bundle, naming it, with exit status 2', () => {
    expect(process.env.VK_ICD_FILENAMES, 'SwiftShader from Chromium is needed: apt-get install -y chromium').toBeTruthy();
    const run = node('device.mjs', ['--budget', '60', '--out', join(root, 'out')]);
    expect(run.status, why(run.stderr)).toBe(2);
    expect(run.stderr).toMatch(/refused: SwiftShader[^\n]* is a software adapter/);
    expect(existsSync(join(root, 'out'))).toBe(false);
  });
});
