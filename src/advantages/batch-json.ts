/**
 * The advantage calculator's JSON format (`npm run advantages`, docs/maths.md §3–4), shared by the CLI and tests.
 *
 * Input:  { method?, gamma?, lambda?, rMs?, normalize?, segmentBaseline?, trajectoryTerm?,
 *           groups: [[{ reward: number, milestones: [0|1 per step] }, …], …] }
 * Output: { groups: [[{ advantages, trajectoryAdvantage, segmentAdvantages, shapedRewards }, …], …] }
 * Every error names the offending field by its JSON path and says what is allowed. The settings take
 * the names, bounds and defaults of the training config table (src/config.ts).
 */
import { ADVANTAGE_KEYS, DEFAULT_ADVANTAGE_SETTINGS, fieldSpec, parseValue } from '../config.ts';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from './types.ts';

export class InputError extends Error {}

export interface AdvantageRequest {
  settings: AdvantageSettings;
  batch: AdvantageBatch;
  /** Runs per group, to restore the nesting of the output. */
  groupSizes: number[];
}

export function parseAdvantageRequest(json: unknown): AdvantageRequest {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InputError('input must be a JSON object with a "groups" field');
  const o = json as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (key !== 'groups' && !(ADVANTAGE_KEYS as readonly string[]).includes(key)) {
      throw new InputError(`unknown field "${key}"; allowed: groups, ${ADVANTAGE_KEYS.join(', ')}`);
    }
  }
  const settings: Record<string, unknown> = { ...DEFAULT_ADVANTAGE_SETTINGS };
  for (const key of ADVANTAGE_KEYS) {
    if (o[key] === undefined) continue;
    const parsed = parseValue(key, fieldSpec(key)!.kind, o[key], true);
    if ('error' in parsed) throw new InputError(parsed.error);
    settings[key] = parsed.value;
  }

  const groups = o.groups;
  if (!Array.isArray(groups) || groups.length === 0) throw new InputError('groups must be a non-empty array of groups');
  const groupSizes: number[] = [];
  const rewards: number[] = [];
  const milestones: number[] = [];
  const runLengths: number[] = [];
  groups.forEach((group, g) => {
    if (!Array.isArray(group) || group.length < 2) throw new InputError(`groups[${g}] must be an array of at least 2 runs (G ≥ 2)`);
    groupSizes.push(group.length);
    group.forEach((run, i) => {
      const path = `groups[${g}][${i}]`;
      if (typeof run !== 'object' || run === null) throw new InputError(`${path} must be an object {reward, milestones}`);
      const { reward, milestones: m } = run as Record<string, unknown>;
      if (typeof reward !== 'number' || !Number.isFinite(reward)) throw new InputError(`${path}.reward must be a finite number; got ${JSON.stringify(reward)}`);
      if (!Array.isArray(m) || m.length === 0) throw new InputError(`${path}.milestones must be a non-empty array of 0/1, one per step`);
      m.forEach((x, t) => {
        if (x !== 0 && x !== 1) throw new InputError(`${path}.milestones[${t}] must be 0 or 1; got ${JSON.stringify(x)}`);
        milestones.push(x);
      });
      rewards.push(reward);
      runLengths.push(m.length);
    });
  });
  const groupOffsets = new Int32Array(groupSizes.length + 1);
  groupSizes.forEach((n, g) => (groupOffsets[g + 1] = groupOffsets[g] + n));
  const runOffsets = new Int32Array(runLengths.length + 1);
  runLengths.forEach((n, i) => (runOffsets[i + 1] = runOffsets[i] + n));
  return {
    settings: settings as unknown as AdvantageSettings,
    groupSizes,
    batch: { groupOffsets, runOffsets, milestones: Uint8Array.from(milestones), rewards: Float64Array.from(rewards) },
  };
}

/** Nests per-run results back into the input's group structure. */
export function formatAdvantageResponse(request: AdvantageRequest, result: AdvantageResult) {
  const { runOffsets, groupOffsets } = request.batch;
  const steps = (a: ArrayLike<number>, i: number) => Array.from(a).slice(runOffsets[i], runOffsets[i + 1]);
  return {
    groups: request.groupSizes.map((n, g) =>
      Array.from({ length: n }, (_, r) => {
        const i = groupOffsets[g] + r;
        return {
          advantages: steps(result.advantages, i),
          trajectoryAdvantage: result.trajectoryAdvantages[i],
          segmentAdvantages: steps(result.segmentAdvantages, i),
          shapedRewards: steps(result.shapedRewards, i),
        };
      }),
    ),
  };
}
