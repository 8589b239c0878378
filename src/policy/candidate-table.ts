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

export function dedupeRows(data: Float32Array, rowLen: number): CandidateTable {
  const n = data.length / rowLen;
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  const rowOf = new Int32Array(n);
  const firstOf: number[] = []; // distinct id → its first input row
  const buckets = new Map<number, number[]>(); // hash → distinct ids
  for (let r = 0; r < n; r++) {
    const base = r * rowLen;
    let h = 0x811c9dc5; // FNV-1a over the row's words
    for (let j = 0; j < rowLen; j++) h = Math.imul(h ^ bits[base + j], 0x01000193);
    let bucket = buckets.get(h);
    if (!bucket) buckets.set(h, (bucket = []));
    let id = -1;
    for (const k of bucket) if (sameRow(bits, firstOf[k] * rowLen, base, rowLen)) { id = k; break; }
    if (id < 0) {
      id = firstOf.length;
      firstOf.push(r);
      bucket.push(id);
    }
    rowOf[r] = id;
  }
  const rows = new Float32Array(firstOf.length * rowLen);
  firstOf.forEach((r, k) => rows.set(data.subarray(r * rowLen, (r + 1) * rowLen), k * rowLen));
  return { rows, count: firstOf.length, rowOf };
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

function sameRow(bits: Uint32Array, a: number, b: number, len: number): boolean {
  for (let j = 0; j < len; j++) if (bits[a + j] !== bits[b + j]) return false;
  return true;
}
