/**
 * The page defaults' prior shipped precomputed (src/page/shipped-prior.ts): its bytes are the ones the
 * worker computes on wasm, recomputed here under the worker's training flags, and it is served for its
 * exact key alone (every other seed, setting or backend computes its prior as before).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { initBackend } from '../../src/backend/node-webgpu.ts';
import { applyTrainingFlags } from '../../src/backend/webgpu-interop.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import {
  decodeShippedPrior,
  encodeShippedPrior,
  SHIPPED_PRIOR_BACKEND,
  shippedPrior,
  shippedPriorConfig,
  shippedPriorKey,
  type ShippedPriorFile,
} from '../../src/page/shipped-prior.ts';
import { entryConfig } from '../../src/race/entries.ts';
import { priorKey, trainSftPrior } from '../../src/trainer/sft-prior.ts';

const file = JSON.parse(readFileSync(new URL('../../src/page/page-prior.json', import.meta.url), 'utf8')) as ShippedPriorFile;
const bytes = (weights: Float32Array[]) => Buffer.concat(weights.map((w) => Buffer.from(w.buffer, w.byteOffset, w.byteLength)));

describe('the shipped prior', () => {
  beforeAll(async () => {
    expect((await initBackend(SHIPPED_PRIOR_BACKEND, { strict: true })).backend).toBe('wasm');
    applyTrainingFlags('wasm');
  });

  it("carries the page defaults' key on wasm (regenerate with `npm run prior:ship` when they change)", () => {
    expect(file.key).toBe(shippedPriorKey());
    expect(priorKey(shippedPriorConfig())).toBe(file.key); // the worker's key on the wasm backend
  });

  it('holds the very bytes the worker computes on wasm', async () => {
    const computed = await trainSftPrior(shippedPriorConfig());
    expect(computed.map((w) => w.length)).toEqual(file.lengths);
    expect(bytes(decodeShippedPrior(file)).equals(bytes(computed))).toBe(true);
  }, 120_000);

  it('is served for its key alone', async () => {
    const config = entryConfig('beacon', { ...PAGE_DEFAULT_CONFIG, backend: 'wasm' });
    const served = await shippedPrior(config, 'wasm');
    expect(served && bytes(served).equals(bytes(decodeShippedPrior(file)))).toBe(true);
    expect(shippedPrior(config, 'webgpu')).toBeNull();
    expect(shippedPrior(config, 'cpu')).toBeNull();
    expect(shippedPrior({ ...config, seed: config.seed + 1 }, 'wasm')).toBeNull();
    expect(shippedPrior({ ...config, horizon: 'short' }, 'wasm')).toBeNull();
    expect(shippedPrior({ ...config, hiddenSize: 32 }, 'wasm')).toBeNull();
    expect(shippedPrior({ ...config, sftEpisodes: 12 }, 'wasm')).toBeNull();
    expect(shippedPrior({ ...config, sftLearningRate: config.sftLearningRate / 2 }, 'wasm')).toBeNull();
  });

  it('encodes and decodes float32 bytes exactly, and refuses a file of the wrong size', () => {
    const weights = [Float32Array.of(1.5, -0, Number.MIN_VALUE, 3.4e38), Float32Array.of(Math.PI)];
    const back = decodeShippedPrior(encodeShippedPrior('k', weights));
    expect(bytes(back).equals(bytes(weights))).toBe(true);
    expect(() => decodeShippedPrior({ ...encodeShippedPrior('k', weights), lengths: [4, 2] })).toThrow(/20 bytes for 6 floats/);
  });
});
