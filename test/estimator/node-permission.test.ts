/**
 * The command line's estimator runs under Node's permission model where Node has one (Node 20 and 21:
 * `--experimental-permission`; Node 22.13 and 23.5 on: `--permission`): its worker thread may not write
 * or read files, start a child process or start a worker (which could run without these limits). On a
 * Node without the model, the test asserts the other side: the estimator runs with the user's rights.
 */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimatorWorkerExecArgv, nodeEstimatorSandbox, nodePermissionFlag } from '../../cli/estimator-sandbox.ts';
import type { AdvantageBatch } from '../../src/advantages/types.ts';
import { EstimatorError } from '../../src/estimator/failure.ts';

const batch: AdvantageBatch = {
  groupOffsets: Int32Array.from([0, 1]),
  runOffsets: Int32Array.from([0, 2]),
  milestones: Uint8Array.from([0, 1]),
  rewards: Float64Array.from([1]),
  stateKeys: Uint32Array.from([1, 2]),
};

/** Tries each right and throws what it saw, so that the host reads it in the failure's message. */
const probe = (target: string) => `export default async function estimate() {
  const seen = [];
  const fs = await import('node:fs');
  try { fs.writeFileSync(${JSON.stringify(target)}, 'x'); seen.push('write:done'); } catch (e) { seen.push('write:' + e.code); }
  try { fs.readFileSync(${JSON.stringify(import.meta.filename)}); seen.push('read:done'); } catch (e) { seen.push('read:' + e.code); }
  const cp = await import('node:child_process');
  try { cp.execFileSync(process.execPath, ['-e', '0']); seen.push('child:done'); } catch (e) { seen.push('child:' + e.code); }
  const { Worker } = await import('node:worker_threads');
  try { const w = new Worker('0', { eval: true }); await w.terminate(); seen.push('worker:done'); } catch (e) { seen.push('worker:' + e.code); }
  throw new Error(seen.join(' '));
}`;

async function rightsSeen(target: string): Promise<string> {
  const sandbox = nodeEstimatorSandbox(probe(target));
  try {
    await sandbox.estimate(batch, {});
  } catch (e) {
    expect(e).toBeInstanceOf(EstimatorError);
    return (e as EstimatorError).message;
  } finally {
    sandbox.dispose();
  }
  throw new Error('the probe estimator did not report');
}

describe("the command line's estimator under Node's permission model", () => {
  it('picks the flag this Node knows', () => {
    expect(nodePermissionFlag(new Set(['--permission', '--experimental-permission']))).toBe('--permission');
    expect(nodePermissionFlag(new Set(['--experimental-permission']))).toBe('--experimental-permission');
    expect(nodePermissionFlag(new Set())).toBeNull();
    expect(estimatorWorkerExecArgv(null)).toEqual([]);
    // No --allow-* flag: nothing is granted.
    expect(estimatorWorkerExecArgv('--permission').filter((f) => f.startsWith('--allow'))).toEqual([]);
  });

  it(`writes, reads, starts a process or a worker only where Node (here ${process.version}) has no permission model`, async () => {
    const target = join(tmpdir(), `beacon-live-estimator-write-${process.pid}`);
    rmSync(target, { force: true });
    const seen = await rightsSeen(target);
    const written = existsSync(target);
    rmSync(target, { force: true });
    if (nodePermissionFlag() !== null) {
      expect(seen).toMatch(/write:ERR_ACCESS_DENIED read:ERR_ACCESS_DENIED child:ERR_ACCESS_DENIED worker:ERR_ACCESS_DENIED/);
      expect(written).toBe(false);
    } else {
      // A Node older than 20 has no permission model: the estimator runs with the user's rights (docs/estimator.md).
      expect(seen).toMatch(/write:done read:done child:done worker:done/);
      expect(written).toBe(true);
    }
  });

  it('still reports a throw with its line under the model', async () => {
    const sandbox = nodeEstimatorSandbox('export default function estimate() {\n  return null.x;\n}');
    await expect(sandbox.estimate(batch, {})).rejects.toThrow(/at line 2: TypeError/);
    sandbox.dispose();
  });
});
