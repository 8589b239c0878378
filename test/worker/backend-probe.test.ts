/**
 * The backend probe measures the visitor's race: its workload is the race's own (the object the
 * training worker builds: environment, horizon, batch, width, epochs, minibatches) under the flags
 * training sets, with one warm-up iteration before the timed ones, the page told when the warm-up ends
 * (its deadline covers the timed part alone), and the median of the timed iterations reported.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainingFlags } from '../../src/backend/training-flags.ts';
import type { RaceConfig } from '../../src/config.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { raceEntry } from '../../src/race/entries.ts';
import { PROBE_TIMED_ITERATIONS, PROBE_WARMUP_ITERATIONS } from '../../src/race/probe-iterations.ts';
import { seedConfigs } from '../../src/race/seeds.ts';
import { raceWorkload, trainerConfig } from '../../src/race/workload.ts';
import { probeBackend, probeWorkload } from '../../src/worker/backend-probe.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const race = (over: Partial<RaceConfig> = {}): RaceConfig => ({
  ...PAGE_DEFAULT_CONFIG,
  env: 'gridhouse',
  horizon: 'short',
  tasksPerIteration: 4,
  groupSize: 4,
  hiddenSize: 16,
  ...over,
});

describe('backend probe', () => {
  it("runs the race's workload and flags: the object the training worker builds, only its iteration count differs", () => {
    for (const method of ['grpo', 'beacon', 'ppo'] as const)
      for (const backend of ['webgpu', 'wasm'] as const) {
        const config = race({ epochs: 3, minibatches: 2 });
        const probe = probeWorkload(config, method, backend);
        // What the worker's loop trains for the first seed (training-loop.ts builds it with trainerConfig).
        const trained = raceWorkload(seedConfigs(config, 1)[0], raceEntry(method), backend);
        expect(trained.config).toEqual(trainerConfig(seedConfigs(config, 1)[0], raceEntry(method)));
        expect(probe.flags).toEqual(trained.flags);
        const differing = Object.keys(trained.config).filter(
          (k) => probe.config[k as keyof typeof probe.config] !== trained.config[k as keyof typeof trained.config],
        );
        expect(differing.filter((k) => k !== 'iters')).toEqual([]);
        expect(probe.config).toMatchObject({
          env: 'gridhouse',
          horizon: 'short',
          tasksPerIteration: 4,
          groupSize: 4,
          hiddenSize: 16,
          epochs: 3,
          minibatches: 2,
        });
        expect(probe.config.iters).toBe(PROBE_WARMUP_ITERATIONS + PROBE_TIMED_ITERATIONS);
      }
    // On webgpu, training turns tfjs's CPU forwarding off, and so does the probe.
    expect(probeWorkload(race(), 'grpo', 'webgpu').flags).toEqual({ WEBGPU_CPU_FORWARD: false });
    expect(trainingFlags('wasm')).toEqual({});
  });

  it('warms up outside the timed part, says when, and reports the median of the timed iterations', async () => {
    const events: string[] = [];
    // A clock that makes the timed iterations last 100, 30 and 200 ms: the median is 100.
    const ticks = [0, 100, 1000, 1030, 2000, 2200];
    const result = await probeBackend(
      { config: race({ horizon: 'tiny', tasksPerIteration: 2, groupSize: 2, hiddenSize: 8, sftEpisodes: 0 }), method: 'grpo', backend: 'wasm' },
      async () => ({ backend: 'cpu' }),
      () => {
        events.push('engine');
        return cpuAdvantageEngine;
      },
      () => events.push('warm'),
      () => {
        events.push('clock');
        return ticks.shift()!;
      },
    );
    expect(result).toEqual({ backend: 'wasm', ms: 100 });
    // The warm-up ran before `warm`; every clock reading (the timed part) after it.
    expect(events).toEqual(['engine', 'warm', ...Array(2 * PROBE_TIMED_ITERATIONS).fill('clock')]);
  }, 60_000);

  it('with seeds K trains K seeds side by side (an engine each) and times an iteration of all of them', async () => {
    let engines = 0;
    const small = race({ horizon: 'tiny', tasksPerIteration: 2, groupSize: 2, hiddenSize: 8, sftEpisodes: 0 });
    const result = await probeBackend(
      { config: small, method: 'grpo', backend: 'wasm', seeds: 3 },
      async () => ({ backend: 'cpu' }),
      () => {
        engines++;
        return cpuAdvantageEngine;
      },
    );
    expect(engines).toBe(3);
    expect(result.backend).toBe('wasm');
    expect(result.ms).toBeGreaterThan(0);
  }, 60_000);

  it('a backend that cannot start reports why, with no timing', async () => {
    const result = await probeBackend(
      { config: race(), method: 'grpo', backend: 'webgpu' },
      () => Promise.reject(new Error('no WebGPU adapter (requestAdapter returned null)')),
      () => cpuAdvantageEngine,
    );
    expect(result).toEqual({ backend: 'webgpu', ms: null, error: 'no WebGPU adapter (requestAdapter returned null)' });
  });
});
