/**
 * Checkpoint files on disk for the Node commands: read with every failure reported as a
 * CheckpointError naming the file, written atomically.
 *
 * Atomic means a reader (or a resumed run) only ever sees a whole checkpoint: the bytes go to a
 * temporary file beside the target, are flushed to the disk, and only then renamed over it. A process
 * killed at any point leaves the previous checkpoint as it was (at worst with a stray temporary file
 * that the next write replaces).
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CheckpointError, decodeCheckpoint } from '../src/trainer/checkpoint.ts';
import type { RunState } from '../src/trainer/run.ts';
import { decodeSeedCheckpoints, SEED_BUNDLE_MAGIC } from '../src/trainer/seed-checkpoints.ts';

/** The run state in the checkpoint at `path`; a CheckpointError says what is wrong (and where). */
export function readCheckpointFile(path: string): Promise<RunState> {
  return readWith(path, decodeCheckpoint);
}

/**
 * The run states in the checkpoint at `path`, one per seed in seed order: a plain checkpoint (one
 * seed) or a seed bundle (src/trainer/seed-checkpoints.ts, written by `train --seeds K`).
 */
export function readSeedCheckpointFile(path: string): Promise<RunState[]> {
  // Anything but a seed bundle is read as a checkpoint, so that a foreign file is named as not a checkpoint.
  const bundle = (bytes: ArrayBuffer) => new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(8, bytes.byteLength))) === SEED_BUNDLE_MAGIC;
  return readWith(path, async (bytes) => (bundle(bytes) ? decodeSeedCheckpoints(bytes) : [await decodeCheckpoint(bytes)]));
}

async function readWith<T>(path: string, decode: (bytes: ArrayBuffer) => Promise<T>): Promise<T> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new CheckpointError(`cannot read checkpoint ${path}: ${(e as Error).message}`);
  }
  try {
    return await decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch (e) {
    if (e instanceof CheckpointError) throw new CheckpointError(`checkpoint ${path} is unusable: ${e.message}`);
    throw e;
  }
}

/** The temporary file a write to `path` goes through (one per process, so two writers never share one). */
export const temporaryPath = (path: string) => `${path}.${process.pid}.tmp`;

/**
 * Writes `bytes` to `path` atomically. `beforeRename` runs between the flushed temporary file and the
 * rename: the window in which a kill must leave the previous checkpoint intact (the tests kill there).
 */
export function writeCheckpointFile(path: string, bytes: ArrayBuffer, hooks: { beforeRename?: () => void } = {}): void {
  const tmp = temporaryPath(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, new Uint8Array(bytes));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    hooks.beforeRename?.();
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  syncDirectory(dirname(path));
}

/** Flushes the rename itself; some file systems refuse to open a directory, which costs only durability. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort: the rename is atomic either way
  }
}
