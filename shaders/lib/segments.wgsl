// What the advantage kernels that walk groups of runs share (segment-scan writes, group-reduce reads):
// the batch's group and run offsets (bindings 1 and 2), the per-run segment word and the segment
// partial sums, docs/maths.md §2–4. src/gpu/segment-scan.ts reads SegmentPartial's stride from here.

@group(0) @binding(1) var<storage, read> groupOffsets: array<i32>;
@group(0) @binding(2) var<storage, read> runOffsets: array<i32>;

// runSegments: bit 31 set when the run ends in an incomplete segment (tail); low bits = K_i.
const HAS_TAIL: u32 = 0x80000000u;

// A partial sum of r over one segment, shifted by its first term: (first, Σ (r − first), count,
// Σ (r − first)²). A mean rebuilt from it is bit-exact when all values are equal (see
// src/advantages/group-stats.ts).
struct SegmentPartial {
  first: f32,
  shiftedSum: f32,
  count: u32,
  shiftedSquares: f32,
}
