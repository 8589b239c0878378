/**
 * The probe's verdict remembered per adapter: a second visit on the same adapter and build reads the
 * first visit's outcome; another adapter, another build or other settings read nothing; what is stored
 * but is not an outcome reads as nothing; a storage that refuses is reported, not thrown.
 */
import { describe, expect, it } from 'vitest';
import { chooseBackend } from '../../src/page/backend-choice.ts';
import {
  adapterIdentity,
  anyVerdictChose,
  readVerdict,
  verdictKey,
  writeVerdict,
  type ListedStorage,
  type VerdictStorage,
} from '../../src/page/backend-verdict.ts';

function mapStorage(): ListedStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
  };
}

const swiftshader = adapterIdentity({ vendor: 'google', architecture: 'swiftshader', device: '', description: '' });
const nvidia = adapterIdentity({ vendor: 'nvidia', architecture: 'ampere', device: '0x2204', description: '' });
const NOW = Date.UTC(2026, 11, 2);
const DAY = 24 * 3600 * 1000;
const outcome = { ...chooseBackend({ backend: 'wasm', ms: 900 }, { backend: 'webgpu', ms: 30, adapterName: 'nvidia ampere' }), measuredAt: NOW };
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0';

describe('backend verdict store', () => {
  it('a second visit on the same adapter and build reads the first visit’s outcome', () => {
    const storage = mapStorage();
    const key = verdictKey(nvidia, CHROME, 'index-abc.js', '["gridhouse",64,4,8]');
    expect(readVerdict(storage, key, NOW)).toBeNull();
    expect(writeVerdict(storage, key, outcome)).toBe(true);
    expect(readVerdict(storage, verdictKey(nvidia, CHROME, 'index-abc.js', '["gridhouse",64,4,8]'), NOW + DAY)).toEqual(outcome);
  });

  it('another adapter (its description too), browser version, build or settings shape does not see it', () => {
    const storage = mapStorage();
    writeVerdict(storage, verdictKey(nvidia, CHROME, 'b1', 's'), outcome);
    expect(readVerdict(storage, verdictKey(nvidia, CHROME, 'b1', 's'), NOW)).toEqual(outcome);
    expect(readVerdict(storage, verdictKey(swiftshader, CHROME, 'b1', 's'), NOW)).toBeNull();
    expect(readVerdict(storage, verdictKey({ ...nvidia, description: 'NVIDIA GeForce RTX 3090 (driver 560)' }, CHROME, 'b1', 's'), NOW)).toBeNull();
    expect(readVerdict(storage, verdictKey(nvidia, CHROME.replace('156', '157'), 'b1', 's'), NOW)).toBeNull();
    expect(readVerdict(storage, verdictKey(nvidia, CHROME, 'b2', 's'), NOW)).toBeNull();
    expect(readVerdict(storage, verdictKey(nvidia, CHROME, 'b1', 't'), NOW)).toBeNull();
    // Fields are kept apart: "ab"+"c" is not "a"+"bc".
    expect(verdictKey(adapterIdentity({ vendor: 'ab', architecture: 'c' }), CHROME, 'b', 's')).not.toBe(
      verdictKey(adapterIdentity({ vendor: 'a', architecture: 'bc' }), CHROME, 'b', 's'),
    );
  });

  it('a verdict is measured again after 30 days, and one that does not say when it was measured reads as absent', () => {
    const storage = mapStorage();
    const key = verdictKey(nvidia, CHROME, 'b', 's');
    writeVerdict(storage, key, outcome);
    expect(readVerdict(storage, key, NOW + 30 * DAY)).toEqual(outcome);
    expect(readVerdict(storage, key, NOW + 30 * DAY + 1)).toBeNull();
    const { measuredAt: _, ...undated } = outcome;
    writeVerdict(storage, key, undated);
    expect(readVerdict(storage, key, NOW)).toBeNull();
  });

  it('what is stored but is not an outcome reads as absent', () => {
    const storage = mapStorage();
    const key = verdictKey(nvidia, CHROME, 'b', 's');
    for (const bad of [
      'not json',
      '{}',
      JSON.stringify({ ...outcome, chosen: 'cpu' }),
      JSON.stringify({ ...outcome, wasmMs: -1 }),
      JSON.stringify({ ...outcome, reason: 3 }),
      'null',
    ]) {
      storage.map.set(key, bad);
      expect(readVerdict(storage, key, NOW), bad).toBeNull();
    }
  });

  it('says whether any fresh verdict, of any adapter, build or settings, chose a backend', () => {
    const storage = mapStorage();
    storage.setItem('another-app:key', JSON.stringify(outcome));
    expect(anyVerdictChose(storage, 'webgpu', NOW)).toBe(false);
    writeVerdict(storage, verdictKey(swiftshader, CHROME, 'b1', 's'), {
      ...chooseBackend({ backend: 'wasm', ms: 30 }, { backend: 'webgpu', ms: 900 }),
      measuredAt: NOW,
    });
    expect(anyVerdictChose(storage, 'webgpu', NOW)).toBe(false);
    expect(anyVerdictChose(storage, 'wasm', NOW)).toBe(true);
    writeVerdict(storage, verdictKey(nvidia, CHROME, 'b0', 't'), outcome); // chose webgpu
    expect(outcome.chosen).toBe('webgpu');
    expect(anyVerdictChose(storage, 'webgpu', NOW)).toBe(true);
    expect(anyVerdictChose(storage, 'webgpu', NOW + 31 * DAY)).toBe(false); // too old to hold
    const throwing = {
      ...storage,
      key: () => {
        throw new Error('SecurityError');
      },
    };
    expect(anyVerdictChose(throwing, 'webgpu', NOW)).toBe(false);
  });

  it('a storage that throws (blocked or full) reads as absent and reports a failed write', () => {
    const blocked: VerdictStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readVerdict(blocked, 'k')).toBeNull();
    expect(writeVerdict(blocked, 'k', outcome)).toBe(false);
  });
});
