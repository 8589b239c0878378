// The lean acting pass: the policy's masked logits of one step, in one dispatch (src/policy/policy.ts):
//
//   h = tanh(tanh(obs · W1 + b1) · W2 + b2)                 observation embedding
//   e = tanh(feat · V1 + c1) · V2 + c2                      each candidate's embedding
//   logits[b, a] = (h[b] · e[b, a]) · scale, −1e9 where inadmissible      (scale = 1/√H)
//
// One workgroup per episode; its invocations share the hidden units (unit j is computed by invocation
// j mod WORKGROUP_SIZE), and h · e is summed by a tree in workgroup memory. Every candidate is embedded,
// admissible or not, so control flow stays uniform around the barriers; masking happens at the end.
// Weights come as one flat buffer in `Policy.variables` order: W1, b1, W2, b2, V1, c1, V2, c2.
// tanh here is WGSL's; tfjs computes 2σ(2z) − 1: the same function, rounded differently (~1e-7).

struct Params {
  numEpisodes: u32,
  obsDim: u32,
  actionDim: u32,
  numCandidates: u32,
  hiddenSize: u32,
  scale: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read> obs: array<f32>;
@group(0) @binding(3) var<storage, read> actionFeatures: array<f32>;
@group(0) @binding(4) var<storage, read> mask: array<u32>;
@group(0) @binding(5) var<storage, read_write> logits: array<f32>;

override WORKGROUP_SIZE: u32 = 64;

/** Largest hidden size the settings allow (src/config.ts hiddenSize). */
const MAX_HIDDEN = 512u;
const MASKED_LOGIT = -1e9;

var<workgroup> h: array<f32, MAX_HIDDEN>;
var<workgroup> hidden: array<f32, MAX_HIDDEN>;
var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(
  @builtin(workgroup_id) wg: vec3<u32>,
  @builtin(num_workgroups) grid: vec3<u32>,
  @builtin(local_invocation_index) lid: u32,
) {
  // One workgroup per episode; surplus workgroups of a 2-D grid do nothing (uniformly, so no barrier
  // is skipped by part of a workgroup).
  let b = wg.y * grid.x + wg.x;
  if (b >= params.numEpisodes) {
    return;
  }
  let H = params.hiddenSize;
  let D = params.obsDim;
  let F = params.actionDim;
  let A = params.numCandidates;
  let w1 = 0u;
  let b1 = w1 + D * H;
  let w2 = b1 + H;
  let b2 = w2 + H * H;
  let v1 = b2 + H;
  let c1 = v1 + F * H;
  let v2 = c1 + H;
  let c2 = v2 + H * H;

  // Observation tower.
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var z = weights[b1 + j];
    for (var i = 0u; i < D; i++) {
      z += obs[b * D + i] * weights[w1 + i * H + j];
    }
    hidden[j] = tanh(z);
  }
  workgroupBarrier();
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var z = weights[b2 + j];
    for (var k = 0u; k < H; k++) {
      z += hidden[k] * weights[w2 + k * H + j];
    }
    h[j] = tanh(z);
  }
  workgroupBarrier();

  for (var a = 0u; a < A; a++) {
    let row = (b * A + a) * F;
    for (var j = lid; j < H; j += WORKGROUP_SIZE) {
      var z = weights[c1 + j];
      for (var i = 0u; i < F; i++) {
        z += actionFeatures[row + i] * weights[v1 + i * H + j];
      }
      hidden[j] = tanh(z);
    }
    workgroupBarrier();
    var dot = 0.0;
    for (var j = lid; j < H; j += WORKGROUP_SIZE) {
      var z = weights[c2 + j];
      for (var k = 0u; k < H; k++) {
        z += hidden[k] * weights[v2 + k * H + j];
      }
      dot += h[j] * z;
    }
    partial[lid] = dot;
    workgroupBarrier();
    for (var stride = WORKGROUP_SIZE / 2u; stride > 0u; stride /= 2u) {
      if (lid < stride) {
        partial[lid] += partial[lid + stride];
      }
      workgroupBarrier();
    }
    if (lid == 0u) {
      logits[b * A + a] = select(MASKED_LOGIT, partial[0] * params.scale, mask[b * A + a] != 0u);
    }
    workgroupBarrier();
  }
}
