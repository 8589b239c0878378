/**
 * The advantage calculator's JSON format (`npm run advantages`, docs/maths.md §3–4), shared by the CLI and tests.
 *
 * Input:  { method?, gamma?, lambda?, rMs?, normalize?, segmentBaseline?, trajectoryTerm?, variant?, omega?,
 *           milestoneFalseAlarms?, milestoneDelay?, milestoneStride?, looseMilestones?, fineMilestones?, seed?,
 *           groups: [[{ reward: number, milestones?: [0|1 per step], stateKeys?: [string per step],
 *                       values?: [number per step], looseEvents?: [0|1 per step], fineEvents?: [0|1 per step] }, …], …] }
 *         (stateKeys for GiGPO, values for critic PPO; milestones may be left out when another array
 *         gives the run's length; looseEvents / fineEvents, what the loose and fine detectors read, with
 *         looseMilestones / fineMilestones: batch-detector.ts)
 * Output: { groups: [[{ advantages, …the method's parts }, …], …] }: GRPO and BEACON add
 *         trajectoryAdvantage, segmentAdvantages and shapedRewards; GiGPO episodeAdvantage,
 *         stepAdvantages and stepReturns (the method spec's `outputNames`). With a detector setting
 *         given, each run also gets milestonesSeen: Φ's flags as the method saw them.
 * Every error names the offending field by its JSON path and says what is allowed. The settings take
 * the names, bounds and defaults of the training config table (src/config.ts).
 */
import { ADVANTAGE_KEYS, DEFAULT_ADVANTAGE_SETTINGS, fieldSpec, parseValue } from '../src/config.ts';
import { methodSpec, type Method } from '../src/methods/registry.ts';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../src/advantages/types.ts';
import { applyBatchDetector, BATCH_DETECTOR_KEYS, EVENT_FIELDS, parseBatchDetector } from './batch-detector.ts';
import { InputError } from './input-error.ts';

export { InputError };

export interface AdvantageRequest {
  settings: AdvantageSettings;
  batch: AdvantageBatch;
  /** Runs per group, to restore the nesting of the output. */
  groupSizes: number[];
  /** With a detector setting given: Φ's flags as the method saw them (batch-detector.ts), written out per run. */
  milestonesSeen?: Uint8Array;
}

export function parseAdvantageRequest(json: unknown): AdvantageRequest {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InputError('input must be a JSON object with a "groups" field');
  const o = json as Record<string, unknown>;
  const detector = parseBatchDetector(o);
  for (const key of Object.keys(o)) {
    if (key !== 'groups' && !(ADVANTAGE_KEYS as readonly string[]).includes(key) && !(BATCH_DETECTOR_KEYS as readonly string[]).includes(key)) {
      throw new InputError(`unknown field "${key}"; allowed: groups, ${[...ADVANTAGE_KEYS, ...BATCH_DETECTOR_KEYS].join(', ')}`);
    }
  }
  const settings: Record<string, unknown> = { ...DEFAULT_ADVANTAGE_SETTINGS };
  for (const key of ADVANTAGE_KEYS) {
    if (o[key] === undefined) continue;
    const parsed = parseValue(key, fieldSpec(key)!.kind, o[key], true);
    if ('error' in parsed) throw new InputError(parsed.error);
    settings[key] = parsed.value;
  }

  const method = settings.method as Method;
  const needs = methodSpec(method).needs;
  const groups = o.groups;
  if (!Array.isArray(groups) || groups.length === 0) throw new InputError('groups must be a non-empty array of groups');
  const groupSizes: number[] = [];
  const rewards: number[] = [];
  const milestones: number[] = [];
  const stateKeys: number[] = [];
  const values: number[] = [];
  const keyIds = new Map<string, number>();
  const runLengths: number[] = [];
  const runFields = ['reward', 'milestones', 'stateKeys', 'values', ...EVENT_FIELDS];
  const events: Record<(typeof EVENT_FIELDS)[number], number[]> = { looseEvents: [], fineEvents: [] };
  groups.forEach((group, g) => {
    if (!Array.isArray(group) || group.length < 2) throw new InputError(`groups[${g}] must be an array of at least 2 runs (G ≥ 2)`);
    groupSizes.push(group.length);
    group.forEach((run, i) => {
      const path = `groups[${g}][${i}]`;
      if (typeof run !== 'object' || run === null || Array.isArray(run))
        throw new InputError(`${path} must be an object {reward, milestones${needs.stateKeys ? ', stateKeys' : ''}${needs.values ? ', values' : ''}}`);
      const r = run as Record<string, unknown>;
      for (const key of Object.keys(r)) if (!runFields.includes(key)) throw new InputError(`${path}: unknown field "${key}"; allowed: ${runFields.join(', ')}`);
      if (typeof r.reward !== 'number' || !Number.isFinite(r.reward))
        throw new InputError(`${path}.reward must be a finite number; got ${JSON.stringify(r.reward)}`);
      // Every per-step array given must be non-empty and agree on the run's length; those the method
      // needs must be given (milestones may be left out when another array sets the length).
      const perStep = (['milestones', 'stateKeys', 'values', ...EVENT_FIELDS] as const).filter((k) => r[k] !== undefined);
      for (const k of perStep)
        if (!Array.isArray(r[k]) || (r[k] as unknown[]).length === 0) throw new InputError(`${path}.${k} must be a non-empty array, one entry per step`);
      if (needs.stateKeys && r.stateKeys === undefined) throw new InputError(`${path}.stateKeys is missing: ${method} needs one state key (a string) per step`);
      if (needs.values && r.values === undefined) throw new InputError(`${path}.values is missing: ${method} needs one value estimate per step`);
      if (perStep.length === 0) throw new InputError(`${path}.milestones must be a non-empty array of 0/1, one per step`);
      const length = (r[perStep[0]] as unknown[]).length;
      for (const k of perStep) {
        const n = (r[k] as unknown[]).length;
        if (n !== length) throw new InputError(`${path}.${k} has ${n} entries but ${path}.${perStep[0]} has ${length}: one entry per step in each`);
      }
      const m = (r.milestones as unknown[] | undefined) ?? new Array(length).fill(0);
      m.forEach((x, t) => {
        if (x !== 0 && x !== 1) throw new InputError(`${path}.milestones[${t}] must be 0 or 1; got ${JSON.stringify(x)}`);
        milestones.push(x);
      });
      for (const k of EVENT_FIELDS)
        (r[k] as unknown[] | undefined)?.forEach((x, t) => {
          if (x !== 0 && x !== 1) throw new InputError(`${path}.${k}[${t}] must be 0 or 1; got ${JSON.stringify(x)}`);
          events[k].push(x);
        });
      (r.stateKeys as unknown[] | undefined)?.forEach((x, t) => {
        if (typeof x !== 'string') throw new InputError(`${path}.stateKeys[${t}] must be a string; got ${JSON.stringify(x)}`);
        if (!keyIds.has(x)) keyIds.set(x, keyIds.size);
        stateKeys.push(keyIds.get(x)!);
      });
      (r.values as unknown[] | undefined)?.forEach((x, t) => {
        if (typeof x !== 'number' || !Number.isFinite(x)) throw new InputError(`${path}.values[${t}] must be a finite number; got ${JSON.stringify(x)}`);
        values.push(x);
      });
      rewards.push(r.reward);
      runLengths.push(length);
    });
  });
  const steps = milestones.length;
  // A per-step array given for some runs only cannot be laid out.
  const partial = (name: string, got: number) => {
    if (got === 0 || got === steps) return;
    throw new InputError(`${name} must be given for every run or for none`);
  };
  partial('stateKeys', stateKeys.length);
  partial('values', values.length);
  for (const k of EVENT_FIELDS) partial(k, events[k].length);
  const groupOffsets = new Int32Array(groupSizes.length + 1);
  groupSizes.forEach((n, g) => (groupOffsets[g + 1] = groupOffsets[g] + n));
  const runOffsets = new Int32Array(runLengths.length + 1);
  runLengths.forEach((n, i) => (runOffsets[i + 1] = runOffsets[i] + n));
  const seen = applyBatchDetector(detector, runOffsets, Uint8Array.from(milestones), events);
  return {
    settings: settings as unknown as AdvantageSettings,
    groupSizes,
    ...(seen.changed ? { milestonesSeen: seen.milestones } : {}),
    batch: {
      groupOffsets,
      runOffsets,
      milestones: seen.milestones,
      rewards: Float64Array.from(rewards),
      ...(stateKeys.length ? { stateKeys: Uint32Array.from(stateKeys) } : {}),
      ...(values.length ? { values: Float64Array.from(values) } : {}),
    },
  };
}

/** Nests per-run results back into the input's group structure. */
export function formatAdvantageResponse(request: AdvantageRequest, result: AdvantageResult) {
  const { runOffsets, groupOffsets } = request.batch;
  const steps = (a: ArrayLike<number>, i: number) => Array.from(a).slice(runOffsets[i], runOffsets[i + 1]);
  const names = methodSpec(request.settings.method).outputNames;
  return {
    groups: request.groupSizes.map((n, g) =>
      Array.from({ length: n }, (_, r) => {
        const i = groupOffsets[g] + r;
        const out: Record<string, number | number[]> = { advantages: steps(result.advantages, i) };
        if (names.run) out[names.run] = result.trajectoryAdvantages[i];
        if (names.step) out[names.step] = steps(result.segmentAdvantages, i);
        if (names.reward) out[names.reward] = steps(result.shapedRewards, i);
        if (request.milestonesSeen) out.milestonesSeen = steps(request.milestonesSeen, i);
        return out;
      }),
    ),
  };
}
