/**
 * The probe's verdict, remembered per WebGPU adapter: `auto` measures wasm against the adapter once
 * (backend-probe.ts, backend-choice.ts) and keeps the outcome in localStorage, keyed by what identifies
 * the adapter (vendor, architecture, device, description), the browser's version (another version may
 * bring another WebGPU implementation), the build (another build may run other kernels) and the
 * settings that set the probe's cost. A second visit starts on the winner at once; a verdict older than
 * 30 days reads as absent, so it is measured again (drivers change under the same names).
 *
 * Pure apart from the `VerdictStorage` it is handed (localStorage in the page, a Map in tests), so it is
 * tested in Node. A stored value that is not a well-formed outcome reads as absent, never as a verdict.
 */
import type { ProbeOutcome } from './backend-choice.ts';

/** What identifies an adapter: the fields of `GPUAdapterInfo` that name the hardware and its driver. */
export interface AdapterIdentity {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
}

/** The part of the Web Storage API used here. */
export interface VerdictStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const PREFIX = 'beacon-live:backend-verdict:';

/** A verdict older than this is measured again. */
export const VERDICT_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** The adapter's identity from its `GPUAdapterInfo` (absent fields read as empty). */
export function adapterIdentity(info: Partial<AdapterIdentity> | undefined): AdapterIdentity {
  return { vendor: info?.vendor ?? '', architecture: info?.architecture ?? '', device: info?.device ?? '', description: info?.description ?? '' };
}

/**
 * The storage key of a verdict: adapter, browser version (the user agent string), build and the
 * probe's settings key, each part kept apart.
 */
export function verdictKey(adapter: AdapterIdentity, browser: string, build: string, settingsKey: string): string {
  return PREFIX + JSON.stringify([adapter.vendor, adapter.architecture, adapter.device, adapter.description, browser, build, settingsKey]);
}

/**
 * The remembered outcome at `key`, or null when none, when what is stored is not an outcome, or when
 * it was measured more than VERDICT_MAX_AGE_MS before `now` (or says not when).
 */
export function readVerdict(storage: VerdictStorage, key: string, now: number = Date.now()): ProbeOutcome | null {
  let text: string | null;
  try {
    text = storage.getItem(key);
  } catch {
    return null; // storage blocked (private mode, a sandboxed frame): measure again
  }
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!isOutcome(value) || value.measuredAt === undefined) return null;
    return now - value.measuredAt <= VERDICT_MAX_AGE_MS ? value : null;
  } catch {
    return null;
  }
}

/** A storage whose keys can be listed (localStorage). */
export interface ListedStorage extends VerdictStorage {
  readonly length: number;
  key(index: number): string | null;
}

/**
 * Whether any verdict in `storage` (any adapter, browser, build or settings) chose `backend` and still
 * holds at `now`. The page asks before it knows its adapter: where no verdict chose WebGPU, `auto` will
 * start on wasm, so the workers may ready wasm at once (src/ui/early-workers.ts).
 */
export function anyVerdictChose(storage: ListedStorage, backend: ProbeOutcome['chosen'], now: number = Date.now()): boolean {
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(PREFIX) && readVerdict(storage, key, now)?.chosen === backend) return true;
    }
  } catch {
    // Storage blocked: the page reads no verdict either, and `auto` starts on wasm.
  }
  return false;
}

/** Remembers `outcome` at `key`; false when the storage refused it (full or blocked). */
export function writeVerdict(storage: VerdictStorage, key: string, outcome: ProbeOutcome): boolean {
  try {
    storage.setItem(key, JSON.stringify(outcome));
    return true;
  } catch {
    return false;
  }
}

const msOrNull = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x) && x >= 0);

function isOutcome(v: unknown): v is ProbeOutcome {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    (o.chosen === 'webgpu' || o.chosen === 'wasm') &&
    msOrNull(o.wasmMs) &&
    msOrNull(o.webgpuMs) &&
    typeof o.software === 'boolean' &&
    typeof o.reason === 'string' &&
    (o.adapterName === undefined || typeof o.adapterName === 'string') &&
    (o.webgpuStoppedAfterMs === undefined || (typeof o.webgpuStoppedAfterMs === 'number' && Number.isFinite(o.webgpuStoppedAfterMs))) &&
    (o.webgpuStoppedIn === undefined || o.webgpuStoppedIn === 'warm-up' || o.webgpuStoppedIn === 'timed') &&
    (o.measured === undefined || typeof o.measured === 'string') &&
    (o.measuredAt === undefined || (typeof o.measuredAt === 'number' && Number.isFinite(o.measuredAt)))
  );
}
