// GridHouse step, one invocation per episode: each plays its action of `actions` (applyActions = 1)
// or only writes its mask, features and state key after a reset uploaded from TypeScript
// (applyActions = 0). The step itself is lib/gridhouse.wgsl `gridHouseStep`, which the whole-episode
// kernel gridhouse-rollout calls too. Offsets: src/gpu/gridhouse-step.ts.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::env_step::actions;
import package::lib::gridhouse::{GridHouseConfig, gridHouseStep};

struct Params {
  numEpisodes: u32,
  maxSteps: u32,
  maxMilestones: u32,
  applyActions: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let b = invocationIndex(id);
  if (b >= params.numEpisodes) {
    return;
  }
  gridHouseStep(b, u32(actions[b]), params.applyActions != 0u, GridHouseConfig(params.maxSteps, params.maxMilestones));
}
