/**
 * The detector settings in the advantage calculator's JSON (cli/batch-json.ts; docs/maths.md §6): the
 * batch's `milestones` are what the task detector Φ reported, and these settings turn them into what a
 * method sees, exactly as training does (src/advantages/detector-view.ts).
 *
 * The loose and fine detectors are the environment's (envs/<env>/milestones.ts); a hand-made batch
 * gives what they read per step: `looseEvents` (a side effect of a milestone's kind, any target) and
 * `fineEvents` (an intermediate transition). False alarms draw from the detector stream of `seed`, the
 * stream a training run of that seed draws from. `demoNoise` concerns the teacher's demonstrations, not
 * a batch, and is refused here with that reason.
 */
import { DEFAULT_CONFIG, detectorOf, fieldSpec, parseValue } from '../src/config.ts';
import { detectorView, rewritesDetector, selectDetector } from '../src/advantages/detector-view.ts';
import { Rng } from '../src/prng.ts';
import { InputError } from './input-error.ts';

export const BATCH_DETECTOR_KEYS = ['milestoneFalseAlarms', 'milestoneDelay', 'milestoneStride', 'looseMilestones', 'fineMilestones', 'seed'] as const;
export const EVENT_FIELDS = ['looseEvents', 'fineEvents'] as const;

export type BatchDetector = Pick<typeof DEFAULT_CONFIG, (typeof BATCH_DETECTOR_KEYS)[number]>;

/** The detector settings of a calculator request (defaults where absent); names the field on any error. */
export function parseBatchDetector(o: Record<string, unknown>): BatchDetector {
  if (o.demoNoise !== undefined)
    throw new InputError(
      'demoNoise is the teacher’s slip rate: it changes the demonstrations the SFT prior and SFT learn from, not a batch’s advantages; set it on train',
    );
  const out: Record<string, unknown> = {};
  for (const key of BATCH_DETECTOR_KEYS) {
    out[key] = DEFAULT_CONFIG[key];
    if (o[key] === undefined) continue;
    const parsed = parseValue(key, fieldSpec(key)!.kind, o[key], true);
    if ('error' in parsed) throw new InputError(parsed.error);
    out[key] = parsed.value;
  }
  const settings = out as BatchDetector;
  if (settings.looseMilestones && settings.fineMilestones)
    throw new InputError('looseMilestones and fineMilestones are two different detectors Φ: turn on one of them at most');
  return settings;
}

/**
 * Φ's flags as a method sees them. `events`: per step, concatenated over runs, the loose and fine
 * detectors' readings (empty when not given). `changed`: a detector setting is on.
 */
export function applyBatchDetector(
  settings: BatchDetector,
  runOffsets: Int32Array,
  task: Uint8Array,
  events: Record<(typeof EVENT_FIELDS)[number], number[]>,
): { milestones: Uint8Array; changed: boolean } {
  const detector = detectorOf(settings);
  const needs = detector === 'loose' ? 'looseEvents' : detector === 'fine' ? 'fineEvents' : null;
  for (const k of EVENT_FIELDS)
    if (k !== needs && events[k].length > 0)
      throw new InputError(`${k} are read only with ${k === 'looseEvents' ? 'looseMilestones' : 'fineMilestones'}: true`);
  if (needs && events[needs].length === 0)
    throw new InputError(`${detector}Milestones needs ${needs} in every run: per step, 1 where the ${detector} detector reads its transition`);
  const phi = selectDetector(task, {
    ...(detector === 'loose' ? { loose: Uint8Array.from(events.looseEvents) } : {}),
    ...(detector === 'fine' ? { fine: Uint8Array.from(events.fineEvents) } : {}),
  });
  const rng = settings.milestoneFalseAlarms > 0 ? new Rng(settings.seed).fork('detector') : null;
  return { milestones: detectorView(runOffsets, phi, settings, rng), changed: detector !== 'task' || rewritesDetector(settings) };
}
