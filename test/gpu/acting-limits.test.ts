/**
 * One acting pass and limits that agree: every kernel that evaluates the policy (the whole-episode
 * rollouts, policy-logits, the update's forward, the critic's values) takes safeTanh and the weights'
 * layout from shaders/lib/acting.wgsl alone, and no kernel calls WGSL's built-in tanh; the kernels'
 * array limits, read out of the WGSL, are the settings' and the environments': the widest policy the
 * settings allow fits every acting and update kernel, every environment's candidates fit the rollout's
 * draw (a lane each) and the update, and the rollout's workgroup memory fits WebGPU's default 16 KiB.
 */
import { describe, expect, it } from 'vitest';
import { createEnv, ENV_NAMES } from '../../envs/index.ts';
import { HORIZONS } from '../../envs/types.ts';
import { CONFIG_FIELDS } from '../../src/config.ts';
import { EPISODE_ROLLOUT_WORKGROUP, MAX_CANDIDATES } from '../../src/gpu/episode-rollout.ts';
import { FUSED_PPO_MAX_ACTIONS, FUSED_PPO_MAX_HIDDEN } from '../../src/gpu/fused-ppo.ts';
import { POLICY_LOGITS_MAX_HIDDEN } from '../../src/gpu/policy-logits.ts';
import { VITE_SHADER_FILES, VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { wgslConsts } from '../support/env-parity.ts';

/** The kernels that evaluate the policy's (or the critic's) towers. */
const ACTING_KERNELS = ['gridhouse-rollout', 'texthouse-rollout', 'shop-rollout', 'policy-logits', 'ppo-forward', 'critic-values'] as const;
const ROLLOUT_KERNELS = ['gridhouse-rollout', 'texthouse-rollout', 'shop-rollout'] as const;

/** WebGPU's default maxComputeWorkgroupStorageSize: what every adapter offers. */
const DEFAULT_WORKGROUP_STORAGE = 16384;

/** A linked kernel's text without its comments. */
const code = (wgsl: string) => wgsl.replace(/\/\/[^\n]*/g, '');

/** Bytes of a linked kernel's workgroup variables (arrays of 32-bit words and 32-bit scalars), sized by its constants. */
function workgroupBytes(wgsl: string): number {
  const consts = wgslConsts(wgsl);
  let bytes = 0;
  for (const [, type] of code(wgsl).matchAll(/var<workgroup>\s+\w+\s*:\s*([^;]+);/g)) {
    const array = /^array<(?:f32|u32|i32|atomic<u32>|atomic<i32>),\s*(\w+)>$/.exec(type.trim());
    if (array) {
      const length = /^\d+$/.test(array[1]) ? Number(array[1]) : consts.get(array[1]);
      expect(length, `the length ${array[1]} of a workgroup array`).toBeDefined();
      bytes += 4 * length!;
    } else {
      expect(type.trim(), 'a workgroup scalar of 32 bits').toMatch(/^(?:f32|u32|i32|atomic<u32>|atomic<i32>)$/);
      bytes += 4;
    }
  }
  return bytes;
}

describe('one acting pass (shaders/lib/acting.wgsl)', () => {
  it('safeTanh and the weights’ layout are written once, in lib/acting.wgsl', () => {
    const definers = (pattern: RegExp) =>
      Object.entries(VITE_SHADER_FILES)
        .filter(([, text]) => pattern.test(code(text)))
        .map(([file]) => file);
    expect(definers(/fn safeTanh\(/)).toEqual(['lib/acting.wgsl']);
    expect(definers(/struct WeightOffsets/)).toEqual(['lib/acting.wgsl']);
    // The offsets computed in one function; the update's library asks it with its own params, from its seed's base.
    expect(definers(/let c2 = v2 \+ H \* H;|o\.c2 = o\.v2 \+ H \* H;/)).toEqual(['lib/acting.wgsl']);
    expect(code(VITE_SHADER_FILES['lib/ppo_batch.wgsl'])).toContain(
      'return policyWeightOffsets(params.weightBase, params.obsDim, params.actionDim, params.hiddenSize);',
    );
  });

  it.each(ACTING_KERNELS)('%s: links acting.wgsl’s safeTanh and calls no built-in tanh', (name) => {
    const linked = code(VITE_SHADERS[name]);
    expect(linked.match(/fn safeTanh\(/g)).toHaveLength(1);
    expect(linked).not.toMatch(/(?<![\w])tanh\(/);
  });

  it.each(['gridhouse-rollout', 'texthouse-rollout', 'shop-rollout', 'policy-logits'] as const)(
    '%s: each unit finished through acting.wgsl (products first, then the bias)',
    (name) => {
      const linked = code(VITE_SHADERS[name]);
      for (const fn of ['tanhUnit', 'linearUnit', 'score']) expect(linked, fn).toMatch(new RegExp(`fn ${fn}\\(`));
      // No sum starts from a bias: every unit's sum starts at 0.0.
      expect(linked).not.toMatch(/var z = weights\[/);
    },
  );
});

describe('the kernels’ limits are the settings’', () => {
  const hiddenMax = CONFIG_FIELDS.find((f) => f.key === 'hiddenSize')!.kind as { max: number };
  const acting = wgslConsts(VITE_SHADER_FILES['lib/acting.wgsl']);
  const sampling = wgslConsts(VITE_SHADER_FILES['lib/sampling.wgsl']);
  const update = wgslConsts(VITE_SHADER_FILES['lib/ppo_batch.wgsl']);

  it('the widest policy the settings allow fits the acting pass and the update', () => {
    expect(hiddenMax.max).toBe(512);
    expect(acting.get('MAX_HIDDEN')).toBe(hiddenMax.max);
    expect(POLICY_LOGITS_MAX_HIDDEN).toBe(hiddenMax.max);
    expect(update.get('MAX_HIDDEN')).toBe(hiddenMax.max);
    expect(FUSED_PPO_MAX_HIDDEN).toBe(hiddenMax.max);
  });

  it('the rollout’s tile holds the widest observation layer and at least one candidate row’s two layers', () => {
    const rollout = wgslConsts(VITE_SHADER_FILES['lib/rollout.wgsl']);
    const tile = rollout.get('TILE_FLOATS')!;
    expect(tile).toBeGreaterThanOrEqual(2 * hiddenMax.max);
    expect(rollout.get('CHUNK_ROWS')).toBeGreaterThanOrEqual(1);
    // A chunk of rows at the page's width (64) takes every candidate of a GridHouse step at once.
    expect(Math.min(rollout.get('CHUNK_ROWS')!, tile / 2 / 64)).toBeGreaterThanOrEqual(createEnv('gridhouse', { horizon: 'long', batchSize: 1 }).maxActions);
  });

  it('every environment’s candidates fit the rollout’s draw (a lane each) and the update, at every horizon', () => {
    expect(sampling.get('MAX_CANDIDATES')).toBe(MAX_CANDIDATES);
    // The rollout enters and scores a step's candidates a lane each: the workgroup has a lane for each.
    expect(MAX_CANDIDATES).toBeLessThanOrEqual(EPISODE_ROLLOUT_WORKGROUP);
    expect(update.get('MAX_ACTIONS')).toBe(FUSED_PPO_MAX_ACTIONS);
    for (const name of ENV_NAMES)
      for (const horizon of HORIZONS) {
        const env = createEnv(name, { horizon, batchSize: 1 });
        expect(env.maxActions, `${name} ${horizon}`).toBeLessThanOrEqual(MAX_CANDIDATES);
        expect(env.maxActions, `${name} ${horizon}`).toBeLessThanOrEqual(FUSED_PPO_MAX_ACTIONS);
      }
  });

  it.each(ROLLOUT_KERNELS)('%s: its workgroup memory fits WebGPU’s default 16 KiB', (name) => {
    const bytes = workgroupBytes(VITE_SHADERS[name]);
    expect(bytes).toBeGreaterThan(4 * 2048);
    expect(bytes).toBeLessThanOrEqual(DEFAULT_WORKGROUP_STORAGE);
  });
});
