/**
 * The checkpoint file: a run's state (`RunState`, taken by run.ts) as portable bytes, the same in Node and in the
 * page. Only standard web APIs are used (TextEncoder, DataView, crypto.subtle), so no file system or
 * Node module is needed here; the command line and the page decide where the bytes go.
 *
 * Layout: the sealed container of sealed-file.ts (magic "BEACONCK", schema CHECKPOINT_SCHEMA, SHA-256)
 * with the state less its arrays as the JSON header (which locates them in the body) and the float32
 * arrays, little-endian, back to back, as the body.
 *
 * Decoding checks, in this order, and names the first failure: the length of the preamble, the magic,
 * the schema version, the total length (truncated or trailing bytes), the checksum, the JSON, then
 * every field of the header (config values against the config table, array extents against the body).
 */
import { CONFIG_FIELDS, parseValue, withLaterDefaults, type TrainConfig } from '../config.ts';
import type { IterationRecord } from './iteration-record.ts';
import type { Json, PartState, SavedArray } from './state-parts.ts';
import type { TrainerState } from './trainer.ts';
import { readFloat32s, seal, unseal, writeFloat32s, type SealedFormat } from './sealed-file.ts';

/**
 * A run between two iterations (TrainingRun.state): the trainer's state, the records so far, and why it
 * halted (if so). Declared here, not in run.ts, so that the driver imports the format and not the reverse.
 */
export interface RunState extends TrainerState {
  /** Every record the run produced, in order (the iteration-0 evaluation included when it was taken). */
  records: IterationRecord[];
  halted: string | null;
}

export const CHECKPOINT_SCHEMA = 1;
/** A file that is not a readable checkpoint of this schema; the message says what is wrong with it. */
export class CheckpointError extends Error {}

/** An array's place in the body, in float32 elements. */
interface ArrayExtent {
  shape: number[];
  offset: number;
  length: number;
}

interface Header {
  schema: number;
  kind: 'beacon-live training run';
  iteration: number;
  config: TrainConfig;
  priorKey: string | null;
  halted: string | null;
  streams: RunState['streams'];
  parts: Record<string, { json: Json; arrays: Record<string, ArrayExtent> }>;
  records: IterationRecord[];
}

/** The first 8 bytes of every checkpoint file. */
export const CHECKPOINT_MAGIC = 'BEACONCK';
const FORMAT: SealedFormat = { magic: CHECKPOINT_MAGIC, schema: CHECKPOINT_SCHEMA, noun: 'checkpoint', error: CheckpointError };

// JSON has no NaN or ±Infinity, and records carry NaN (iteration 0's losses, SFT's PPO statistics):
// those numbers travel as the strings below, and only inside records.
const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };
const encodeNumber = (_k: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);
const decodeNumber = (_k: string, v: unknown) => (typeof v === 'string' && v in NON_FINITE ? NON_FINITE[v] : v);

/** The run's state as checkpoint bytes. */
export async function encodeCheckpoint(state: RunState): Promise<ArrayBuffer> {
  const arrays: SavedArray[] = [];
  let offset = 0;
  const parts: Header['parts'] = {};
  for (const [name, part] of Object.entries(state.parts)) {
    const extents: Record<string, ArrayExtent> = {};
    for (const [key, a] of Object.entries(part.arrays)) {
      extents[key] = { shape: a.shape, offset, length: a.values.length };
      arrays.push(a);
      offset += a.values.length;
    }
    parts[name] = { json: part.json, arrays: extents };
  }
  const records = JSON.parse(JSON.stringify(state.records, encodeNumber)) as IterationRecord[];
  const header: Header = {
    schema: CHECKPOINT_SCHEMA,
    kind: 'beacon-live training run',
    iteration: state.iteration,
    config: state.config,
    priorKey: state.priorKey,
    halted: state.halted,
    streams: state.streams,
    parts,
    records,
  };
  return seal(FORMAT, JSON.stringify(header), offset * 4, (body) => {
    let at = 0;
    for (const a of arrays) {
      writeFloat32s(body, at, a.values);
      at += a.values.length * 4;
    }
  });
}

/** The run's state from checkpoint bytes; a CheckpointError says what is wrong with bad bytes. */
export async function decodeCheckpoint(buffer: ArrayBuffer): Promise<RunState> {
  const { header, body } = await unseal(FORMAT, buffer, decodeNumber);
  return readHeader(header, body);
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;

/** Checks every header field and gathers the arrays from the body. */
function readHeader(h: unknown, body: DataView): RunState {
  const fail = (field: string, what: string): never => {
    throw new CheckpointError(`header field ${field} ${what}`);
  };
  if (!isObject(h)) return fail('(root)', 'must be a JSON object');
  if (h.schema !== CHECKPOINT_SCHEMA) fail('schema', `is ${JSON.stringify(h.schema)}, the preamble says ${CHECKPOINT_SCHEMA}`);
  if (!isCount(h.iteration)) fail('iteration', `must be a non-negative integer, got ${JSON.stringify(h.iteration)}`);
  if (!isObject(h.config)) return fail('config', 'must be an object');
  const config: Record<string, unknown> = {};
  // A checkpoint older than a later setting ran at its default (config.ts `LATER_KEYS`).
  const stored = withLaterDefaults(h.config);
  for (const spec of CONFIG_FIELDS) {
    const parsed = parseValue(spec.key, spec.kind, stored[spec.key], true);
    if ('error' in parsed) fail(`config.${spec.key}`, `is invalid: ${parsed.error}`);
    else config[spec.key] = parsed.value;
  }
  for (const key of Object.keys(h.config)) if (!(key in config)) fail(`config.${key}`, 'is not a setting of this build');
  if (h.priorKey !== null && typeof h.priorKey !== 'string') fail('priorKey', 'must be a string or null');
  if (h.halted !== null && typeof h.halted !== 'string') fail('halted', 'must be a string or null');
  if (!isObject(h.streams)) return fail('streams', 'must be an object');
  for (const [k, s] of Object.entries(h.streams)) {
    if (!isObject(s) || !isCount(s.seed) || !Array.isArray(s.words)) fail(`streams.${k}`, 'must be { seed, words }');
  }
  if (!isObject(h.parts)) return fail('parts', 'must be an object');
  const floats = body.byteLength / 4;
  const parts: Record<string, PartState> = {};
  for (const [name, p] of Object.entries(h.parts)) {
    if (!isObject(p) || !isObject(p.arrays)) return fail(`parts.${name}`, 'must be { json, arrays }');
    const arrays: Record<string, SavedArray> = {};
    for (const [key, e] of Object.entries(p.arrays)) {
      const where = `parts.${name}.arrays.${key}`;
      if (!isObject(e) || !isCount(e.offset) || !isCount(e.length) || !Array.isArray(e.shape) || !e.shape.every(isCount))
        return fail(where, 'must be { shape, offset, length } with non-negative integers');
      const shape = e.shape as number[];
      if (shape.reduce((n, d) => n * d, 1) !== e.length) fail(where, `has shape [${shape.join(', ')}] but ${e.length} values`);
      if ((e.offset as number) + (e.length as number) > floats) fail(where, `lies outside the body (${floats} values)`);
      const values = readFloat32s(body, (e.offset as number) * 4, e.length as number);
      arrays[key] = { shape, values };
    }
    parts[name] = { json: (p.json ?? null) as Json, arrays };
  }
  if (!Array.isArray(h.records)) return fail('records', 'must be an array');
  h.records.forEach((r, i) => {
    if (!isObject(r) || !isCount(r.iteration)) fail(`records[${i}]`, 'must be a record with an iteration');
  });
  return {
    iteration: h.iteration as number,
    config: config as unknown as TrainConfig,
    priorKey: h.priorKey as string | null,
    halted: h.halted as string | null,
    streams: h.streams as RunState['streams'],
    parts,
    records: h.records as IterationRecord[],
  };
}
