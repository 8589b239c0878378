/**
 * The run file ("Save run" / "Open run"): every panel of a race with the page settings that define it,
 * so that a run prepared on one machine continues, or replays its charts, on another, offline.
 *
 * Format, schema RUN_FILE_SCHEMA = 1: the sealed container of src/trainer/sealed-file.ts (magic
 * "BEACONRN", SHA-256 over preamble and content) with
 *   header  UTF-8 JSON {
 *             schema: 1, kind: "beacon-live run file", savedAt: ISO 8601 time,
 *             settings: the page's URL query (without "?"), read back through the settings tables,
 *             panels: [{ panel, iteration, offset, length }]   (byte extents in the body)
 *           }
 *   body    each panel's saved runs (src/trainer/seed-checkpoints.ts: its checkpoint file, or a bundle of
 *           one checkpoint per seed; each checksummed itself), back to back.
 *
 * Decoding names the first thing that is wrong: the container (truncated, not a run file, another
 * schema, corrupted), a header field and its allowed values, a setting, or a panel's checkpoint.
 */
import { CheckpointError } from '../trainer/checkpoint.ts';
import { decodeSeedCheckpoints } from '../trainer/seed-checkpoints.ts';
import { seal, unseal, type SealedFormat } from '../trainer/sealed-file.ts';
import { readPageState, type PageState } from './url-state.ts';

export const RUN_FILE_SCHEMA = 1;
/** The file name extension the page offers and suggests. */
export const RUN_FILE_EXTENSION = '.beaconrun';

/** A file that is not a usable run file; the message says what is wrong with it. */
export class RunFileError extends Error {}

const FORMAT: SealedFormat = { magic: 'BEACONRN', schema: RUN_FILE_SCHEMA, noun: 'run file', error: RunFileError };
const KIND = 'beacon-live run file';

export interface RunFilePanel {
  /** The panel's name (a raced method). */
  panel: string;
  /** Completed iterations in its checkpoint. */
  iteration: number;
  /** Its checkpoint file's bytes. */
  bytes: ArrayBuffer;
}

export interface RunFile {
  /** The page's URL query that the run was trained with. */
  settings: string;
  /** Those settings as the page reads them. */
  state: PageState;
  savedAt: string;
  panels: RunFilePanel[];
}

/** The run file of `panels`, trained with the page settings `settings` (a URL query). */
export function encodeRunFile(settings: string, panels: readonly RunFilePanel[], savedAt = new Date()): Promise<ArrayBuffer> {
  let offset = 0;
  const extents = panels.map(({ panel, iteration, bytes }) => {
    const e = { panel, iteration, offset, length: bytes.byteLength };
    offset += bytes.byteLength;
    return e;
  });
  const header = { schema: RUN_FILE_SCHEMA, kind: KIND, savedAt: savedAt.toISOString(), settings, panels: extents };
  return seal(FORMAT, JSON.stringify(header), offset, (body) => {
    const out = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    for (const [i, p] of panels.entries()) out.set(new Uint8Array(p.bytes), extents[i].offset);
  });
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;

/** A run file's settings and panels; a RunFileError names what is wrong with bad bytes. */
export async function decodeRunFile(buffer: ArrayBuffer): Promise<RunFile> {
  const { header: h, body } = await unseal(FORMAT, buffer);
  const fail = (field: string, what: string): never => {
    throw new RunFileError(`header field ${field} ${what}`);
  };
  if (!isObject(h)) return fail('(root)', 'must be a JSON object');
  if (h.schema !== RUN_FILE_SCHEMA) fail('schema', `is ${JSON.stringify(h.schema)}, the preamble says ${RUN_FILE_SCHEMA}`);
  if (h.kind !== KIND) fail('kind', `must be ${JSON.stringify(KIND)}, got ${JSON.stringify(h.kind)}`);
  if (typeof h.savedAt !== 'string' || Number.isNaN(Date.parse(h.savedAt))) fail('savedAt', `must be an ISO 8601 time, got ${JSON.stringify(h.savedAt)}`);
  if (typeof h.settings !== 'string') return fail('settings', `must be a URL query string, got ${JSON.stringify(h.settings)}`);
  const state = readPageState(h.settings);
  if (state.issues.length > 0) fail('settings', `has a setting this build does not accept: ${state.issues[0].field}: ${state.issues[0].message}`);
  const raced = state.page.methods as readonly string[];
  if (!Array.isArray(h.panels)) return fail('panels', 'must be an array');
  const panels: RunFilePanel[] = [];
  for (const [i, p] of h.panels.entries()) {
    const where = `panels[${i}]`;
    if (!isObject(p)) return fail(where, 'must be { panel, iteration, offset, length }');
    if (typeof p.panel !== 'string' || !raced.includes(p.panel))
      fail(`${where}.panel`, `must be one of the raced methods (${raced.join(', ')}), got ${JSON.stringify(p.panel)}`);
    if (panels.some((q) => q.panel === p.panel)) fail(`${where}.panel`, `names ${JSON.stringify(p.panel)} a second time`);
    for (const k of ['iteration', 'offset', 'length'] as const)
      if (!isCount(p[k])) fail(`${where}.${k}`, `must be a non-negative integer, got ${JSON.stringify(p[k])}`);
    const { offset, length } = p as { offset: number; length: number };
    if (offset + length > body.byteLength) fail(where, `lies outside the body (${body.byteLength} bytes)`);
    const bytes = body.buffer.slice(body.byteOffset + offset, body.byteOffset + offset + length) as ArrayBuffer;
    let iteration: number;
    try {
      const states = await decodeSeedCheckpoints(bytes);
      if (states.length !== state.page.seeds) fail(where, `(${p.panel as string}): holds ${states.length} seed(s), the settings ask for ${state.page.seeds}`);
      iteration = Math.min(...states.map((s) => s.iteration));
    } catch (e) {
      if (!(e instanceof CheckpointError)) throw e;
      return fail(where, `(${p.panel as string}): its checkpoint is unusable: ${e.message}`);
    }
    if (iteration !== p.iteration) fail(`${where}.iteration`, `is ${String(p.iteration)}, its checkpoint's is ${iteration}`);
    panels.push({ panel: p.panel as string, iteration, bytes });
  }
  if (panels.length === 0) fail('panels', 'must hold at least one panel');
  return { settings: h.settings, state: { config: state.config, page: state.page }, savedAt: h.savedAt as string, panels };
}
