/**
 * The saved state of one page panel: its runs of every seed (the page setting `seeds`). One seed is a
 * plain checkpoint file (checkpoint.ts), so a single-seed panel's bytes are exactly what `npm run train
 * -- --resume` reads. Several seeds are bundled in the sealed container of sealed-file.ts:
 *
 *   magic "BEACONSD", schema SEED_CHECKPOINTS_SCHEMA = 1
 *   header  UTF-8 JSON { schema: 1, runs: [{ seed, iteration, offset, length }] }   (seed order)
 *   body    each run's checkpoint file, back to back (each checksummed itself)
 *
 * Decoding names the first thing that is wrong: the container, a header field, or a run's checkpoint.
 */
import { CHECKPOINT_MAGIC, CheckpointError, decodeCheckpoint, encodeCheckpoint, type RunState } from './checkpoint.ts';
import { seal, unseal, type SealedFormat } from './sealed-file.ts';

export const SEED_CHECKPOINTS_SCHEMA = 1;
/** The first 8 bytes of a seed bundle (a plain checkpoint starts with CHECKPOINT_MAGIC). */
export const SEED_BUNDLE_MAGIC = 'BEACONSD';
const FORMAT: SealedFormat = { magic: SEED_BUNDLE_MAGIC, schema: SEED_CHECKPOINTS_SCHEMA, noun: 'seed bundle', error: CheckpointError };

interface RunExtent {
  seed: number;
  iteration: number;
  offset: number;
  length: number;
}

/** The bytes of the runs `states` (one per seed, in seed order): a checkpoint for one, a bundle for more. */
export async function encodeSeedCheckpoints(states: readonly RunState[]): Promise<ArrayBuffer> {
  if (states.length === 0) throw new RangeError('no run to save');
  if (states.length === 1) return encodeCheckpoint(states[0]);
  const files = await Promise.all(states.map((s) => encodeCheckpoint(s)));
  let offset = 0;
  const runs: RunExtent[] = states.map((s, i) => {
    const e = { seed: s.config.seed, iteration: s.iteration, offset, length: files[i].byteLength };
    offset += files[i].byteLength;
    return e;
  });
  return seal(FORMAT, JSON.stringify({ schema: SEED_CHECKPOINTS_SCHEMA, runs }), offset, (body) => {
    const out = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    files.forEach((f, i) => out.set(new Uint8Array(f), runs[i].offset));
  });
}

/** The runs saved in `bytes` (a checkpoint or a seed bundle), in seed order; a CheckpointError names what is wrong. */
export async function decodeSeedCheckpoints(bytes: ArrayBuffer): Promise<RunState[]> {
  const magic = new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(8, bytes.byteLength)));
  if (magic === CHECKPOINT_MAGIC) return [await decodeCheckpoint(bytes)];
  const { header, body } = await unseal(FORMAT, bytes);
  const runs = (header as { runs?: unknown }).runs;
  if (!Array.isArray(runs) || runs.length < 2) throw new CheckpointError('the seed bundle\'s "runs" must be a list of at least 2 runs');
  const states: RunState[] = [];
  for (const [i, run] of runs.entries()) {
    const { seed, offset, length } = (run ?? {}) as Partial<RunExtent>;
    const whole = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
    if (!whole(offset) || !whole(length) || offset + length > body.byteLength) {
      throw new CheckpointError(`the seed bundle's run ${i + 1}: offset and length must be whole numbers inside the ${body.byteLength}-byte body`);
    }
    let state: RunState;
    try {
      state = await decodeCheckpoint(body.buffer.slice(body.byteOffset + offset, body.byteOffset + offset + length) as ArrayBuffer);
    } catch (e) {
      throw new CheckpointError(`the seed bundle's run ${i + 1} (seed ${String(seed)}): ${(e as Error).message}`);
    }
    if (state.config.seed !== seed)
      throw new CheckpointError(`the seed bundle's run ${i + 1} says seed ${String(seed)}, its checkpoint seed ${state.config.seed}`);
    states.push(state);
  }
  return states;
}
