/**
 * The wasm thread plan (threaded build only where it helps and starts) and the bound on a wasm start:
 * a start that stalls is dropped to the single-threaded build, and when that stalls too another backend
 * is chosen, each time with the reason in the report.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { selectBackend, type BackendHost } from '../../src/backend/select.ts';
import { GECKO_THREADS_NOTE, isGecko, planWasmThreads } from '../../src/backend/wasm-threads.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
const CHROMIUM = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/605.1.15';

describe('planWasmThreads', () => {
  it('tells Gecko from browsers that only say "like Gecko"', () => {
    expect(isGecko(FIREFOX)).toBe(true);
    expect(isGecko(CHROMIUM)).toBe(false);
    expect(isGecko(SAFARI)).toBe(false);
  });

  it('threads in an isolated Chromium with more than one thread to give', () => {
    expect(planWasmThreads(4, { isolated: true, userAgent: CHROMIUM, cores: 8 })).toEqual({ threaded: true, threads: 4 });
    expect(planWasmThreads(null, { isolated: true, userAgent: CHROMIUM, cores: 8 })).toEqual({ threaded: true, threads: 8 });
  });

  it('loads the single-threaded build, saying nothing, where one thread is all there is or no isolation', () => {
    expect(planWasmThreads(1, { isolated: true, userAgent: CHROMIUM, cores: 2 })).toEqual({ threaded: false, threads: 1 });
    expect(planWasmThreads(1, { isolated: true, userAgent: FIREFOX, cores: 2 })).toEqual({ threaded: false, threads: 1 });
    expect(planWasmThreads(4, { isolated: false, userAgent: CHROMIUM, cores: 8 })).toEqual({ threaded: false, threads: 1 });
  });

  it('gives up threads in Firefox, with the reason, when threads were wanted', () => {
    expect(planWasmThreads(4, { isolated: true, userAgent: FIREFOX, cores: 8 })).toEqual({ threaded: false, threads: 1, note: GECKO_THREADS_NOTE });
  });
});

/** The real wasm factory, restored after each test. */
const realWasmFactory = tf.findBackendFactory('wasm');
const never = () => new Promise<never>(() => {});

function host(onDrop: () => boolean): BackendHost {
  return {
    gpu: () => 'no WebGPU in this test',
    wasmModule: () => import('@tensorflow/tfjs-backend-wasm'),
    configureWasm: () => undefined,
    dropWasmThreads: onDrop,
  };
}

describe('a wasm start under a bound', () => {
  afterEach(() => {
    tf.removeBackend('wasm');
    tf.registerBackend('wasm', realWasmFactory, 2);
  });

  it('a stalled threaded start moves to the single-threaded build and says why', async () => {
    tf.removeBackend('wasm');
    tf.registerBackend('wasm', never, 2);
    let drops = 0;
    // Dropping threads swaps in a start that finishes (the real factory, single-threaded in Node).
    const dropping = host(() => {
      drops++;
      tf.removeBackend('wasm');
      tf.registerBackend('wasm', realWasmFactory, 2);
      return true;
    });
    const report = await selectBackend('wasm', dropping, { wasmStartBoundMs: 300 });
    expect(drops).toBe(1);
    expect(report.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(report.fallbackReason).toBe('wasm runs on one thread: its threaded start did not finish within 0.3 s');
  });

  it('a start that stalls with nothing left to drop falls to cpu with the reason', async () => {
    tf.removeBackend('wasm');
    tf.registerBackend('wasm', never, 2);
    const report = await selectBackend(
      'wasm',
      host(() => false),
      { wasmStartBoundMs: 300 },
    );
    expect(report.backend).toBe('cpu');
    expect(report.fallbackReason).toBe('wasm: its start did not finish within 0.3 s');
  });
});
