/**
 * The tour and the race presets are checked against the registry and the settings table: every preset
 * that names only existing methods and settings is shown and loads its settings; the others are hidden.
 */
import { describe, expect, it } from 'vitest';
import { fieldSpec } from '../../src/config.ts';
import { isRaceEntry } from '../../src/race/entries.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { DEFAULT_PAGE_SETTINGS, pageFieldSpec } from '../../src/page/page-settings.ts';
import { applyPreset, availablePresets, availableScenarios, presetSetsMore, presetState, RACE_PRESETS, SCENARIOS } from '../../src/page/scenarios.ts';

/** What a preset names, read directly (not through the page's reader). */
function namesExist(query: string): boolean {
  const q = new URLSearchParams(query);
  return [...q].every(([k, v]) => (k === 'methods' ? v.split(',').every(isRaceEntry) : fieldSpec(k) !== undefined || pageFieldSpec(k) !== undefined));
}

describe('scenarios and presets', () => {
  it('has at least six scenarios available, each with a narrative and what to look at', () => {
    const shown = availableScenarios();
    expect(shown.length).toBeGreaterThanOrEqual(6);
    for (const s of SCENARIOS) {
      expect(s.narrative.length).toBeGreaterThan(100);
      expect(s.lookAt.length).toBeGreaterThan(20);
    }
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
  });

  it('shows exactly the scenarios and presets whose methods and settings exist', () => {
    expect(availableScenarios().map((s) => s.id)).toEqual(SCENARIOS.filter((s) => namesExist(s.query)).map((s) => s.id));
    expect(availablePresets().map((p) => p.id)).toEqual(RACE_PRESETS.filter((p) => namesExist(p.query)).map((p) => p.id));
  });

  it('offers BEACON against its own released variant, keeping the shared settings for the page', () => {
    expect(availablePresets().map((p) => p.id)).toContain('paper-released');
    const state = presetState(RACE_PRESETS.find((p) => p.id === 'paper-released')!.query)!;
    expect(state.page.methods).toEqual(['beacon', 'beaconReleased']);
    // The variant's settings are its panel's own (src/page/method-configs.ts), not the shared config's.
    expect(state.config).toEqual(PAGE_DEFAULT_CONFIG);
  });

  it("runs the released code's WebShop settings on the shop, the environment they were shipped for", () => {
    const scenario = availableScenarios().find((s) => s.id === 'webshop')!;
    const state = presetState(scenario.query)!;
    expect(state.config.env).toBe('shop');
    expect(state.page.methods).toEqual(['grpo', 'beacon', 'beaconReleasedWebshop']);
  });

  it('loads a scenario over the page defaults, keeping the backend and how the page is shown', () => {
    const current = {
      config: { ...PAGE_DEFAULT_CONFIG, backend: 'wasm' as const, horizon: 'tiny' as const },
      page: { ...DEFAULT_PAGE_SETTINGS, present: true, speed: 'fast' as const },
    };
    const state = applyPreset('methods=grpo,beacon&gamma=1', current)!;
    expect(state.config).toEqual({ ...PAGE_DEFAULT_CONFIG, backend: 'wasm', gamma: 1 });
    expect(state.page).toMatchObject({ present: true, speed: 'fast', methods: ['grpo', 'beacon'] });
    expect(presetState('methods=grpo,unregistered')).toBeNull();
    expect(presetState('notASetting=1')).toBeNull();
  });

  it('tells the detector stories: a gameable detector with and without the trajectory term, too coarse, too fine, a sloppy teacher', () => {
    const shown = new Map(availableScenarios().map((s) => [s.id, presetState(s.query)!]));
    expect(shown.get('gameable-detector')!.config).toMatchObject({ looseMilestones: true, trajectoryTerm: true });
    expect(shown.get('gameable-detector-no-trajectory')!.config).toMatchObject({ looseMilestones: true, trajectoryTerm: false });
    expect(shown.get('coarse-milestones')!.config.milestoneStride).toBeGreaterThan(1);
    expect(shown.get('fine-milestones')!.config.fineMilestones).toBe(true);
    const teacher = shown.get('sloppy-teacher')!;
    expect(teacher.config.demoNoise).toBeGreaterThan(0);
    expect(teacher.page.methods).toContain('sft');
  });
});

describe('thousands of runs', () => {
  it('is a scenario of the tour and a preset: 64 tasks × 64 runs = 4,096 per method, plotted against env steps', () => {
    const scenario = availableScenarios().find((s) => s.id === 'thousands');
    const preset = availablePresets().find((p) => p.id === 'thousands');
    expect(scenario).toBeDefined();
    expect(preset).toBeDefined();
    for (const query of [scenario!.query, preset!.query]) {
      const state = presetState(query)!;
      expect(state.config.tasksPerIteration * state.config.groupSize).toBe(4096);
      expect(state.page.raceX).toBe('envSteps');
      expect(presetSetsMore(query)).toBe(true);
    }
    expect(presetSetsMore('methods=grpo,beacon')).toBe(false);
  });
});
