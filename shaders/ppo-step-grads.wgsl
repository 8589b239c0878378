// The fused PPO update, kernel 3 of 7: the reductions over the minibatch's rows.
//
//   dW1 = obsᵀ · dz1, db1 = Σ dz1, dW2 = a1ᵀ · dz2, db2 = Σ dz2        into the gradient buffer
//   de  = dSᵀ · h                                                    the candidate embeddings' gradient
//
// One invocation per output value, summing over the M rows in order.

// ---- shared helpers of the fused PPO update (the same text at the top of every ppo-*.wgsl) ----
// One Params struct for the update's seven kernels (src/gpu/fused-ppo.ts FUSED_PPO_PARAMS), written
// once per minibatch. Weights, gradients and Adam's moments are flat, in `Policy.variables` order:
// W1 [D, H], b1, W2 [H, H], b2, V1 [F, H], c1, V2 [H, H], c2. The work buffer holds one minibatch's
// activations and deltas at offsets that depend on its size M (workOffsets).

struct Params {
  numSteps: u32,
  batchSize: u32,
  permOffset: u32,
  numRows: u32,
  obsDim: u32,
  actionDim: u32,
  hiddenSize: u32,
  numActions: u32,
  scale: f32,
  clipLow: f32,
  clipHigh: f32,
  clipRatio: f32,
  entropyCoef: f32,
  klCoef: f32,
  maxGradNorm: f32,
  learningRate: f32,
  beta1: f32,
  beta2: f32,
  epsilon: f32,
  statsRow: u32,
  statsRows: u32,
  weightCount: u32,
}

struct WeightOffsets { w1: u32, b1: u32, w2: u32, b2: u32, v1: u32, c1: u32, v2: u32, c2: u32 }

fn weightOffsets() -> WeightOffsets {
  let H = params.hiddenSize;
  var o: WeightOffsets;
  o.w1 = 0u;
  o.b1 = params.obsDim * H;
  o.w2 = o.b1 + H;
  o.b2 = o.w2 + H * H;
  o.v1 = o.b2 + H;
  o.c1 = o.v1 + params.actionDim * H;
  o.v2 = o.c1 + H;
  o.c2 = o.v2 + H * H;
  return o;
}

// a1, h, dz2, dz1: [M, H] per minibatch row; g1, e, de, du1: [K, H] per distinct candidate row;
// dS: [M, K] the scores' gradient; stats: [M, 4] per row (min surrogate, entropy, k3 KL, clipped).
struct WorkOffsets { a1: u32, h: u32, dz2: u32, dz1: u32, g1: u32, e: u32, de: u32, du1: u32, dS: u32, stats: u32 }

fn workOffsets() -> WorkOffsets {
  let MH = params.batchSize * params.hiddenSize;
  let KH = params.numRows * params.hiddenSize;
  var o: WorkOffsets;
  o.a1 = 0u;
  o.h = MH;
  o.dz2 = 2u * MH;
  o.dz1 = 3u * MH;
  o.g1 = 4u * MH;
  o.e = o.g1 + KH;
  o.de = o.e + KH;
  o.du1 = o.de + KH;
  o.dS = o.du1 + KH;
  o.stats = o.dS + params.batchSize * params.numRows;
  return o;
}

// The state buffer: Adam's β1^t, β2^t, the step's bias corrections 1 − β1^t and 1 − β2^t, the
// gradient norm, then one row of statistics per minibatch from STATE_ROWS on.
const STATE_ACC_BETA1 = 0u;
const STATE_ACC_BETA2 = 1u;
const STATE_CORRECTION1 = 2u;
const STATE_CORRECTION2 = 3u;
const STATE_GRAD_NORM = 4u;
const STATE_ROWS = 8u;

/** tanh as tfjs computes it on webgpu: finite for every input (WGSL's tanh may give NaN far out). */
fn safeTanh(x: f32) -> f32 {
  let e = exp(-2.0 * abs(x));
  return sign(x) * (1.0 - e) / (1.0 + e);
}

/** A linear invocation index over a 1-D or 2-D grid of workgroups. */
fn invocation(wg: vec3<u32>, grid: vec3<u32>, lid: u32) -> u32 {
  return (wg.y * grid.x + wg.x) * WORKGROUP_SIZE + lid;
}
// ---- end of shared helpers ----

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> obs: array<f32>;
@group(0) @binding(2) var<storage, read> perm: array<u32>;
@group(0) @binding(3) var<storage, read_write> work: array<f32>;
@group(0) @binding(4) var<storage, read_write> grads: array<f32>;

override WORKGROUP_SIZE: u32 = 64;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let q = invocation(wg, grid, lid);
  let M = params.batchSize;
  let H = params.hiddenSize;
  let D = params.obsDim;
  let w = weightOffsets();
  let o = workOffsets();
  if (q < D * H) {
    let r = q / H;
    let j = q % H;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += obs[perm[params.permOffset + i] * D + r] * work[o.dz1 + i * H + j];
    }
    grads[w.w1 + q] = sum;
  } else if (q < D * H + H) {
    let j = q - D * H;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.dz1 + i * H + j];
    }
    grads[w.b1 + j] = sum;
  } else if (q < D * H + H + H * H) {
    let p = q - (D * H + H);
    let r = p / H;
    let j = p % H;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.a1 + i * H + r] * work[o.dz2 + i * H + j];
    }
    grads[w.w2 + p] = sum;
  } else if (q < D * H + 2u * H + H * H) {
    let j = q - (D * H + H + H * H);
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.dz2 + i * H + j];
    }
    grads[w.b2 + j] = sum;
  } else if (q < D * H + 2u * H + H * H + params.numRows * H) {
    let p = q - (D * H + 2u * H + H * H);
    let k = p / H;
    let j = p % H;
    let K = params.numRows;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.dS + i * K + k] * work[o.h + i * H + j];
    }
    work[o.de + p] = sum;
  }
}
