/**
 * Race entries (src/race/entries.ts): a registry method or a named variant of one. The page races
 * them and the study runs them from the one table, so an entry's config is its method's config plus its
 * overrides, the study's variants stay exactly what they were, and every entry has its own colours.
 */
import { describe, expect, it } from 'vitest';
import { envEntry, ENV_NAMES } from '../../envs/index.ts';
import { ABLATIONS } from '../../src/config.ts';
import { METHOD_NAMES, methodSpec } from '../../src/methods/registry.ts';
import { describeOverrides, entryConfig, isRaceEntry, NAMED_VARIANTS, RACE_ENTRIES, RACE_ENTRY_NAMES, raceEntry } from '../../src/race/entries.ts';
import { methodConfig } from '../../src/page/method-configs.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { DETECTOR_VARIANTS } from '../../src/study/detector-variants.ts';
import { VARIANT_SPECS } from '../../src/study/variants.ts';

describe('race entries', () => {
  it('are the registry methods, then the named variants, then your own estimator, each with its method', () => {
    expect(RACE_ENTRY_NAMES).toEqual([...METHOD_NAMES, 'beaconReleased', 'beaconReleasedWebshop', 'ppoShaped', 'custom']);
    expect(raceEntry('custom')).toMatchObject({ method: 'custom', overrides: {}, label: 'Your estimator' });
    for (const m of METHOD_NAMES) expect(raceEntry(m)).toMatchObject({ method: m, overrides: {}, label: methodSpec(m).label, color: methodSpec(m).color });
    expect(raceEntry('beaconReleased').method).toBe('beacon');
    expect(isRaceEntry('beacon-released')).toBe(false);
    expect(isRaceEntry('gamma1')).toBe(false); // ablations are the study's, not the page's
    expect(() => raceEntry('nope')).toThrow(/race entry must be one of grpo, beacon.*beaconReleased.*; got "nope"/);
  });

  it("give an entry's panel its method's config from the shared one, then the entry's overrides", () => {
    const shared = { ...PAGE_DEFAULT_CONFIG, gamma: 0.5, lambda: 2, seed: 7, randomSegments: true };
    for (const e of RACE_ENTRIES)
      expect(methodConfig(e.name, shared)).toEqual({ ...methodSpec(e.method).configFor({ ...shared, method: e.method }), ...e.overrides });
    const released = methodConfig('beaconReleased', shared);
    expect(released).toMatchObject({
      method: 'beacon',
      variant: 'released',
      gamma: 0.9,
      lambda: 10,
      rMs: 10,
      normalize: 'mean',
      seed: 7,
      randomSegments: true,
    });
    // The plain method keeps the shared settings the variant overrides.
    expect(methodConfig('beacon', shared)).toMatchObject({ method: 'beacon', variant: 'paper', gamma: 0.5, lambda: 2, rMs: PAGE_DEFAULT_CONFIG.rMs });
    expect(methodConfig('ppoShaped', shared)).toEqual({ ...methodSpec('ppo').configFor({ ...shared, method: 'ppo' }), shapedRewards: true });
    expect(entryConfig('grpo', shared)).toEqual(methodSpec('grpo').configFor({ ...shared, method: 'grpo' }));
    // The shared config names no method: each entry's comes from the entry.
    expect('method' in PAGE_DEFAULT_CONFIG).toBe(false);
  });

  it("leave the study's variant table as it was: names, methods, overrides, labels", () => {
    expect(VARIANT_SPECS.map((v) => [v.name, v.method, v.overrides, v.ablation, v.label])).toEqual([
      ...METHOD_NAMES.map((m) => [m, m, {}, null, methodSpec(m).label]),
      ['beaconReleased', 'beacon', { variant: 'released', rMs: 10, normalize: 'mean', gamma: 0.9, lambda: 10 }, null, 'BEACON (released)'],
      [
        'beaconReleasedWebshop',
        'beacon',
        { variant: 'released', rMs: 10, normalize: 'mean', gamma: 0.95, lambda: 1 },
        null,
        'BEACON (released, γ = 0.95, λ = 1)',
      ],
      ['ppoShaped', 'ppo', { shapedRewards: true }, null, 'PPO (shaped rewards)'],
      ['custom', 'custom', {}, null, 'Your estimator'],
      ...Object.entries(ABLATIONS).map(([a, o]) => [a, 'beacon', o, a, expect.any(String)]),
      // The detector study's arms (amendment 2) follow, each a base variant plus one setting (test/study/detector-study.test.ts).
      ...DETECTOR_VARIANTS.map((d) => [d.name, d.method, d.overrides, null, d.label]),
    ]);
    for (const [name, v] of Object.entries(NAMED_VARIANTS)) expect(VARIANT_SPECS.find((s) => s.name === name)!.color).toBe(v.color.light.line);
  });

  it('name a config by its settings, never by an environment it may not run in (labels of every variant)', () => {
    // The page and the study run any variant on any environment, so no label may promise one.
    const envNames = [...ENV_NAMES.map((e) => envEntry(e).label), 'WebShop', 'ALFWorld', 'ScienceWorld', 'GridHouse', 'TextHouse'];
    for (const v of VARIANT_SPECS) for (const env of envNames) expect(v.label.toLowerCase(), `${v.name}'s label`).not.toContain(env.toLowerCase());
  });

  it('have colours of their own, light and dark, apart from every other entry', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const lines = RACE_ENTRIES.map((e) => e.color[scheme].line.toLowerCase());
      expect(new Set(lines).size).toBe(lines.length);
    }
  });

  it("name the settings a variant runs instead of the shared ones, for its panel's header", () => {
    expect(describeOverrides(raceEntry('beaconReleased').overrides)).toBe('variant = released, R_ms = 10, normalize = mean, γ = 0.9, λ = 10');
    expect(describeOverrides(raceEntry('beacon').overrides)).toBe('');
  });
});
