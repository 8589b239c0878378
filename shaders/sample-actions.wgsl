// Action sampling of a GPU rollout: one invocation per episode draws its action from the masked
// softmax (lib/sampling.wgsl `drawCandidate`), keyed (seed, iteration), counter (run, step, 0, 0). It
// writes the action, its log-probability and u itself (so a test can recompute every draw).
// Finished episodes get action 0, log-probability 0 and u = 0: the environment ignores them. The done
// flag and step count are read from the environment kernel's episode records (u32 words, a record of
// `recordWords` per episode, the fields at `doneField` and `stepsField`), so nothing is copied out.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::sampling::{MAX_CANDIDATES, Draw, drawCandidate};

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
  var rowLogits: array<f32, MAX_CANDIDATES>;
  var admissible: array<bool, MAX_CANDIDATES>;
  for (var a = 0u; a < A; a++) {
    rowLogits[a] = logits[row + a];
    admissible[a] = mask[row + a] != 0u;
  }
  let record = b * params.recordWords;
  var draw = Draw(-1, 0.0, 0.0);
  if (episodes[record + params.doneField] == 0u) {
    let counter = vec4<u32>(b, episodes[record + params.stepsField], 0u, 0u);
    draw = drawCandidate(rowLogits, admissible, A, counter, vec2<u32>(params.seed, params.iteration));
  }
  if (draw.action < 0) {
    draw = Draw(0, 0.0, 0.0);
  }
  actions[b] = draw.action;
  logProbs[b] = draw.logProb;
  draws[b] = draw.u;
}
