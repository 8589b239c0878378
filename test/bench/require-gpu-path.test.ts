/**
 * `--require-gpu-path` (bench/throughput.ts): a webgpu iteration that falls back from the GPU path makes
 * the bench exit with status 3 and name the phase and the reason. The fallback is forced for real: the
 * fused update's limits check is armed to refuse the next batch (src/gpu/fault-injection.ts
 * `updateRefusal`) in the bench's own process, so the trainer takes the tfjs ops as it would for a batch
 * over the adapter's limits, and the record says so.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GPU_PATH_EXIT } from '../../bench/throughput.ts';
import { ROOT } from '../../scripts/cli.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A bench with `fault` armed in its process (test/support/bench-with-fault.ts). */
function benchWithFault(fault: string, script: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'test/support/bench-with-fault.ts', fault, script, ...args],
      { cwd: ROOT, timeout: 240_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

const TINY = ['--backend', 'webgpu', '--methods', 'beacon', '--horizon', 'tiny', '--sftEpisodes', '0', '--tasksPerIteration', '2', '--groupSize', '2'];

describe('--require-gpu-path', () => {
  it('bench:train exits with status 3 naming the phase and the reason when the fused update refused a batch', { timeout: 300_000 }, async () => {
    expect(process.env.VK_ICD_FILENAMES, 'SwiftShader from Chromium is needed: apt-get install -y chromium').toBeTruthy();
    const run = await benchWithFault('updateRefusal', 'bench/train.ts', [...TINY, '--iters', '3', '--skipUpdateRate', '--json', '--require-gpu-path']);
    expect(run.code, run.stderr).toBe(GPU_PATH_EXIT);
    expect(run.stderr).toMatch(/--require-gpu-path: bench:train fell back from the GPU path:\n {2}beacon, iteration 1: update: a test hook refused the batch/);
    const report = JSON.parse(run.stdout) as {
      fallbacks: string[];
      iterations: Record<string, string>[];
      throughput: Record<string, { training: { n: number } }>;
    };
    expect(report.fallbacks).toEqual(['beacon, iteration 1: update: a test hook refused the batch (fault injection: updateRefusal)']);
    // The refused iteration took the ops; the next ones, asked again, the fused kernels.
    expect(report.iterations[0]!['path (rollout/update/metrics)']).toBe('gpu/ops/gpu, gpu/fused/gpu');
    expect(report.throughput.beacon!.training.n).toBe(1);
  });
});
