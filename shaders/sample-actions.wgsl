// Action sampling of a GPU rollout: one invocation per episode draws u from the counter-based
// generator Philox4x32-10, keyed (seed, iteration), counter (run, step, 0, 0), and picks a candidate
// by inverse CDF over the admissible ones with weights exp(logit − max). It writes the action, its
// log-probability under the masked softmax and u itself (so a test can recompute every draw).
// src/gpu/counter-rng.ts is the TypeScript twin, bit for bit up to `exp` at the boundaries.
// Finished episodes get action 0, log-probability 0 and u = 0: the environment ignores them. The done
// flag and step count are read from the environment kernel's episode records (u32 words, a record of
// `recordWords` per episode, the fields at `doneField` and `stepsField`), so nothing is copied out.

struct Params {
  numEpisodes: u32,
  numCandidates: u32,
  seed: u32,
  iteration: u32,
  recordWords: u32,
  doneField: u32,
  stepsField: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> mask: array<u32>;
@group(0) @binding(3) var<storage, read> episodes: array<u32>;
@group(0) @binding(4) var<storage, read_write> actions: array<i32>;
@group(0) @binding(5) var<storage, read_write> logProbs: array<f32>;
@group(0) @binding(6) var<storage, read_write> draws: array<f32>;

override WORKGROUP_SIZE: u32 = 64;

// High 32 bits of a 32 × 32-bit product from 16-bit halves (WGSL has no mulhi); every partial fits.
fn mulHi(a: u32, b: u32) -> u32 {
  let al = a & 0xffffu;
  let ah = a >> 16u;
  let bl = b & 0xffffu;
  let bh = b >> 16u;
  let lh = al * bh;
  let hl = ah * bl;
  let mid = ((al * bl) >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  return ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
}

fn philox4x32(counter: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
  var x = counter;
  var k = key;
  for (var r = 0u; r < 10u; r++) {
    if (r > 0u) {
      k += vec2<u32>(0x9e3779b9u, 0xbb67ae85u);
    }
    let hi0 = mulHi(0xd2511f53u, x.x);
    let lo0 = 0xd2511f53u * x.x;
    let hi1 = mulHi(0xcd9e8d57u, x.z);
    let lo1 = 0xcd9e8d57u * x.z;
    x = vec4<u32>(hi1 ^ x.y ^ k.x, lo1, hi0 ^ x.w ^ k.y, lo0);
  }
  return x;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(
  @builtin(workgroup_id) wg: vec3<u32>,
  @builtin(num_workgroups) grid: vec3<u32>,
  @builtin(local_invocation_index) lid: u32,
) {
  let b = (wg.y * grid.x + wg.x) * WORKGROUP_SIZE + lid;
  if (b >= params.numEpisodes) {
    return;
  }
  let A = params.numCandidates;
  let row = b * A;
  var chosen = -1;
  var maxLogit = 0.0;
  for (var a = 0u; a < A; a++) {
    if (mask[row + a] != 0u && (chosen < 0 || logits[row + a] > maxLogit)) {
      maxLogit = logits[row + a];
      chosen = i32(a);
    }
  }
  if (episodes[b * params.recordWords + params.doneField] != 0u || chosen < 0) {
    actions[b] = 0;
    logProbs[b] = 0.0;
    draws[b] = 0.0;
    return;
  }
  var total = 0.0;
  for (var a = 0u; a < A; a++) {
    if (mask[row + a] != 0u) {
      total += exp(logits[row + a] - maxLogit);
    }
  }
  let u = f32(philox4x32(vec4<u32>(b, episodes[b * params.recordWords + params.stepsField], 0u, 0u), vec2<u32>(params.seed, params.iteration)).x >> 8u) / 16777216.0;
  let threshold = u * total;
  var running = 0.0;
  for (var a = 0u; a < A; a++) {
    if (mask[row + a] == 0u) {
      continue;
    }
    chosen = i32(a);
    running += exp(logits[row + a] - maxLogit);
    if (threshold < running) {
      break;
    }
  }
  actions[b] = chosen;
  logProbs[b] = (logits[row + u32(chosen)] - maxLogit) - log(total);
  draws[b] = u;
}
