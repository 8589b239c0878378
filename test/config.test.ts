/**
 * The config table: validation names the field and range, nothing is coerced, and the URL codec
 * round-trips every field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, configToQuery, DEFAULT_CONFIG, parseConfig, withLaterDefaults, type FieldSpec, type TrainConfig } from '../src/config.ts';
import { combinedLimitIssues } from '../src/setting-limits.ts';

function arbValue(spec: FieldSpec): fc.Arbitrary<unknown> {
  const k = spec.kind;
  switch (k.type) {
    case 'int':
      return fc.integer({ min: k.min, max: k.max });
    case 'number':
      return fc.double({ min: k.min, max: k.max, noNaN: true }).filter((x) => !(k.minExclusive && x <= k.min));
    case 'enum':
      return fc.constantFrom(...k.values);
    case 'bool':
      return fc.boolean();
  }
}

describe('config', () => {
  it('round-trips every field through the URL query', () => {
    const arbConfig = fc.record(Object.fromEntries(CONFIG_FIELDS.map((s) => [s.key, arbValue(s)]))) as fc.Arbitrary<TrainConfig>;
    fc.assert(
      fc.property(arbConfig, (config) => {
        fc.pre(combinedLimitIssues(config).length === 0); // valid together too (setting-limits.test.ts)
        const query = configToQuery(config);
        const { config: back, issues } = parseConfig(new URLSearchParams(query.toString()).entries());
        expect(issues).toEqual([]);
        expect(back).toEqual(config);
      }),
    );
  });

  it('omits defaults from the query', () => {
    expect(configToQuery(DEFAULT_CONFIG).toString()).toBe('');
    expect(configToQuery({ ...DEFAULT_CONFIG, gamma: 1 }).toString()).toBe('gamma=1');
  });

  it.each([
    ['gamma', '1.5', /gamma must be a number in \[0, 1\]; got "1.5"/],
    ['gamma', 'abc', /gamma must be a number/],
    ['gamma', '', /gamma must be a number/],
    ['groupSize', '1', /groupSize must be an integer in \[2, 64\]/],
    ['groupSize', '4.5', /groupSize must be an integer/],
    ['rMs', '0', /rMs must be a number in \(0, 100\]/],
    ['env', 'minecraft', /env must be one of gridhouse, texthouse/],
    ['trajectoryTerm', 'yes', /trajectoryTerm must be true or false/],
    ['seed', '-1', /seed must be an integer in \[0, 4294967295\]/],
    ['nonsense', '1', /unknown setting "nonsense"/],
  ])('rejects %s=%j with a message naming the field', (key, raw, message) => {
    const { config, issues } = parseConfig([[key, raw]]);
    expect(issues).toHaveLength(1);
    expect(issues[0].field).toBe(key);
    expect(issues[0].message).toMatch(message);
    expect(config).toEqual(DEFAULT_CONFIG); // the bad value is not coerced into the config
  });
});

describe('settings added after configs were stored', () => {
  it('reads a stored config without the detector settings at their defaults, and only those', () => {
    const { milestoneFalseAlarms, looseMilestones, milestoneDelay, milestoneStride, fineMilestones, demoNoise, ...older } = { ...DEFAULT_CONFIG, gamma: 0.5 };
    expect([milestoneFalseAlarms, looseMilestones, milestoneDelay, milestoneStride, fineMilestones, demoNoise]).toEqual([0, false, 0, 1, false, 0]);
    expect(withLaterDefaults(older)).toEqual({ ...DEFAULT_CONFIG, gamma: 0.5 });
    // A stored value is kept; other absent fields stay absent (their readers refuse them).
    expect(withLaterDefaults({ milestoneStride: 3 })).toEqual({
      milestoneStride: 3,
      milestoneFalseAlarms: 0,
      looseMilestones: false,
      milestoneDelay: 0,
      fineMilestones: false,
      demoNoise: 0,
    });
  });
});
