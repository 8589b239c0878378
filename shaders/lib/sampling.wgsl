// One episode's action drawn from the policy's masked softmax: u from the counter-based generator
// Philox4x32-10 at (counter, key), then the inverse CDF over the admissible candidates with weights
// exp(logit − max). The log-probability is under the same masked softmax. src/gpu/counter-rng.ts
// `sampleFromLogits` is the TypeScript twin, bit for bit up to `exp` at the boundaries.
// Imported by sample-actions (one invocation per episode, per step) and by the whole-episode rollout
// kernels (lib/rollout.wgsl), so both draw the same action from the same logits.

import package::lib::philox::{philox4x32, unitFloat};

// Most candidates a step can have (src/gpu/policy-logits.ts MAX_CANDIDATES).
const MAX_CANDIDATES = 64u;

struct Draw {
  action: i32,
  logProb: f32,
  u: f32,
}

// The draw among the first `count` candidates; action −1 when none is admissible.
fn drawCandidate(logits: array<f32, MAX_CANDIDATES>, admissible: array<bool, MAX_CANDIDATES>, count: u32, counter: vec4<u32>, key: vec2<u32>) -> Draw {
  var chosen = -1;
  var maxLogit = 0.0;
  for (var a = 0u; a < count; a++) {
    if (admissible[a] && (chosen < 0 || logits[a] > maxLogit)) {
      maxLogit = logits[a];
      chosen = i32(a);
    }
  }
  if (chosen < 0) {
    return Draw(-1, 0.0, 0.0);
  }
  var total = 0.0;
  for (var a = 0u; a < count; a++) {
    if (admissible[a]) {
      total += exp(logits[a] - maxLogit);
    }
  }
  let u = unitFloat(philox4x32(counter, key).x);
  let threshold = u * total;
  var running = 0.0;
  for (var a = 0u; a < count; a++) {
    if (!admissible[a]) {
      continue;
    }
    chosen = i32(a);
    running += exp(logits[a] - maxLogit);
    if (threshold < running) {
      break;
    }
  }
  return Draw(chosen, (logits[u32(chosen)] - maxLogit) - log(total), u);
}
