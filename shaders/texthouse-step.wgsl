// TextHouse step, one invocation per episode: each plays its action of `actions` (applyActions = 1)
// or only writes its mask, features, observation and state key after a reset uploaded from TypeScript
// (applyActions = 0). The step itself is lib/texthouse.wgsl `textHouseStep`, which the whole-episode kernel
// texthouse-rollout calls too. Offsets: src/gpu/texthouse-step.ts.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::env_step::actions;
import package::lib::texthouse::{TextHouseConfig, textHouseStep};

struct Params {
  numEpisodes: u32,
  maxSteps: u32,
  numRec: u32,
  numObj: u32,
  numActions: u32,
  idleCommands: u32,
  applyActions: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let b = invocationIndex(id);
  if (b >= params.numEpisodes) {
    return;
  }
  textHouseStep(b, u32(actions[b]), params.applyActions != 0u, TextHouseConfig(params.maxSteps, params.numRec, params.numObj, params.numActions, params.idleCommands));
}
