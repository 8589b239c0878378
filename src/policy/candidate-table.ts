/**
 * Distinct candidate feature rows, found on the CPU.
 *
 * A batch holds many (step, candidate) pairs but few distinct candidate feature vectors (GridHouse: ~40k
 * pairs, under 100 distinct rows). The policy embeds each distinct row once and picks the pairs' scores
 * from an [M, K] score matrix, so the candidate tower's cost scales with K instead of M·A.
 *
 * Rows are equal when their float32 bit patterns are equal (so -0 and +0 are two rows: harmless, both
 * embed alike). Distinct rows are numbered in order of first appearance: deterministic.
 */

export interface CandidateTable {
  /** K × rowLen distinct rows, in order of first appearance. */
  rows: Float32Array;
  /** K. */
  count: number;
  /** Per input row: its index in `rows`. */
  rowOf: Int32Array;
}

/**
 * Distinct rows gathered row by row, over many calls: a rollout adds each step's candidates and every
 * step gets the ids of its rows in one table (numbered in order of first appearance), so the policy
 * embeds a row once per rollout instead of once per step.
 */
export class CandidateDictionary {
  private readonly words: number[] = []; // the distinct rows' float32 bit patterns, row after row
  private readonly buckets = new Map<number, number[]>(); // hash → distinct ids

  constructor(readonly rowLen: number) {}

  /** Distinct rows so far. */
  get count(): number {
    return this.words.length / this.rowLen;
  }

  /**
   * Writes into `ids` the id of each row of `data` (n rows of rowLen floats), adding rows not seen
   * before. `skip(r)`: row r needs no id (its id is left as it was).
   */
  addRows(data: Float32Array, ids: Int32Array, skip: (row: number) => boolean = () => false): void {
    const { rowLen, words, buckets } = this;
    const n = data.length / rowLen;
    const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
    for (let r = 0; r < n; r++) {
      if (skip(r)) continue;
      const base = r * rowLen;
      let h = 0x811c9dc5; // FNV-1a over the row's words
      for (let j = 0; j < rowLen; j++) h = Math.imul(h ^ bits[base + j], 0x01000193);
      let bucket = buckets.get(h);
      if (!bucket) buckets.set(h, (bucket = []));
      let id = -1;
      for (const k of bucket)
        if (sameRow(words, k * rowLen, bits, base, rowLen)) {
          id = k;
          break;
        }
      if (id < 0) {
        id = this.count;
        for (let j = 0; j < rowLen; j++) words.push(bits[base + j]);
        bucket.push(id);
      }
      ids[r] = id;
    }
  }

  /** Rows [from, count) as floats. */
  rows(from = 0): Float32Array {
    return new Float32Array(Uint32Array.from(this.words.slice(from * this.rowLen)).buffer);
  }
}

export function dedupeRows(data: Float32Array, rowLen: number): CandidateTable {
  const dictionary = new CandidateDictionary(rowLen);
  const rowOf = new Int32Array(data.length / rowLen);
  dictionary.addRows(data, rowOf);
  return { rows: dictionary.rows(), count: dictionary.count, rowOf };
}

/**
 * The table of `rowOf`'s rows alone, renumbered in order of first use in `rowOf`: for ids into `rows`
 * (K × rowLen) from a dictionary shared by more rows, the same table as `dedupeRows` of the rows the ids
 * stand for, without hashing them again.
 */
export function renumberByFirstUse(rowOf: Int32Array, rows: Float32Array, rowLen: number): CandidateTable {
  const renumbered = new Int32Array(rows.length / rowLen).fill(-1);
  const firstUses: number[] = [];
  const out = new Int32Array(rowOf.length);
  for (let i = 0; i < rowOf.length; i++) {
    const id = rowOf[i];
    if (renumbered[id] < 0) {
      renumbered[id] = firstUses.length;
      firstUses.push(id);
    }
    out[i] = renumbered[id];
  }
  const table = new Float32Array(firstUses.length * rowLen);
  firstUses.forEach((id, k) => table.set(rows.subarray(id * rowLen, (id + 1) * rowLen), k * rowLen));
  return { rows: table, count: firstUses.length, rowOf: out };
}

/**
 * Flat indices into an [M, K] score matrix for M steps × A candidates: pick[m·A + a] = m·K + k, where k
 * is the distinct row of step steps[m]'s candidate a (steps = null: step m itself).
 */
export function pickIndices(rowOf: Int32Array, numActions: number, numRows: number, steps: ArrayLike<number> | null = null, out?: Int32Array): Int32Array {
  const m = steps ? steps.length : rowOf.length / numActions;
  const pick = out ?? new Int32Array(m * numActions);
  for (let i = 0; i < m; i++) {
    const src = (steps ? steps[i] : i) * numActions;
    for (let a = 0; a < numActions; a++) pick[i * numActions + a] = i * numRows + rowOf[src + a];
  }
  return pick;
}

function sameRow(words: number[], a: number, bits: Uint32Array, b: number, len: number): boolean {
  for (let j = 0; j < len; j++) if (words[a + j] !== bits[b + j]) return false;
  return true;
}
