/**
 * The dictionary of a GPU rollout's candidate feature rows, built on the GPU (shaders/lib/
 * candidate_dictionary.wgsl): the whole-episode kernel enters every candidate of every step it plays,
 * `candidate-ranks` numbers the distinct rows in order of first use in the run-major batch, and
 * `candidate-rows` gives the fused update each (step, candidate)'s row. The numbering is the host
 * layout's (update-batch.ts, `renumberByFirstUse` over the replay's dictionary), so the update reads
 * the same rows and features without the host writing S × A row ids (docs/maths.md §4, "The distinct
 * candidate rows").
 *
 * Rows are told apart by two 32-bit hashes of their float32 bits: rows that share the first but not
 * the second set a collision flag, and that batch takes the host's layout instead. Two distinct rows
 * sharing both (odds about K² / 2^65 for K distinct rows) would be merged, one row fewer than the
 * replay's dictionary holds: the rollout compares the two counts (gpu-rollout.ts).
 */
import { defineKernel, type KernelRunner } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

/** Slots of the table (DICTIONARY_SLOTS in the WGSL): the most distinct rows a rollout may have, twice over. */
export const DICTIONARY_SLOTS = 16384;
/** At most this many distinct rows keep the table's probes short; more and the batch takes the host's layout. */
export const DICTIONARY_MAX_ROWS = DICTIONARY_SLOTS / 2;
/** Words before the table (overflow, collision, count, spare) and the table's arrays per slot besides its row. */
const HEADER_WORDS = 4;
const SLOT_WORDS = 6;

/** First word of the slots' ranks (D_RANK in the WGSL). */
export const DICTIONARY_RANKS = HEADER_WORDS + 4 * DICTIONARY_SLOTS;

/** First word of the pair records (dictionaryPairs in the WGSL), for rows of `actionDim` floats. */
export function dictionaryPairs(actionDim: number): number {
  return HEADER_WORDS + DICTIONARY_SLOTS * (SLOT_WORDS + actionDim);
}

/** Bytes of the dictionary's buffer for `pairs` step-major (step, run, candidate) pairs. */
export function dictionaryBytes(actionDim: number, pairs: number): number {
  return 4 * (dictionaryPairs(actionDim) + pairs);
}

/**
 * Bytes of the dictionary's buffer with the rollout's published candidate embeddings after the pair
 * records: one record of 1 + `hiddenSize` words per slot (shaders/lib/rollout_candidates.wgsl), each row's
 * embedding computed once per rollout and read by every run that meets it.
 */
export function dictionaryWithEmbeddingsBytes(actionDim: number, pairs: number, hiddenSize: number): number {
  return dictionaryBytes(actionDim, pairs) + 4 * DICTIONARY_SLOTS * (hiddenSize + 1);
}

/** Bytes of the header and the table, which the host zeroes before each rollout (not the pair records). */
export function dictionaryTableBytes(actionDim: number): number {
  return 4 * dictionaryPairs(actionDim);
}

/**
 * Records the zeroing of what a rollout builds in the dictionary `table` (kept: more than 4 bytes) for
 * `pairs` pairs: its header and table, and the published embeddings where the buffer holds them (the
 * pair records are all written by the rollout). A seed batch's binding holds one dictionary per seed:
 * `at` and `size` name one seed's bytes.
 */
export function clearDictionary(encoder: GPUCommandEncoder, table: GPUBuffer, actionDim: number, pairs: number, at = 0, size = table.size): void {
  if (size <= 4) return;
  encoder.clearBuffer(table, at, dictionaryTableBytes(actionDim));
  const embeddingsAt = dictionaryBytes(actionDim, pairs);
  if (size > embeddingsAt) encoder.clearBuffer(table, at + embeddingsAt, size - embeddingsAt);
}

/** What the host reads of the dictionary after a rollout: its header. */
export interface DictionaryHeader {
  /** A row found no free slot. */
  overflow: boolean;
  /** Two rows shared a slot's first hash but not the second. */
  collision: boolean;
  /** Distinct rows. */
  count: number;
}

export const DICTIONARY_HEADER_BYTES = 4 * HEADER_WORDS;

export function readDictionaryHeader(words: Uint32Array): DictionaryHeader {
  return { overflow: words[0] !== 0, collision: words[1] !== 0, count: words[2] };
}

/** Why the header's dictionary cannot stand for the batch's candidate layout, or null. */
export function dictionaryRefusal(header: DictionaryHeader): string | null {
  if (header.overflow) return `the rollout's candidate rows filled the GPU dictionary's ${DICTIONARY_SLOTS} slots`;
  if (header.collision) return "two of the rollout's candidate rows shared a hash in the GPU dictionary";
  if (header.count > DICTIONARY_MAX_ROWS) return `the rollout has ${header.count} distinct candidate rows, over the GPU dictionary's ${DICTIONARY_MAX_ROWS}`;
  return null;
}

/** One workgroup numbers the rows: the runner's workgroup size (the tree of none, just a wide loop). */
export const CANDIDATE_RANKS_WORKGROUP = 256;

export const CANDIDATE_RANKS = defineKernel({
  name: 'candidate-ranks',
  params: uniformFields([['actionDim', 'u32']]),
  storage: [
    ['candidateTable', 'read_write'],
    ['features', 'read_write'],
  ],
});

export const CANDIDATE_ROWS = defineKernel({
  name: 'candidate-rows',
  params: uniformFields([
    ['numSteps', 'u32'],
    ['numRuns', 'u32'],
    ['numCandidates', 'u32'],
    ['actionDim', 'u32'],
    ['offsetBase', 'u32'],
    ['tableBase', 'u32'],
    ['stepBase', 'u32'],
  ]),
  storage: [
    ['runOffsets', 'read'],
    ['candidateTable', 'read'],
    ['rows', 'read_write'],
  ],
  seeds: true,
});

/** A GPU rollout's numbered dictionary, where the update reads its candidate rows and features. */
export interface GpuCandidates {
  /** The dictionary's buffer: header, table, pair records (valid until the collector's next rollout). */
  table: GPUBuffer;
  /** K × actionDim distinct rows in order of first use (a buffer of DICTIONARY_SLOTS rows). */
  features: GPUBuffer;
  /** K. */
  numRows: number;
}

/**
 * Records the dispatch that writes each (step, candidate)'s row of the run-major batch into `rows`
 * (S × A int32, −1 where not admissible), on `runner` (made from CANDIDATE_ROWS with `workgroup`
 * invocations per workgroup).
 */
export function recordCandidateRows(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  workgroup: number,
  candidates: GpuCandidates,
  shape: { numSteps: number; numRuns: number; numCandidates: number; actionDim: number },
  offsets: GPUBuffer,
  into: { rows: GPUBuffer },
): void {
  const bound = { runOffsets: offsets, candidateTable: candidates.table, rows: into.rows };
  recordCandidateRowParts(pass, runner, workgroup, bound, [{ ...shape, offsetBase: 0, tableBase: 0, stepBase: 0 }]);
}

/** One seed's part of joined candidate rows: its shape, where its offsets and dictionary start, where its rows go (× numCandidates). */
export type CandidateRowsPart = {
  numSteps: number;
  numRuns: number;
  numCandidates: number;
  actionDim: number;
  offsetBase: number;
  tableBase: number;
  stepBase: number;
};

/** As `recordCandidateRows`, every seed's rows in one dispatch (the kernel's seed axis), from joined offsets and dictionaries. */
export function recordCandidateRowParts(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  workgroup: number,
  bound: { runOffsets: GPUBuffer; candidateTable: GPUBuffer; rows: GPUBuffer },
  parts: readonly CandidateRowsPart[],
): void {
  const workgroups = Math.max(...parts.map((p) => Math.ceil((p.numSteps * p.numCandidates) / workgroup)));
  runner.record(pass, runner.prepareSeeds(bound, parts), workgroups, parts.length);
}
