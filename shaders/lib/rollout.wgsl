// What the whole-episode rollout kernels (gridhouse-rollout; one workgroup per run, looping over the
// steps) share: the record bindings, whether the run plays a step, and the step's action: the acting
// pass of src/policy/policy.ts with its matmuls shared by the workgroup, then the masked-softmax draw
// of lib/sampling.wgsl by one invocation. Weights come as one flat buffer in `Policy.variables` order
// (W1, b1, W2, b2, V1, c1, V2, c2), as for policy-logits.wgsl; each logit is summed in the same order
// as there, so both give the same float32 values. The environment's step is the kernel's: its
// bindings 1 and 3–6 (lib/env_step.wgsl) are the environment's table and buffers.
//
// Uniform control flow: every barrier is reached by the whole workgroup; a run's end is shared
// through `workgroupUniformLoad`, so its workgroup leaves the step loop together.

import package::lib::dispatch::WORKGROUP_SIZE;
import package::lib::env_step::{episodes, mask, obs, actionFeatures};
import package::lib::policy::{MAX_HIDDEN, weightOffsets};
import package::lib::sampling::{MAX_CANDIDATES, drawCandidate};
import package::lib::candidate_dictionary::{DICTIONARY_SLOTS, D_OVERFLOW, D_KEYS, D_HASH_MAX, D_HASH_MIN, D_FIRST_USE, D_ROWS, dictionaryPairs};

// Step-major records: the action and its log-probability of run b at step t at t · numEpisodes + b.
// The action record holds the action below MILESTONE_FLAG and, in that bit, whether the milestone
// detector fired at the step (recordMilestone); after its maxSteps · numEpisodes actions come the
// keys of the states they were taken in, at the same slots (for the metrics on the GPU,
// shaders/credit-metrics.wgsl: one record rather than one binding more).
@group(0) @binding(2) var<storage, read_write> actionRecord: array<i32>;
@group(0) @binding(7) var<storage, read> weights: array<f32>;
@group(0) @binding(8) var<storage, read_write> logProbRecord: array<f32>;
// Step-major observations, run b's at step t from (t · numEpisodes + b) · obsDim: the update gathers its
// batch's rows from them on the GPU (shaders/ppo-gather.wgsl). Bound to a buffer too small for a
// slot (a batch over the binding limit), the kernel records none.
@group(0) @binding(9) var<storage, read_write> obsRecord: array<f32>;
// The dictionary of the rollout's candidate rows and each pair's slot (lib/candidate_dictionary.wgsl),
// zeroed by the host before the dispatch. Bound to a buffer too small for the pairs (a batch over the
// binding limit), the kernel records none.
@group(0) @binding(10) var<storage, read_write> candidateTable: array<atomic<u32>>;

const NOT_ADMISSIBLE = -1e9;

// The action record's bit for the step's milestone flag (src/trainer/rollout-records.ts MILESTONE_FLAG).
const MILESTONE_FLAG = 0x10000;

// What the shared part reads of its kernel's uniforms, and where the run's record keeps its fields.
struct RolloutShape {
  numEpisodes: u32,
  obsDim: u32,
  actionDim: u32,
  numCandidates: u32,
  hiddenSize: u32,
  scale: f32,
  key: vec2<u32>,
  recordWords: u32,
  doneField: u32,
  stepsField: u32,
  milestoneField: u32,
  stateKeyField: u32,
  maxSteps: u32,
}

var<workgroup> firstLayer: array<f32, MAX_HIDDEN>;
var<workgroup> hidden: array<f32, MAX_HIDDEN>;
var<workgroup> stepLogits: array<f32, MAX_CANDIDATES>;
var<workgroup> playing: u32;

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
    actionRecord[t * r.numEpisodes + b] |= MILESTONE_FLAG;
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

// MurmurHash3's step for one word: its low bits reach the high ones and back (a float's low mantissa
// bits are mostly zero, so a plain multiplicative hash such as FNV-1a would leave the key's low bits,
// the slot, the same for every row).
fn murmurWord(h: u32, word: u32) -> u32 {
  var k = word * 0xcc9e2d51u;
  k = (k << 15u) | (k >> 17u);
  k *= 0x1b873593u;
  var x = h ^ k;
  x = (x << 13u) | (x >> 19u);
  return x * 5u + 0xe6546b64u;
}

// MurmurHash3's finish over `words` words.
fn murmurFinal(h: u32, words: u32) -> u32 {
  var x = h ^ (words * 4u);
  x ^= x >> 16u;
  x *= 0x85ebca6bu;
  x ^= x >> 13u;
  x *= 0xc2b2ae35u;
  return x ^ (x >> 16u);
}

// Enters run b's candidate a at step t into the dictionary: the row's slot (claimed by the first to
// come, which writes the row), its first use in the run-major order (b · maxSteps + t) · A + a, and
// the pair's record. Rows that share a slot's first hash but not its second set no flag here: the
// slot keeps both hashes' extremes and candidate-ranks compares them.
fn enterCandidate(b: u32, t: u32, a: u32, admissible: bool, r: RolloutShape) {
  let F = r.actionDim;
  let A = r.numCandidates;
  let pair = (t * r.numEpisodes + b) * A + a;
  let pairs = dictionaryPairs(F);
  if (pairs + (pair + 1u) > arrayLength(&candidateTable)) {
    return;
  }
  let base = (b * A + a) * F;
  // Two MurmurHash3 (x86, 32-bit) hashes of the row's words under two seeds.
  var hash = 0u;
  var check = 0x9e3779b9u;
  for (var i = 0u; i < F; i++) {
    let word = bitcast<u32>(actionFeatures[base + i]);
    hash = murmurWord(hash, word);
    check = murmurWord(check, word);
  }
  hash = murmurFinal(hash, F);
  check = murmurFinal(check, F);
  let key = select(hash, 1u, hash == 0u); // 0 marks an empty slot
  var slot = key & (DICTIONARY_SLOTS - 1u);
  var found = false;
  // Linear probing; a weak exchange may fail without cause, so a probe retries its slot until it is taken.
  for (var probe = 0u; probe < 2u * DICTIONARY_SLOTS; probe++) {
    let claim = atomicCompareExchangeWeak(&candidateTable[D_KEYS + slot], 0u, key);
    if (claim.exchanged) {
      for (var i = 0u; i < F; i++) {
        atomicStore(&candidateTable[D_ROWS + slot * F + i], bitcast<u32>(actionFeatures[base + i]));
      }
      found = true;
      break;
    }
    if (claim.old_value == key) {
      found = true;
      break;
    }
    if (claim.old_value != 0u) {
      slot = (slot + 1u) & (DICTIONARY_SLOTS - 1u);
    }
  }
  if (!found) {
    atomicStore(&candidateTable[D_OVERFLOW], 1u);
    atomicStore(&candidateTable[pairs + pair], 0u);
    return;
  }
  // The same rows come back at every step of every run: a load first keeps most of these read-modify-
  // writes, which contend on a few hundred words, from happening at all (each would change nothing).
  if (atomicLoad(&candidateTable[D_HASH_MAX + slot]) != check || atomicLoad(&candidateTable[D_HASH_MIN + slot]) != ~check) {
    atomicMax(&candidateTable[D_HASH_MAX + slot], check);
    atomicMax(&candidateTable[D_HASH_MIN + slot], ~check);
  }
  let firstUse = ~((b * r.maxSteps + t) * A + a);
  if (atomicLoad(&candidateTable[D_FIRST_USE + slot]) < firstUse) {
    atomicMax(&candidateTable[D_FIRST_USE + slot], firstUse);
  }
  atomicStore(&candidateTable[pairs + pair], select(0u, slot + 1u, admissible));
}

// Run b's action at step t, drawn and recorded by invocation 0 (which gets it; the others get −1).
fn actAndRecord(b: u32, t: u32, local: u32, r: RolloutShape) -> i32 {
  let H = r.hiddenSize;
  let D = r.obsDim;
  let F = r.actionDim;
  let A = r.numCandidates;
  let o = weightOffsets(D, F, H);
  let slot = (t * r.numEpisodes + b) * D;
  if (slot + D <= arrayLength(&obsRecord)) {
    for (var i = local; i < D; i += WORKGROUP_SIZE) {
      obsRecord[slot + i] = obs[b * D + i];
    }
  }
  // Observation tower, a hidden unit per invocation (strided): h = tanh(tanh(obs · W1 + b1) · W2 + b2).
  for (var j = local; j < H; j += WORKGROUP_SIZE) {
    var z = weights[o.b1 + j];
    for (var i = 0u; i < D; i++) {
      z += obs[b * D + i] * weights[o.w1 + i * H + j];
    }
    firstLayer[j] = tanh(z);
  }
  workgroupBarrier();
  for (var j = local; j < H; j += WORKGROUP_SIZE) {
    var z = weights[o.b2 + j];
    for (var k = 0u; k < H; k++) {
      z += firstLayer[k] * weights[o.w2 + k * H + j];
    }
    hidden[j] = tanh(z);
  }
  workgroupBarrier();
  // Candidate tower, a candidate per invocation (strided), dotted with h as its second layer goes.
  for (var a = local; a < A; a += WORKGROUP_SIZE) {
    let pair = b * A + a;
    enterCandidate(b, t, a, mask[pair] != 0u, r);
    if (mask[pair] == 0u) {
      stepLogits[a] = NOT_ADMISSIBLE;
      continue;
    }
    var embedding: array<f32, MAX_HIDDEN>;
    for (var j = 0u; j < H; j++) {
      var z = weights[o.c1 + j];
      for (var i = 0u; i < F; i++) {
        z += actionFeatures[pair * F + i] * weights[o.v1 + i * H + j];
      }
      embedding[j] = tanh(z);
    }
    var dot = 0.0;
    for (var j = 0u; j < H; j++) {
      var z = weights[o.c2 + j];
      for (var k = 0u; k < H; k++) {
        z += embedding[k] * weights[o.v2 + k * H + j];
      }
      dot += hidden[j] * z;
    }
    stepLogits[a] = dot * r.scale;
  }
  workgroupBarrier();
  if (local != 0u) {
    return -1;
  }
  var rowLogits: array<f32, MAX_CANDIDATES>;
  var admissible: array<bool, MAX_CANDIDATES>;
  for (var a = 0u; a < A; a++) {
    rowLogits[a] = stepLogits[a];
    admissible[a] = mask[b * A + a] != 0u;
  }
  let counter = vec4<u32>(b, episodes[b * r.recordWords + r.stepsField], 0u, 0u);
  var draw = drawCandidate(rowLogits, admissible, A, counter, r.key);
  if (draw.action < 0) {
    // No admissible candidate (no environment has such a state): the environment ignores the action.
    draw.action = 0;
    draw.logProb = 0.0;
  }
  actionRecord[t * r.numEpisodes + b] = draw.action;
  actionRecord[(r.maxSteps + t) * r.numEpisodes + b] = bitcast<i32>(episodes[b * r.recordWords + r.stateKeyField]);
  logProbRecord[t * r.numEpisodes + b] = draw.logProb;
  return draw.action;
}
