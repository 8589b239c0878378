// Shop step, one invocation per episode: each plays its action of `actions` (applyActions = 1)
// or only writes its mask, features, observation and state key after a reset uploaded from TypeScript
// (applyActions = 0). The step itself is lib/shop.wgsl `shopStep`, which the whole-episode kernel
// shop-rollout calls too. Offsets: src/gpu/shop-step.ts.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::env_step::actions;
import package::lib::shop::{ShopConfig, shopStep};

struct Params {
  numEpisodes: u32,
  maxSteps: u32,
  numQueries: u32,
  numResults: u32,
  numProducts: u32,
  listingOptions: u32,
  applyActions: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let b = invocationIndex(id);
  if (b >= params.numEpisodes) {
    return;
  }
  shopStep(b, u32(actions[b]), params.applyActions != 0u, ShopConfig(params.maxSteps, params.numQueries, params.numResults, params.numProducts, params.listingOptions));
}
