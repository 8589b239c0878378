/**
 * The page defaults' SFT prior, shipped precomputed (docs/performance.md, "The first point"). At the page
 * defaults the race's first worker would otherwise train the prior before any panel may build its
 * trainer; with the shipped weights every worker starts at once. The file holds the very bytes the
 * worker computes on wasm (test/page/shipped-prior.test.ts recomputes them in Node,
 * test/e2e/shipped-prior.test.ts in the page's worker), under the prior's full key (prior-key.ts): any
 * other setting, seed or backend computes its prior as before.
 *
 * Regenerate it with `npm run prior:ship` when the page defaults or the prior's training change (the
 * Node test fails until then).
 */
import type { RaceConfig, TrainConfig } from '../config.ts';
import { DEFAULT_RACE, type Method } from '../methods/registry.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import { entryConfig } from '../race/entries.ts';
import { priorKeyOn } from '../trainer/prior-key.ts';
import { PAGE_DEFAULT_CONFIG } from './page-defaults.ts';

/** The shipped file: the prior's key, each weight tensor's length, and their float32 bytes (little-endian) in base64. */
export interface ShippedPriorFile {
  key: string;
  lengths: number[];
  base64: string;
}

/** The backend whose arithmetic the shipped prior is (the race starts there under `auto` with no remembered verdict). */
export const SHIPPED_PRIOR_BACKEND = 'wasm';

/** The trainer config whose prior is shipped: the page defaults' first entry (every entry shares the prior). */
export function shippedPriorConfig(shared: RaceConfig = PAGE_DEFAULT_CONFIG): TrainConfig {
  return entryConfig(DEFAULT_RACE[0], { ...shared, backend: SHIPPED_PRIOR_BACKEND });
}

/** The key the shipped file must carry. */
export function shippedPriorKey(): string {
  return priorKeyOn(shippedPriorConfig(), SHIPPED_PRIOR_BACKEND);
}

/** The shipped file, loaded and decoded once per page (the page may start loading it early: prefetchShippedPrior). */
let loading: Promise<PolicyWeights | null> | null = null;

function loadShipped(): Promise<PolicyWeights | null> {
  loading ??= import('./page-prior.json').then(
    ({ default: file }) => (file.key === shippedPriorKey() ? decodeShippedPrior(file) : null),
    (e: unknown) => {
      loading = null; // a failed load (offline before the cache was filled) is tried again next time
      throw e;
    },
  );
  return loading;
}

/**
 * The shipped prior when `config`'s prior on `backend` is exactly it (the same key), else null at once
 * (nothing is loaded). Resolves to null if the file's key is not the one asked for (a stale file: the
 * prior is then computed, never served wrong). Each caller gets its own copy of the weights.
 */
export function shippedPrior(config: TrainConfig, backend: string): Promise<PolicyWeights | null> | null {
  if (priorKeyOn(config, backend) !== shippedPriorKey()) return null;
  return loadShipped().then((weights) => (weights ? weights.map((w) => w.slice()) : null));
}

/**
 * Starts loading the shipped prior when a race of `shared` (its first entry's `method`) may start from it:
 * its key matches on wasm and the race's backend is wasm or `auto` (which starts on wasm unless an earlier
 * visit chose WebGPU). The page calls it before it builds itself, so the file is there when the race starts.
 */
export function prefetchShippedPrior(shared: RaceConfig, method: Method): void {
  if (shared.backend !== 'auto' && shared.backend !== SHIPPED_PRIOR_BACKEND) return;
  void shippedPrior(entryConfig(method, { ...shared, backend: SHIPPED_PRIOR_BACKEND }), SHIPPED_PRIOR_BACKEND)?.catch(() => undefined);
}

export function encodeShippedPrior(key: string, weights: PolicyWeights): ShippedPriorFile {
  const bytes = new Uint8Array(4 * weights.reduce((n, w) => n + w.length, 0));
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const w of weights) for (const x of w) view.setFloat32(at, x, true), (at += 4);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return { key, lengths: weights.map((w) => w.length), base64: btoa(binary) };
}

export function decodeShippedPrior(file: ShippedPriorFile): PolicyWeights {
  const binary = atob(file.base64);
  const view = new DataView(Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer);
  const total = file.lengths.reduce((n, l) => n + l, 0);
  if (view.byteLength !== 4 * total) throw new RangeError(`shipped prior: ${view.byteLength} bytes for ${total} floats`);
  let at = 0;
  return file.lengths.map((length) => Float32Array.from({ length }, () => ((at += 4), view.getFloat32(at - 4, true))));
}
