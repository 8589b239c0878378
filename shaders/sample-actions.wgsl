// Action sampling of a GPU rollout: one invocation per episode draws u from the counter-based
// generator Philox4x32-10, keyed (seed, iteration), counter (run, step, 0, 0), and picks a candidate
// by inverse CDF over the admissible ones with weights exp(logit − max). It writes the action, its
// log-probability under the masked softmax and u itself (so a test can recompute every draw).
// The generator lives in lib/philox.wgsl; src/gpu/counter-rng.ts is the TypeScript twin of both, bit
// for bit up to `exp` at the boundaries.
// Finished episodes get action 0, log-probability 0 and u = 0: the environment ignores them. The done
// flag and step count are read from the environment kernel's episode records (u32 words, a record of
// `recordWords` per episode, the fields at `doneField` and `stepsField`), so nothing is copied out.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::philox::{philox4x32, unitFloat};

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

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let b = invocationIndex(id);
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
  let u = unitFloat(philox4x32(vec4<u32>(b, episodes[b * params.recordWords + params.stepsField], 0u, 0u), vec2<u32>(params.seed, params.iteration)).x);
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
