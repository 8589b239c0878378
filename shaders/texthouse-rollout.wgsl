// A whole TextHouse rollout in one dispatch: one workgroup per run plays its episode to the end,
// step after step: the acting pass and the draw (lib/rollout.wgsl), then TextHouse's step
// (lib/texthouse.wgsl, the same function the per-step kernel texthouse-step calls) by one invocation.
// Before the loop the run's reset record is copied in (lib/rollout.wgsl startRun) and its mask, features and key written.
// A finished run leaves the loop: its later step slots are never read (the replay stops at its end).

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::rollout::{RolloutShape, startRun, runPlays, actAndRecord, recordMilestone};
import package::lib::texthouse::{TextHouseConfig, textHouseStep, EPISODE_WORDS, E_DONE, E_STEPS, E_MILESTONE, E_STATE_KEY};

struct Params {
  numEpisodes: u32,
  hiddenSize: u32,
  scale: f32,
  seedRuns: u32,
  maxSteps: u32,
  numRec: u32,
  numObj: u32,
  numActions: u32,
  idleCommands: u32,
  obsDim: u32,
  actionDim: u32,
  numCandidates: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) workgroupId: vec3<u32>, @builtin(num_workgroups) numWorkgroups: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let b = workgroupIndex(workgroupId, numWorkgroups);
  let config = TextHouseConfig(params.maxSteps, params.numRec, params.numObj, params.numActions, params.idleCommands);
  if (b >= params.numEpisodes) {
    return;
  }
  let shape = RolloutShape(params.numEpisodes, params.seedRuns, params.obsDim, params.actionDim, params.numCandidates, params.hiddenSize, params.scale, EPISODE_WORDS, E_DONE, E_STEPS, E_MILESTONE, E_STATE_KEY, params.maxSteps);
  if (local == 0u) {
    startRun(b, shape);
    textHouseStep(b, 0u, false, config);
  }
  for (var t = 0u; t < params.maxSteps; t++) {
    if (!runPlays(b, local, shape)) {
      break;
    }
    let action = actAndRecord(b, t, local, shape);
    if (local == 0u) {
      textHouseStep(b, u32(action), true, config);
      recordMilestone(b, t, shape);
    }
  }
}
