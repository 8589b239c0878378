// Shop step of one episode (`shopStep`), the WGSL twin of envs/shop (pages.ts clicks and mask,
// milestones.ts Φ, reward.ts WebShop's graded purchase reward, features.ts, the state key of state.ts)
// and envs/episode-book.ts `record`. With applyActions = 1 a live episode applies its click, Φ tests the
// order's next milestone (docs/maths.md §2, §10), dropout hides it when its bit is set (§6), a purchase
// that misses a constraint or is the order's last ends the episode, so does the step limit; then mask,
// features, observation and key are rewritten. Finished episodes only clear `milestone`, as on the CPU.
// With applyActions = 0 (after a reset uploaded from TypeScript) every episode's mask, features,
// observation and key are written from scratch. Rewards come from the exact float32 fractions at the
// start of `tasks` (WGSL division is not correctly rounded). The caller's sampler only picks
// admissible clicks. Offsets: src/gpu/shop-step.ts (a test compares the tables).
// Imported by the per-step kernel shop-step and the whole-episode kernel shop-rollout.

import package::lib::env_step::{episodes, mask, obs, actionFeatures, e, ep, setEp, flag01, RecordFields, record};

// What a step needs of its kernel's uniforms.
struct ShopConfig {
  maxSteps: u32,
  numQueries: u32,
  numResults: u32,
  numProducts: u32,
  listingOptions: u32,
}

var<private> config: ShopConfig;
@group(0) @binding(1) var<storage, read> tasks: array<u32>;

// ---- Episode record (u32 words) ----
const EPISODE_WORDS = 32u;
const E_NLINES = 0u;
const E_NMS = 1u;
const E_DROPPED = 2u;
const E_PROGRESS = 3u;
const E_LINE = 4u;
const E_PAGE = 5u;
const E_QUERY = 6u;
const E_RESULTS_PAGE = 7u;
const E_ITEM = 8u;
const E_N_OPTION_SLOTS = 9u;
const E_SELECTED = 10u;
const E_OPTION_SLOT = 12u;
const E_LINE_REWARD = 22u;
const E_REWARD = 24u;
const E_STEPS = 25u;
const E_DONE = 26u;
const E_SUCCESS = 27u;
const E_MILESTONE = 28u;
const E_MILESTONES_REACHED = 29u;
const E_STATE_KEY = 30u;
const E_TASK = 31u;

// ---- Task table: the reward fractions, then per task block (E_TASK; a group's episodes share one) MAX_LINES line blocks ----
const REWARD_DENS = 20u;
const TASKS_START = 780u;
const LINE_WORDS = 213u;
const TASK_WORDS = 426u;
const T_GOAL_TYPE = 0u;
const T_GOAL_ATTRS = 1u;
const T_GOAL_OPT = 2u;
const T_LIMIT = 4u;
const T_QUERY_TYPE = 5u;
const T_QUERY_ATTRS = 13u;
const T_PROD_TYPE = 21u;
const T_PROD_ATTRS = 53u;
const T_PROD_PRICE = 85u;
const T_PROD_OPTS = 117u;
const T_RESULTS = 149u;
const RESULT_CAP = 32u;
const RESULTS_PER_WORD = 4u;

// ---- envs/shop/state.ts, config.ts, catalog.ts ----
const P_SEARCH = 0u;
const P_RESULTS = 1u;
const P_ITEM = 2u;
const PAGE_SIZE = 10u;
const LIST_SLOTS = 10u;
const S_NEXT = 10u;
const S_PREV = 11u;
const S_SEARCH = 12u;
const S_BACK = 13u;
const S_BUY = 14u;
const NUM_SLOTS = 15u;
const NUM_OPTION_DIMS = 2u;
const NUM_OPTION_VALUES = 10u;
const OPTION_DIM1_OFFSET = 6u;
const NUM_ATTRS = 16u;
const MILESTONES_PER_LINE = 4u;
const WORD_TYPE = 0u;
const WORD_ATTR = 12u;
const WORD_OPTION = 28u;
const CLICK_MOVED = 0u;
const CLICK_BOUGHT_NEXT = 1u;
const CLICK_BOUGHT_LAST = 2u;
const CLICK_BOUGHT_WRONG = 3u;

// ---- envs/shop/features.ts ----
const PRICE_SCALE = 2.0;
const K_QUERY = 0u;
const K_PRODUCT = 1u;
const K_NEXT = 2u;
const K_OPTION = 6u;
const K_BUY = 7u;
const A_KIND = 0u;
const A_WORDS = 8u;
const A_PRICE = 46u;
const A_PRICE_OK = 47u;
const A_OPT_DIM = 48u;
const A_SELECTED = 50u;
const A_BIAS = 51u;
const ACTION_DIM = 52u;
const O_PAGE = 0u;
const O_GOAL = 3u;
const O_LIMIT = 41u;
const O_LINE = 42u;
const O_DONE = 44u;
const O_SHOWN = 48u;
const O_SELECTED = 86u;
const O_PRICE = 96u;
const O_PRICE_OK = 97u;
const O_HAS_NEXT = 98u;
const O_HAS_PREV = 99u;
const OBS_DIM = 100u;

var<private> t0: u32; // first word of the invocation's task block

// First word of the current line's task block (state.ts lineIndex).
fn lineBlock() -> u32 {
  return t0 + ep(E_LINE) * LINE_WORDS;
}

fn goalOpt(bl: u32, d: u32) -> i32 {
  return bitcast<i32>(tasks[bl + T_GOAL_OPT + d]);
}

fn selected(d: u32) -> i32 {
  return bitcast<i32>(ep(E_SELECTED + d));
}

fn optionSlot(i: u32) -> u32 {
  return ep(E_OPTION_SLOT + i);
}

// pages.ts optionDim
fn optionDim(v: u32) -> u32 {
  return select(0u, 1u, v >= OPTION_DIM1_OFFSET);
}

// state.ts resultAt: pool index of the product at rank r of the current line's query q (a byte each,
// four to a word, lowest first: src/gpu/shop-step.ts packShopTasks)
fn resultAt(q: u32, r: u32) -> u32 {
  let i = q * RESULT_CAP + r;
  return (tasks[lineBlock() + T_RESULTS + i / RESULTS_PER_WORD] >> (8u * (i % RESULTS_PER_WORD))) & 0xffu;
}

// state.ts shownCount
fn shownCount() -> u32 {
  return min(PAGE_SIZE, config.numResults - ep(E_RESULTS_PAGE) * PAGE_SIZE);
}

fn hasNext() -> bool {
  return (ep(E_RESULTS_PAGE) + 1u) * PAGE_SIZE < config.numResults;
}

// reward.ts goalConsistent
fn goalConsistent(bl: u32, p: u32) -> bool {
  if (tasks[bl + T_PROD_TYPE + p] != tasks[bl + T_GOAL_TYPE]) {
    return false;
  }
  let want = tasks[bl + T_GOAL_ATTRS];
  if ((tasks[bl + T_PROD_ATTRS + p] & want) != want) {
    return false;
  }
  if (tasks[bl + T_PROD_PRICE + p] > tasks[bl + T_LIMIT]) {
    return false;
  }
  let opts = tasks[bl + T_PROD_OPTS + p];
  for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
    let v = goalOpt(bl, d);
    if (v >= 0 && (opts & (1u << u32(v))) == 0u) {
      return false;
    }
  }
  return true;
}

// reward.ts optionsChosen
fn optionsChosen(bl: u32) -> bool {
  for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
    let v = goalOpt(bl, d);
    if (v >= 0 && selected(d) != v) {
      return false;
    }
  }
  return true;
}

// catalog.ts typeReward, doubled: 2 same type, 1 related type, else 0
fn typeHalves(bought: u32, wanted: u32) -> u32 {
  if (bought == wanted) {
    return 2u;
  }
  return select(0u, 1u, (bought >> 1u) == (wanted >> 1u));
}

// pages.ts openItem
fn openItem(p: u32) {
  setEp(E_PAGE, P_ITEM);
  setEp(E_ITEM, p);
  for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
    setEp(E_SELECTED + d, 0xffffffffu);
  }
  let opts = tasks[lineBlock() + T_PROD_OPTS + p];
  var n = 0u;
  // Values are numbered dimension by dimension (catalog.ts OPTION_OFFSET), so one pass lists them in order.
  for (var v = 0u; v < NUM_OPTION_VALUES; v++) {
    if ((opts & (1u << v)) != 0u && n < LIST_SLOTS) {
      setEp(E_OPTION_SLOT + n, v);
      n++;
    }
  }
  setEp(E_N_OPTION_SLOTS, n);
}

// pages.ts click: applies admissible slot a; returns a CLICK_* outcome
fn click(a: u32) -> u32 {
  let page = ep(E_PAGE);
  if (a == S_SEARCH) {
    setEp(E_PAGE, P_SEARCH);
    setEp(E_RESULTS_PAGE, 0u);
    setEp(E_ITEM, 0u);
    return CLICK_MOVED;
  }
  if (page == P_SEARCH) {
    setEp(E_PAGE, P_RESULTS);
    setEp(E_QUERY, a);
    setEp(E_RESULTS_PAGE, 0u);
    return CLICK_MOVED;
  }
  if (page == P_RESULTS) {
    if (a == S_NEXT) {
      setEp(E_RESULTS_PAGE, ep(E_RESULTS_PAGE) + 1u);
    } else if (a == S_PREV) {
      setEp(E_RESULTS_PAGE, ep(E_RESULTS_PAGE) - 1u);
    } else {
      openItem(resultAt(ep(E_QUERY), ep(E_RESULTS_PAGE) * PAGE_SIZE + a));
    }
    return CLICK_MOVED;
  }
  if (a == S_BACK) {
    setEp(E_PAGE, P_RESULTS);
    setEp(E_ITEM, 0u);
    return CLICK_MOVED;
  }
  if (a == S_BUY) {
    // reward.ts purchaseReward, docs/maths.md §10: r = r_type · (matched + options + [price ok]) / (attrs + options + 1)
    let bl = lineBlock();
    let p = ep(E_ITEM);
    let want = tasks[bl + T_GOAL_ATTRS];
    var den = countOneBits(want) + 1u;
    var met = countOneBits(tasks[bl + T_PROD_ATTRS + p] & want);
    for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
      let v = goalOpt(bl, d);
      if (v < 0) {
        continue;
      }
      den++;
      if (selected(d) == v) {
        met++;
      }
    }
    if (tasks[bl + T_PROD_PRICE + p] <= tasks[bl + T_LIMIT]) {
      met++;
    }
    let h = typeHalves(tasks[bl + T_PROD_TYPE + p], tasks[bl + T_GOAL_TYPE]) * met;
    let r = bitcast<f32>(tasks[h * REWARD_DENS + den]);
    let line = ep(E_LINE);
    setEp(E_LINE_REWARD + line, bitcast<u32>(r));
    var sum = 0.0;
    for (var l = 0u; l <= line; l++) {
      sum += bitcast<f32>(ep(E_LINE_REWARD + l));
    }
    // The mean over the order's one or two lines: halving is exact, so this is the CPU's rounding.
    setEp(E_REWARD, bitcast<u32>(select(sum, sum * 0.5, ep(E_NLINES) == 2u)));
    if (h < 2u * den) {
      return CLICK_BOUGHT_WRONG;
    }
    if (line + 1u == ep(E_NLINES)) {
      return CLICK_BOUGHT_LAST;
    }
    setEp(E_LINE, line + 1u);
    setEp(E_PAGE, P_SEARCH);
    setEp(E_QUERY, 0u);
    setEp(E_RESULTS_PAGE, 0u);
    setEp(E_ITEM, 0u);
    for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
      setEp(E_SELECTED + d, 0xffffffffu);
    }
    return CLICK_BOUGHT_NEXT;
  }
  let v = optionSlot(a);
  setEp(E_SELECTED + optionDim(v), v);
  return CLICK_MOVED;
}

// milestones.ts milestoneHolds: phase k mod 4 of the current line (docs/maths.md §10)
fn milestoneHolds(k: u32, boughtOk: bool) -> bool {
  let bl = lineBlock();
  let page = ep(E_PAGE);
  switch k & 3u {
    case 0u: {
      if (page != P_RESULTS) {
        return false;
      }
      let first = ep(E_RESULTS_PAGE) * PAGE_SIZE;
      let q = ep(E_QUERY);
      for (var r = 0u; r < shownCount(); r++) {
        if (goalConsistent(bl, resultAt(q, first + r))) {
          return true;
        }
      }
      return false;
    }
    case 1u: {
      return page == P_ITEM && goalConsistent(bl, ep(E_ITEM));
    }
    case 2u: {
      return page == P_ITEM && goalConsistent(bl, ep(E_ITEM)) && optionsChosen(bl);
    }
    default: {
      return boughtOk;
    }
  }
}

// state.ts computeKey
fn stateKey() -> u32 {
  var k = ep(E_PROGRESS);
  k = k * 3u + ep(E_PAGE);
  k = k * 2u + ep(E_LINE);
  k = k * 8u + ep(E_QUERY);
  k = k * 4u + ep(E_RESULTS_PAGE);
  k = k * 32u + ep(E_ITEM);
  for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
    k = k * 11u + ep(E_SELECTED + d) + 1u;
  }
  return k;
}

// pages.ts writeMask
fn writeMask(b: u32) {
  let off = b * NUM_SLOTS;
  for (var a = 0u; a < NUM_SLOTS; a++) {
    mask[off + a] = 0u;
  }
  let page = ep(E_PAGE);
  if (page == P_SEARCH) {
    for (var q = 0u; q < config.numQueries; q++) {
      mask[off + q] = 1u;
    }
  } else if (page == P_RESULTS) {
    for (var r = 0u; r < shownCount(); r++) {
      mask[off + r] = 1u;
    }
    mask[off + S_NEXT] = select(0u, 1u, hasNext());
    mask[off + S_PREV] = select(0u, 1u, ep(E_RESULTS_PAGE) > 0u);
    mask[off + S_SEARCH] = 1u;
  } else {
    for (var i = 0u; i < ep(E_N_OPTION_SLOTS); i++) {
      mask[off + i] = 1u;
    }
    mask[off + S_SEARCH] = 1u;
    mask[off + S_BACK] = 1u;
    mask[off + S_BUY] = 1u;
  }
}

// features.ts writeWords into actionFeatures
fn actionWords(off: u32, wordType: u32, attrs: u32) {
  actionFeatures[off + WORD_TYPE + wordType] = 1.0;
  for (var a = 0u; a < NUM_ATTRS; a++) {
    if ((attrs & (1u << a)) != 0u) {
      actionFeatures[off + WORD_ATTR + a] = 1.0;
    }
  }
}

// features.ts writeWords into obs
fn obsWords(off: u32, wordType: u32, attrs: u32) {
  obs[off + WORD_TYPE + wordType] = 1.0;
  for (var a = 0u; a < NUM_ATTRS; a++) {
    if ((attrs & (1u << a)) != 0u) {
      obs[off + WORD_ATTR + a] = 1.0;
    }
  }
}

// features.ts price shown against the limit, capped
fn priceRatio(price: u32, limit: u32) -> f32 {
  return min(PRICE_SCALE, f32(price) / f32(limit));
}

// features.ts writeActionFeatures: every admissible slot from scratch, masked slots zeroed
fn writeActionFeatures(b: u32) {
  let slot0 = b * NUM_SLOTS;
  for (var i = slot0 * ACTION_DIM; i < (slot0 + NUM_SLOTS) * ACTION_DIM; i++) {
    actionFeatures[i] = 0.0;
  }
  let bl = lineBlock();
  let page = ep(E_PAGE);
  let limit = tasks[bl + T_LIMIT];
  for (var a = 0u; a < NUM_SLOTS; a++) {
    if (mask[slot0 + a] == 0u) {
      continue;
    }
    let off = (slot0 + a) * ACTION_DIM;
    actionFeatures[off + A_BIAS] = 1.0;
    if (a < LIST_SLOTS) {
      if (page == P_SEARCH) {
        actionFeatures[off + A_KIND + K_QUERY] = 1.0;
        actionWords(off + A_WORDS, tasks[bl + T_QUERY_TYPE + a], tasks[bl + T_QUERY_ATTRS + a]);
      } else if (page == P_RESULTS) {
        actionFeatures[off + A_KIND + K_PRODUCT] = 1.0;
        let p = resultAt(ep(E_QUERY), ep(E_RESULTS_PAGE) * PAGE_SIZE + a);
        actionWords(off + A_WORDS, tasks[bl + T_PROD_TYPE + p], tasks[bl + T_PROD_ATTRS + p]);
        if (config.listingOptions != 0u) {
          let opts = tasks[bl + T_PROD_OPTS + p];
          for (var v = 0u; v < NUM_OPTION_VALUES; v++) {
            if ((opts & (1u << v)) != 0u) {
              actionFeatures[off + A_WORDS + WORD_OPTION + v] = 1.0;
            }
          }
        }
        let price = tasks[bl + T_PROD_PRICE + p];
        actionFeatures[off + A_PRICE] = priceRatio(price, limit);
        actionFeatures[off + A_PRICE_OK] = flag01(price <= limit);
      } else {
        actionFeatures[off + A_KIND + K_OPTION] = 1.0;
        let v = optionSlot(a);
        let d = optionDim(v);
        actionFeatures[off + A_WORDS + WORD_OPTION + v] = 1.0;
        actionFeatures[off + A_OPT_DIM + d] = 1.0;
        actionFeatures[off + A_SELECTED] = flag01(selected(d) == i32(v));
      }
    } else {
      // Next, Prev, Back to search, Back are kinds 2 to 5 in slot order; Buy Now is kind 7.
      let kind = select(K_NEXT + a - S_NEXT, K_BUY, a == S_BUY);
      actionFeatures[off + A_KIND + kind] = 1.0;
    }
  }
}

// features.ts writeObs
fn writeObs(b: u32) {
  let off = b * OBS_DIM;
  for (var i = 0u; i < OBS_DIM; i++) {
    obs[off + i] = 0.0;
  }
  let bl = lineBlock();
  let page = ep(E_PAGE);
  obs[off + O_PAGE + page] = 1.0;
  obsWords(off + O_GOAL, tasks[bl + T_GOAL_TYPE], tasks[bl + T_GOAL_ATTRS]);
  for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
    let v = goalOpt(bl, d);
    if (v >= 0) {
      obs[off + O_GOAL + WORD_OPTION + u32(v)] = 1.0;
    }
  }
  let limit = tasks[bl + T_LIMIT];
  obs[off + O_LIMIT] = f32(limit) / 100.0;
  let line = ep(E_LINE);
  obs[off + O_LINE + line] = 1.0;
  // Signed, as on the CPU: progress below this line's first milestone marks none done.
  let done = i32(ep(E_PROGRESS)) - i32(line * MILESTONES_PER_LINE);
  for (var k = 0; k < done && k < i32(MILESTONES_PER_LINE); k++) {
    obs[off + O_DONE + u32(k)] = 1.0;
  }
  if (page == P_RESULTS) {
    let q = ep(E_QUERY);
    obsWords(off + O_SHOWN, tasks[bl + T_QUERY_TYPE + q], tasks[bl + T_QUERY_ATTRS + q]);
    obs[off + O_HAS_NEXT] = flag01(hasNext());
    obs[off + O_HAS_PREV] = flag01(ep(E_RESULTS_PAGE) > 0u);
  } else if (page == P_ITEM) {
    let p = ep(E_ITEM);
    obsWords(off + O_SHOWN, tasks[bl + T_PROD_TYPE + p], tasks[bl + T_PROD_ATTRS + p]);
    for (var d = 0u; d < NUM_OPTION_DIMS; d++) {
      let v = selected(d);
      if (v >= 0) {
        obs[off + O_SELECTED + u32(v)] = 1.0;
      }
    }
    let price = tasks[bl + T_PROD_PRICE + p];
    obs[off + O_PRICE] = priceRatio(price, limit);
    obs[off + O_PRICE_OK] = flag01(price <= limit);
  }
}

// One step of episode b: with apply, a live episode plays `action` (admissible) and is recorded; a
// finished one only clears its milestone. Then (and always without apply) its mask, features, observation
// and state key are rewritten. Called by one invocation per episode (shop-step) or by one invocation
// of the episode's workgroup (shop-rollout).
fn shopStep(b: u32, action: u32, apply: bool, settings: ShopConfig) {
  config = settings;
  e = b * EPISODE_WORDS;
  t0 = TASKS_START + ep(E_TASK) * TASK_WORDS; // the episodes of a group share their task's block
  if (apply) {
    if (ep(E_DONE) != 0u) {
      setEp(E_MILESTONE, 0u);
      return;
    }
    let outcome = click(action);
    let bought = outcome == CLICK_BOUGHT_NEXT || outcome == CLICK_BOUGHT_LAST;
    let k = ep(E_PROGRESS);
    // envs/episode-book.ts record, on this environment's record fields (lib/env_step.wgsl)
    let fields = RecordFields(E_STEPS, E_MILESTONE, E_PROGRESS, E_DROPPED, E_MILESTONES_REACHED, E_NMS, E_DONE, E_SUCCESS);
    record(fields, k < ep(E_NMS) && milestoneHolds(k, bought), config.maxSteps);
    // Buying ends the order unless it met every constraint and another product remains (docs/maths.md §10).
    if (outcome == CLICK_BOUGHT_WRONG || outcome == CLICK_BOUGHT_LAST) {
      setEp(E_DONE, 1u);
    }
  }
  setEp(E_STATE_KEY, stateKey());
  writeMask(b);
  writeActionFeatures(b);
  writeObs(b);
}
