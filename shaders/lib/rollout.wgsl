// What the whole-episode rollout kernels (gridhouse-rollout, texthouse-rollout, shop-rollout; one
// workgroup per run, looping over the steps) share: the record bindings, whether the run plays a step,
// and the step's action: the acting pass of src/policy/policy.ts, written as lib/acting.wgsl says (its
// order of summation, its safeTanh), then the masked-softmax draw of lib/sampling.wgsl by one
// invocation. The environment's step is the kernel's: its bindings 1 and 3–6 (lib/env_step.wgsl) are
// the environment's table and buffers.
//
// The acting pass keeps every lane busy and reads each weight once per step: a lane per hidden unit
// computes that unit of the observation tower and, for every candidate that needs it, of the candidate
// tower (the weight loaded once, used for each candidate of the chunk). A candidate row's embedding is
// computed once per distinct row per rollout and published in the dictionary (lib/rollout_candidates.wgsl);
// at most steps, a step reads its candidates' embeddings there and dots them with h (a lane per
// candidate). Barriers per step: two for whether the run plays (the environment's writes made visible),
// one after each tower layer of the observation, one for the count of rows to compute, and two per
// chunk of rows computed (rare after a rollout's first steps).
//
// Uniform control flow: every barrier is reached by the whole workgroup; a run's end and the count of
// rows to compute are shared through `workgroupUniformLoad`, so the workgroup leaves its loops together.

import package::lib::dispatch::WORKGROUP_SIZE;
import package::lib::env_step::{episodes, mask, obs, actionFeatures};
import package::lib::acting::{MAX_HIDDEN, WeightOffsets, policyWeightOffsets, tanhUnit, linearUnit, score};
import package::lib::sampling::{MAX_CANDIDATES, drawCandidate};
import package::lib::rollout_candidates::{useSeedTable, RowHash, rowHash, enterCandidate, runCacheRemember, embeddingRecord, embeddingState, embeddingWord, publishEmbedding, EMBEDDING_PUBLISHED, EMBEDDING_CLAIMED};

// The seed axis: the kernel plays the runs of one or more seeds, each an independent training run of
// `seedRuns` runs with its own policy, draw key, dictionary and records. Workgroup b plays run
// b mod seedRuns of seed b / seedRuns. The environment's buffers (episodes, mask, obs, features)
// hold every seed's runs in a row (b indexes them); the records hold each seed's block in turn, laid
// out as that seed's records alone, so a seed's block is what a rollout of that seed alone writes.
//
// Step-major records, per seed: the action and its log-probability of run r at step t at t · seedRuns + r.
// The action record holds the action below MILESTONE_FLAG and, in that bit, whether the milestone
// detector fired at the step (recordMilestone); after its maxSteps · seedRuns actions come the
// keys of the states they were taken in, at the same slots (for the metrics on the GPU,
// shaders/credit-metrics.wgsl: one record rather than one binding more).
@group(0) @binding(2) var<storage, read_write> actionRecord: array<i32>;
@group(0) @binding(7) var<storage, read> weights: array<f32>;
@group(0) @binding(8) var<storage, read_write> logProbRecord: array<f32>;
// Step-major observations, per seed, run r's at step t from (t · seedRuns + r) · obsDim: the update gathers its
// batch's rows from them on the GPU (shaders/ppo-gather.wgsl). Bound to a buffer too small for a
// slot (a batch over the binding limit), the kernel records none.
@group(0) @binding(9) var<storage, read_write> obsRecord: array<f32>;
const NOT_ADMISSIBLE = -1e9;

// The action record's bit for the step's milestone flag (src/trainer/rollout-records.ts MILESTONE_FLAG).
const MILESTONE_FLAG = 0x10000;

// What the shared part reads of its kernel's uniforms, and where the run's record keeps its fields.
struct RolloutShape {
  numEpisodes: u32, // every seed's runs
  seedRuns: u32, // runs per seed
  obsDim: u32,
  actionDim: u32,
  numCandidates: u32,
  hiddenSize: u32,
  scale: f32,
  recordWords: u32,
  doneField: u32,
  stepsField: u32,
  milestoneField: u32,
  stateKeyField: u32,
  maxSteps: u32,
}

// Workgroup memory (about 14 KiB with the run's cache, under WebGPU's default 16 KiB): h, the step's
// logits, and a tile that holds the observation's first layer, then the candidate rows being computed:
// their first layers in its first half, their embeddings in its second.
const TILE_FLOATS = 2048u;
// Most candidate rows computed together (a private accumulator each per lane); fewer where H is wide.
const CHUNK_ROWS = 16u;
var<workgroup> hidden: array<f32, MAX_HIDDEN>;
var<workgroup> tile: array<f32, TILE_FLOATS>;
var<workgroup> stepLogits: array<f32, MAX_CANDIDATES>;
// The candidates whose embedding the run computes this step (their index, PUBLISH_FLAG where it publishes
// it too, in the record of `computeRecords`) and their count.
var<workgroup> toCompute: array<u32, MAX_CANDIDATES>;
var<workgroup> computeRecords: array<u32, MAX_CANDIDATES>;
var<workgroup> computeCount: atomic<u32>;
var<workgroup> playing: u32;

const PUBLISH_FLAG = 0x80000000u;

fn seedOf(b: u32, r: RolloutShape) -> u32 {
  return b / r.seedRuns;
}

fn runOf(b: u32, r: RolloutShape) -> u32 {
  return b % r.seedRuns;
}

// Run b's step t in its seed's step-major records of one word a step (the log-probabilities).
fn stepSlot(b: u32, t: u32, r: RolloutShape) -> u32 {
  return (seedOf(b, r) * r.maxSteps + t) * r.seedRuns + runOf(b, r);
}

// Run b's step t in the action record, whose seed blocks hold the actions, then the state keys.
fn actionSlot(b: u32, t: u32, r: RolloutShape) -> u32 {
  return stepSlot(b, t, r) + seedOf(b, r) * r.maxSteps * r.seedRuns;
}

// Seed s's draw key (src/gpu/counter-rng.ts): two words each after the episodes' reset records, which
// take at most 2 · numEpisodes · recordWords + numEpisodes words (src/trainer/gpu-rollout-sizes.ts).
fn seedKey(s: u32, r: RolloutShape) -> vec2<u32> {
  let at = 2u * r.numEpisodes * r.recordWords + r.numEpisodes + 2u * s;
  return vec2<u32>(episodes[at], episodes[at + 1u]);
}

// Run b's reset record into its live record, by invocation 0 (which then steps the environment):
// after the B live records the host uploads each run's index into its reset records (B words), then
// the distinct reset records themselves (the runs of a group, reset alike, share one), so what crosses
// the bus grows with the distinct records, not with the runs.
fn startRun(b: u32, r: RolloutShape) {
  let W = r.recordWords;
  let B = r.numEpisodes;
  let reset = B * W + B + episodes[B * W + b] * W;
  for (var i = 0u; i < W; i++) {
    episodes[b * W + i] = episodes[reset + i];
  }
}

// After run b's step t (by the invocation that stepped it): whether the milestone detector fired, as
// the environment's step left it in the run's record, into the step's action record.
fn recordMilestone(b: u32, t: u32, r: RolloutShape) {
  if (episodes[b * r.recordWords + r.milestoneField] != 0u) {
    actionRecord[actionSlot(b, t, r)] |= MILESTONE_FLAG;
  }
}

// Whether run b plays its next step, the same answer for the whole workgroup; also makes the
// environment's writes (one invocation's) visible to the others.
fn runPlays(b: u32, local: u32, r: RolloutShape) -> bool {
  storageBarrier();
  if (local == 0u) {
    playing = select(1u, 0u, episodes[b * r.recordWords + r.doneField] != 0u);
  }
  return workgroupUniformLoad(&playing) != 0u;
}

// A candidate's logit and whether its embedding was whole: h · e in unit order, e from the dictionary's
// record at `at` (`published`; a word still unwritten stops the read) or from the tile at `at`. One
// function for both, so a row gives the same bits whichever run computed it.
struct ScoreRead {
  logit: f32,
  complete: bool,
}

fn scoreOf(at: u32, published: bool, H: u32, scale: f32) -> ScoreRead {
  var dot = 0.0;
  for (var j = 0u; j < H; j++) {
    var value: f32;
    if (published) {
      let word = embeddingWord(at, j);
      if (word == 0u) {
        return ScoreRead(0.0, false);
      }
      value = bitcast<f32>(~word);
    } else {
      value = tile[at + j];
    }
    dot += hidden[j] * value;
  }
  return ScoreRead(score(dot, scale), true);
}

// The candidate tower for the `count` queued candidates of run b, in chunks: a hidden unit per invocation
// computes it for every row of the chunk (each weight loaded once for all of them), the first layer into
// the tile's first half, the embedding into its second (and into the dictionary where this run publishes
// it), then a lane per row dots it with h. Rows computed: the whole first layer, then each embedding.
fn computeRows(b: u32, local: u32, count: u32, o: WeightOffsets, r: RolloutShape) {
  let H = r.hiddenSize;
  let F = r.actionDim;
  let A = r.numCandidates;
  let half = TILE_FLOATS / 2u;
  let chunk = min(CHUNK_ROWS, half / H);
  for (var first = 0u; first < count; first += chunk) {
    let n = min(chunk, count - first);
    for (var j = local; j < H; j += WORKGROUP_SIZE) {
      var sums: array<f32, CHUNK_ROWS>;
      for (var i = 0u; i < F; i++) {
        let w = weights[o.v1 + i * H + j];
        for (var m = 0u; m < n; m++) {
          let a = toCompute[first + m] & ~PUBLISH_FLAG;
          sums[m] += actionFeatures[(b * A + a) * F + i] * w;
        }
      }
      for (var m = 0u; m < n; m++) {
        tile[m * H + j] = tanhUnit(sums[m], weights[o.c1 + j]);
      }
    }
    workgroupBarrier();
    for (var j = local; j < H; j += WORKGROUP_SIZE) {
      var sums: array<f32, CHUNK_ROWS>;
      for (var k = 0u; k < H; k++) {
        let w = weights[o.v2 + k * H + j];
        for (var m = 0u; m < n; m++) {
          sums[m] += tile[m * H + k] * w;
        }
      }
      for (var m = 0u; m < n; m++) {
        let value = linearUnit(sums[m], weights[o.c2 + j]);
        tile[half + m * H + j] = value;
        if ((toCompute[first + m] & PUBLISH_FLAG) != 0u) {
          publishEmbedding(computeRecords[first + m], j, value);
        }
      }
    }
    workgroupBarrier();
    if (local < n) {
      let a = toCompute[first + local] & ~PUBLISH_FLAG;
      stepLogits[a] = scoreOf(half + local * H, false, H, r.scale).logit;
    }
    // The next chunk overwrites the tile only once every lane has read it.
    workgroupBarrier();
  }
}

// The first word of run b's policy in the weights: the seeds' policies lie one after the other (the
// published embeddings, which are one policy's, lie in the seed's own dictionary: useSeedTable).
fn runPolicyBase(b: u32, r: RolloutShape) -> u32 {
  let words = policyWeightOffsets(0u, r.obsDim, r.actionDim, r.hiddenSize).c2 + r.hiddenSize;
  return seedOf(b, r) * words;
}

// Run b's action at step t, drawn and recorded by invocation 0 (which gets it; the others get −1).
fn actAndRecord(b: u32, t: u32, local: u32, r: RolloutShape) -> i32 {
  let H = r.hiddenSize;
  let D = r.obsDim;
  let F = r.actionDim;
  let A = r.numCandidates;
  let o = policyWeightOffsets(runPolicyBase(b, r), D, F, H);
  useSeedTable(seedOf(b, r), r.numEpisodes / r.seedRuns);
  let slot = stepSlot(b, t, r) * D;
  if (slot + D <= arrayLength(&obsRecord)) {
    for (var i = local; i < D; i += WORKGROUP_SIZE) {
      obsRecord[slot + i] = obs[b * D + i];
    }
  }
  // Observation tower's first layer, a hidden unit per invocation (strided); the step's candidates
  // entered into the dictionary, a candidate per invocation.
  if (local == 0u) {
    atomicStore(&computeCount, 0u);
  }
  for (var j = local; j < H; j += WORKGROUP_SIZE) {
    var z = 0.0;
    for (var i = 0u; i < D; i++) {
      z += obs[b * D + i] * weights[o.w1 + i * H + j];
    }
    tile[j] = tanhUnit(z, weights[o.b1 + j]);
  }
  let pairs = r.maxSteps * r.seedRuns * A;
  let run = runOf(b, r);
  var row: RowHash;
  var slotPlusOne = 0u;
  var remember = false;
  let a = local;
  let admissible = a < A && mask[b * A + a] != 0u;
  if (a < A) {
    let base = (b * A + a) * F;
    row = rowHash(base, F);
    let entered = enterCandidate(row, base, F, (run * r.maxSteps + t) * A + a, (t * r.seedRuns + run) * A + a, admissible);
    slotPlusOne = entered.slotPlusOne;
    remember = entered.remember;
  }
  workgroupBarrier();
  // h, a hidden unit per invocation; the rows first seen remembered for the run's later steps.
  for (var j = local; j < H; j += WORKGROUP_SIZE) {
    var z = 0.0;
    for (var k = 0u; k < H; k++) {
      z += tile[k] * weights[o.w2 + k * H + j];
    }
    hidden[j] = tanhUnit(z, weights[o.b2 + j]);
  }
  if (remember) {
    runCacheRemember(row, slotPlusOne);
  }
  workgroupBarrier();
  // Each admissible candidate's logit from its published embedding, or its row queued to compute.
  if (a < A) {
    stepLogits[a] = NOT_ADMISSIBLE;
    if (admissible) {
      let record = embeddingRecord(slotPlusOne, F, pairs, H);
      let state = embeddingState(record, row.check);
      var complete = false;
      if (state == EMBEDDING_PUBLISHED) {
        let found = scoreOf(record, true, H, r.scale);
        complete = found.complete;
        stepLogits[a] = found.logit;
      }
      if (!complete) {
        let n = atomicAdd(&computeCount, 1u);
        toCompute[n] = a | select(0u, PUBLISH_FLAG, state == EMBEDDING_CLAIMED);
        computeRecords[n] = record;
      }
    }
  }
  let count = workgroupUniformLoad(&computeCount);
  computeRows(b, local, count, o, r);
  if (local != 0u) {
    return -1;
  }
  return drawAndRecord(b, t, r);
}

// Run b's action at step t drawn from the step's logits and recorded with its log-probability and the
// key of the state it was taken in, by invocation 0.
fn drawAndRecord(b: u32, t: u32, r: RolloutShape) -> i32 {
  let A = r.numCandidates;
  var rowLogits: array<f32, MAX_CANDIDATES>;
  var admissible: array<bool, MAX_CANDIDATES>;
  for (var a = 0u; a < A; a++) {
    rowLogits[a] = stepLogits[a];
    admissible[a] = mask[b * A + a] != 0u;
  }
  let counter = vec4<u32>(runOf(b, r), episodes[b * r.recordWords + r.stepsField], 0u, 0u);
  var draw = drawCandidate(rowLogits, admissible, A, counter, seedKey(seedOf(b, r), r));
  if (draw.action < 0) {
    // No admissible candidate (no environment has such a state): the environment ignores the action.
    draw.action = 0;
    draw.logProb = 0.0;
  }
  let slot = actionSlot(b, t, r);
  actionRecord[slot] = draw.action;
  actionRecord[slot + r.maxSteps * r.seedRuns] = bitcast<i32>(episodes[b * r.recordWords + r.stateKeyField]);
  logProbRecord[stepSlot(b, t, r)] = draw.logProb;
  return draw.action;
}
