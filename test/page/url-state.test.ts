/**
 * The page's URL codec: every training setting (but `method`) and every page setting round-trips, only
 * non-defaults are written, and each bad parameter is named while its field keeps the default.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, type FieldSpec, type TrainConfig } from '../../src/config.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { RACE_ENTRY_NAMES } from '../../src/race/entries.ts';
import { DEFAULT_PAGE_SETTINGS, PAGE_FIELDS, type PageFieldSpec, type PageKind, type PageSettings } from '../../src/page/page-settings.ts';
import { knownKeys, readPageState, writePageState } from '../../src/page/url-state.ts';
import { combinedLimitIssues, MAX_SEEDS, seedsLimitIssue } from '../../src/setting-limits.ts';
import type { BackendChoice } from '../../src/backend/names.ts';

function arbValue(kind: PageKind): fc.Arbitrary<unknown> {
  switch (kind.type) {
    case 'methods':
      return fc.shuffledSubarray([...RACE_ENTRY_NAMES], { minLength: kind.min, maxLength: Math.min(kind.max, RACE_ENTRY_NAMES.length) });
    case 'int':
      return fc.integer({ min: kind.min, max: kind.max });
    case 'number':
      return fc
        .double({ min: kind.min, max: kind.max, noNaN: true })
        .map((x) => (Object.is(x, -0) ? 0 : x))
        .filter((x) => !(kind.minExclusive && x <= kind.min));
    case 'enum':
      return fc.constantFrom(...kind.values);
    case 'bool':
      return fc.boolean();
  }
}

/** A valid value of the field that differs from `def`. */
function otherValue(kind: PageKind, def: unknown): unknown {
  switch (kind.type) {
    case 'methods':
      return [...(def as string[])].reverse();
    case 'int':
      return def === kind.max ? kind.min : kind.max;
    case 'number':
      return def === kind.max ? (kind.min + kind.max) / 2 : kind.max;
    case 'enum':
      return kind.values.find((v) => v !== def);
    case 'bool':
      return !def;
  }
}

const TRAIN_FIELDS = CONFIG_FIELDS.filter((s) => s.key !== 'method');

describe('page URL state', () => {
  it('writes nothing for the page defaults', () => {
    expect(writePageState({ config: PAGE_DEFAULT_CONFIG, page: DEFAULT_PAGE_SETTINGS })).toBe('');
    const back = readPageState('');
    expect(back).toEqual({ config: PAGE_DEFAULT_CONFIG, page: DEFAULT_PAGE_SETTINGS, issues: [] });
  });

  it.each([...TRAIN_FIELDS.map((s) => ['training', s] as const), ...PAGE_FIELDS.map((s) => ['page', s] as const)])(
    'round-trips a non-default %s setting: %s',
    (where, spec) => {
      const s = spec as FieldSpec | PageFieldSpec;
      const def =
        where === 'training' ? (PAGE_DEFAULT_CONFIG as Partial<TrainConfig>)[s.key as keyof TrainConfig] : DEFAULT_PAGE_SETTINGS[s.key as keyof PageSettings];
      // More than 5 seeds need backend=webgpu (seedsLimitIssue of setting-limits.ts): the page default is auto.
      const value = s.key === 'seeds' ? MAX_SEEDS.auto : otherValue(s.kind, def);
      expect(value).not.toEqual(def);
      const state = {
        config: where === 'training' ? { ...PAGE_DEFAULT_CONFIG, [s.key]: value } : PAGE_DEFAULT_CONFIG,
        page: where === 'page' ? { ...DEFAULT_PAGE_SETTINGS, [s.key]: value } : DEFAULT_PAGE_SETTINGS,
      };
      const query = writePageState(state);
      expect(query).toBe(`${s.key}=${encodeURIComponent(String(value))}`);
      expect(readPageState(query)).toEqual({ ...state, issues: [] });
    },
  );

  it('round-trips any combination of valid settings', () => {
    const arbConfig = fc.record(Object.fromEntries(TRAIN_FIELDS.map((s) => [s.key, arbValue(s.kind)])));
    const arbPage = fc.record(Object.fromEntries(PAGE_FIELDS.map((s) => [s.key, arbValue(s.kind)])));
    fc.assert(
      fc.property(arbConfig, arbPage, (c, p) => {
        // Valid together too: the last of the seeds (seed, seed + 1, …) is still a seed (seeds.test.ts).
        fc.pre((c.seed as number) + (p.seeds as number) - 1 <= 4294967295);
        fc.pre(combinedLimitIssues({ ...PAGE_DEFAULT_CONFIG, ...c } as TrainConfig).length === 0); // setting-limits.test.ts
        fc.pre(seedsLimitIssue(p.seeds as number, c.backend as BackendChoice) === null);
        const state = { config: { ...PAGE_DEFAULT_CONFIG, ...c } as TrainConfig, page: p as unknown as PageSettings };
        const back = readPageState(`?${writePageState(state)}`);
        expect(back.issues).toEqual([]);
        expect(back.config).toEqual(state.config);
        expect(back.page).toEqual(state.page);
      }),
      { numRuns: 300 },
    );
  });

  it('knows every setting except method', () => {
    expect(knownKeys().sort()).toEqual([...TRAIN_FIELDS.map((s) => s.key as string), ...PAGE_FIELDS.map((s) => s.key as string)].sort());
  });

  it.each([
    ['gamma=1.5', 'gamma', /gamma must be a number in \[0, 1\]; got "1.5"; using 0.95/],
    ['groupSize=1', 'groupSize', /groupSize must be an integer in \[2, 64\]; got "1"/],
    ['tasksPerIteration=2.5', 'tasksPerIteration', /integer/],
    ['env=mars', 'env', /env must be one of gridhouse, texthouse, shop; got "mars"/],
    ['trajectoryTerm=yes', 'trajectoryTerm', /true or false/],
    ['learningRate=0', 'learningRate', /learningRate must be a number in \(0, 1\]/],
    ['speed=warp', 'speed', /speed must be one of slow, normal, fast, nodraw; got "warp"; using normal/],
    ['autostart=maybe', 'autostart', /autostart must be true or false/],
    ['smoothing=1', 'smoothing', /smoothing must be a number in \[0, 0.99\]/],
    ['target=0', 'target', /target must be a number in \[0.05, 1\]/],
    ['colour=blue', 'colour', /unknown setting "colour"; known settings: .*gamma.*autostart/],
    ['method=grpo', 'method', /method is not a page setting: the page races its methods side by side; ignored/],
    [
      'methods=grpo,ppo2',
      'methods',
      /methods must be 2 to 4 distinct methods or variants, comma-separated, from grpo, beacon.*beaconReleased.*; got "grpo,ppo2": "ppo2" is not a method or variant; using grpo,beacon/,
    ],
    ['methods=grpo,grpo', 'methods', /"grpo" is named twice/],
    ['methods=beaconReleased,beaconReleased', 'methods', /"beaconReleased" is named twice/],
    ['methods=beacon,beacon-released', 'methods', /"beacon-released" is not a method or variant/],
    ['methods=beaconReleased', 'methods', /methods must be 2 to 4 distinct methods.*: 1 named/],
    ['methods=grpo,beacon,gigpo,ppo,beaconReleased', 'methods', /: 5 named/],
    ['methods=grpo', 'methods', /methods must be 2 to 4 distinct methods.*: 1 named/],
    ['present=2', 'present', /present must be true or false/],
    ['seeds=0', 'seeds', /seeds must be an integer in \[1, 16\]; got "0"; using 1/],
    ['seeds=17', 'seeds', /seeds must be an integer in \[1, 16\]; got "17"; using 1/],
    ['seeds=2.5', 'seeds', /seeds must be an integer in \[1, 16\]; got "2\.5"/],
    ['seeds=two', 'seeds', /seeds must be an integer in \[1, 16\]; got "two"/],
    ['seeds=6', 'seeds', /seeds 6 is over 5, the most seeds per method under backend auto \(up to 16 with backend=webgpu.*\); using 1/],
  ])('names the bad parameter in %s and keeps the default', (query, field, message) => {
    const { config, page, issues } = readPageState(query);
    expect(issues).toHaveLength(1);
    expect(issues[0].field).toBe(field);
    expect(issues[0].message).toMatch(message);
    expect(config).toEqual(PAGE_DEFAULT_CONFIG);
    expect(page).toEqual(DEFAULT_PAGE_SETTINGS);
  });

  it('reports every bad parameter and still applies the good ones', () => {
    const { config, page, issues } = readPageState('gamma=2&lambda=0.5&speed=fast&bogus=1&seed=-1');
    expect(issues.map((i) => i.field)).toEqual(['bogus', 'gamma', 'seed']);
    expect(config.lambda).toBe(0.5);
    expect(config.gamma).toBe(PAGE_DEFAULT_CONFIG.gamma);
    expect(config.seed).toBe(PAGE_DEFAULT_CONFIG.seed);
    expect(page.speed).toBe('fast');
  });

  it('accepts named variants beside methods, in panel order, and writes them back', () => {
    const { page, issues } = readPageState('methods=beacon,beaconReleased,ppoShaped');
    expect(issues).toEqual([]);
    expect(page.methods).toEqual(['beacon', 'beaconReleased', 'ppoShaped']);
    expect(writePageState({ config: PAGE_DEFAULT_CONFIG, page })).toBe('methods=beacon%2CbeaconReleased%2CppoShaped');
  });

  it('reports a repeated key and uses its first value', () => {
    const { config, issues } = readPageState('seed=5&seed=6');
    expect(config.seed).toBe(5);
    expect(issues).toEqual([{ field: 'seed', message: expect.stringMatching(/given more than once; only the first value \("5"\)/) }]);
  });
});

describe('the detector settings in the URL (docs/maths.md §6)', () => {
  it.each([
    ['milestoneFalseAlarms=2', 'milestoneFalseAlarms', /milestoneFalseAlarms must be a number in \[0, 1\]; got "2"; using 0/],
    ['looseMilestones=yes', 'looseMilestones', /looseMilestones must be true or false; got "yes"; using false/],
    ['milestoneDelay=1.5', 'milestoneDelay', /milestoneDelay must be an integer in \[0, 64\]; got "1.5"; using 0/],
    ['milestoneStride=0', 'milestoneStride', /milestoneStride must be an integer in \[1, 8\]; got "0"; using 1/],
    ['fineMilestones=2', 'fineMilestones', /fineMilestones must be true or false; got "2"; using false/],
    ['demoNoise=-1', 'demoNoise', /demoNoise must be a number in \[0, 1\]; got "-1"; using 0/],
    ['looseMilestones=true&fineMilestones=true', 'fineMilestones', /two different detectors/],
  ])('%s is named, and its field keeps the default', (query, field, message) => {
    const { config, issues } = readPageState(query);
    expect(issues).toHaveLength(1);
    expect(issues[0].field).toBe(field);
    expect(issues[0].message).toMatch(message);
    expect(config[field as keyof typeof config]).toBe(PAGE_DEFAULT_CONFIG[field as keyof typeof PAGE_DEFAULT_CONFIG]);
  });

  it('reads and writes each in range', () => {
    const query = 'milestoneFalseAlarms=0.1&looseMilestones=true&milestoneDelay=2&milestoneStride=3&demoNoise=0.3';
    const { config, issues } = readPageState(query);
    expect(issues).toEqual([]);
    expect(config).toMatchObject({ milestoneFalseAlarms: 0.1, looseMilestones: true, milestoneDelay: 2, milestoneStride: 3, demoNoise: 0.3 });
    expect(writePageState({ config, page: DEFAULT_PAGE_SETTINGS })).toBe(query);
  });
});
