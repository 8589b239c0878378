// What the environment step kernels (gridhouse-step, texthouse-step, shop-step) share: the bindings
// every environment reads and writes after its own params (0) and tables (1), the invocation's episode
// record (u32 words from `e`), and envs/episode-book.ts `record`. A kernel names its record's fields
// once, as a RecordFields constant, since each environment lays its record out its own way.

@group(0) @binding(2) var<storage, read> actions: array<i32>;
@group(0) @binding(3) var<storage, read_write> episodes: array<u32>;
@group(0) @binding(4) var<storage, read_write> mask: array<u32>;
@group(0) @binding(5) var<storage, read_write> obs: array<f32>;
@group(0) @binding(6) var<storage, read_write> actionFeatures: array<f32>;

var<private> e: u32; // first word of the invocation's episode record

fn ep(field: u32) -> u32 {
  return episodes[e + field];
}

fn setEp(field: u32, value: u32) {
  episodes[e + field] = value;
}

// A feature that is 1 when x holds, 0 otherwise.
fn flag01(x: bool) -> f32 {
  return select(0.0, 1.0, x);
}

// Where `record` finds its fields in an environment's episode record.
struct RecordFields {
  steps: u32,
  milestone: u32,
  progress: u32,
  dropped: u32,
  milestonesReached: u32,
  numMilestones: u32,
  done: u32,
  success: u32,
}

// envs/episode-book.ts record: one applied step, with dropout (docs/maths.md §6)
fn record(f: RecordFields, reached: bool, maxSteps: u32) {
  let steps = ep(f.steps) + 1u;
  setEp(f.steps, steps);
  setEp(f.milestone, 0u);
  if (reached) {
    let k = ep(f.progress);
    setEp(f.progress, k + 1u);
    if (((ep(f.dropped) >> k) & 1u) == 0u) {
      setEp(f.milestone, k + 1u);
      setEp(f.milestonesReached, ep(f.milestonesReached) + 1u);
    }
    if (k + 1u == ep(f.numMilestones)) {
      setEp(f.done, 1u);
      setEp(f.success, 1u);
    }
  }
  if (steps >= maxSteps) {
    setEp(f.done, 1u);
  }
}
