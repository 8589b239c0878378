/**
 * WebShop's purchase reward (princeton-nlp/WebShop, web_agent_site/engine/goal.py get_reward), made
 * exact for the shop's discrete words (docs/maths.md §10):
 *
 *   r = r_type · (attributes matched + options matched + [price ≤ limit]) / (attributes + options + 1)
 *
 * with r_type 1 for the wanted type, 0.5 for the related type and 0 otherwise. A purchase succeeds iff
 * r = 1. "Goal-consistent" (BEACON's detector, _product_can_meet_goal) is the product-side half: the
 * wanted type, every wanted attribute, every wanted option value offered, the price within the limit.
 */
import { NUM_OPTION_DIMS, popcount, typeReward } from './catalog.ts';
import type { ShopState } from './state.ts';

/** Whether product p of episode b's line l could be bought for a reward of 1. */
export function goalConsistent(s: ShopState, bl: number, p: number): boolean {
  const i = bl * s.P + p;
  if (s.prodType[i] !== s.goalType[bl]) return false;
  const want = s.goalAttrs[bl];
  if ((s.prodAttrs[i] & want) !== want) return false;
  if (s.prodPrice[i] > s.limit[bl]) return false;
  const opts = s.prodOpts[i];
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    const v = s.goalOpt[bl * NUM_OPTION_DIMS + d];
    if (v >= 0 && (opts & (1 << v)) === 0) return false;
  }
  return true;
}

/** Whether every option value the instruction names is selected on episode b's open item page. */
export function optionsChosen(s: ShopState, b: number, bl: number): boolean {
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    const v = s.goalOpt[bl * NUM_OPTION_DIMS + d];
    if (v >= 0 && s.selected[b * NUM_OPTION_DIMS + d] !== v) return false;
  }
  return true;
}

/** WebShop's reward for buying product p of line bl with the options selected in episode b. */
export function purchaseReward(s: ShopState, b: number, bl: number, p: number): number {
  const i = bl * s.P + p;
  const want = s.goalAttrs[bl];
  const nAttrs = popcount(want);
  const attrsMatched = popcount(s.prodAttrs[i] & want);
  let nOptions = 0;
  let optionsMatched = 0;
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    const v = s.goalOpt[bl * NUM_OPTION_DIMS + d];
    if (v < 0) continue;
    nOptions++;
    if (s.selected[b * NUM_OPTION_DIMS + d] === v) optionsMatched++;
  }
  const priceOk = s.prodPrice[i] <= s.limit[bl] ? 1 : 0;
  return (typeReward(s.prodType[i], s.goalType[bl]) * (attrsMatched + optionsMatched + priceOk)) / (nAttrs + nOptions + 1);
}
