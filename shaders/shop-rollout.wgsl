// A whole Shop rollout in one dispatch: one workgroup per run plays its episode to the end,
// step after step: the acting pass and the draw (lib/rollout.wgsl), then Shop's step
// (lib/shop.wgsl, the same function the per-step kernel shop-step calls) by one invocation.
// Before the loop the run's reset record is copied in (lib/rollout.wgsl startRun) and its mask, features and key written.
// A finished run leaves the loop: its later step slots are never read (the replay stops at its end).

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::rollout::{RolloutShape, startRun, runPlays, actAndRecord, recordMilestone};
import package::lib::shop::{ShopConfig, shopStep, EPISODE_WORDS, E_DONE, E_STEPS, E_MILESTONE, E_STATE_KEY};

struct Params {
  numEpisodes: u32,
  hiddenSize: u32,
  scale: f32,
  seedRuns: u32,
  maxSteps: u32,
  numQueries: u32,
  numResults: u32,
  numProducts: u32,
  listingOptions: u32,
  obsDim: u32,
  actionDim: u32,
  numCandidates: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) workgroupId: vec3<u32>, @builtin(num_workgroups) numWorkgroups: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let b = workgroupIndex(workgroupId, numWorkgroups);
  let config = ShopConfig(params.maxSteps, params.numQueries, params.numResults, params.numProducts, params.listingOptions);
  if (b >= params.numEpisodes) {
    return;
  }
  let shape = RolloutShape(params.numEpisodes, params.seedRuns, params.obsDim, params.actionDim, params.numCandidates, params.hiddenSize, params.scale, EPISODE_WORDS, E_DONE, E_STEPS, E_MILESTONE, E_STATE_KEY, params.maxSteps);
  if (local == 0u) {
    startRun(b, shape);
    shopStep(b, 0u, false, config);
  }
  for (var t = 0u; t < params.maxSteps; t++) {
    if (!runPlays(b, local, shape)) {
      break;
    }
    let action = actAndRecord(b, t, local, shape);
    if (local == 0u) {
      shopStep(b, u32(action), true, config);
      recordMilestone(b, t, shape);
    }
  }
}
