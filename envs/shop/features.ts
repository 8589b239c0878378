/**
 * Shop features for a policy that scores each candidate click against the observation.
 *
 * They describe what is on the page and nothing more: the instruction's words, the page type, the words
 * of the query or product on screen (a listed product's offered option values too), the options selected, and prices against the limit as the page
 * shows them. Words are a bag over the shop's vocabulary (catalog.ts), the same slots in the observation
 * and in every candidate, so the observation · candidate score can learn to match a product's words to
 * the instruction's; nothing here says whether a product matches the goal (docs/maths.md §10).
 */
import { NUM_ATTRS, NUM_OPTION_DIMS, NUM_OPTION_VALUES, NUM_WORDS, OPTION_DIM_NAMES, WORD_ATTR, WORD_NAMES, WORD_OPTION, WORD_TYPE } from './catalog.ts';
import { MAX_LINES, MILESTONES_PER_LINE, PAGE_SIZE } from './config.ts';
import { PHASE_NAMES } from './milestones.ts';
import { optionDim } from './pages.ts';
import { LIST_SLOTS, NUM_SLOTS, P_ITEM, P_RESULTS, P_SEARCH, PAGE_NAMES, S_BACK, S_BUY, S_NEXT, S_PREV, S_SEARCH, type ShopState } from './state.ts';

/** Prices are shown relative to the instruction's limit, capped here. */
const PRICE_SCALE = 2;

// ---- Action feature layout ----
const K_QUERY = 0;
const K_PRODUCT = 1;
const K_NEXT = 2;
const K_PREV = 3;
const K_SEARCH = 4;
const K_BACK = 5;
const K_OPTION = 6;
const K_BUY = 7;
const NUM_KINDS = 8;
const A_KIND = 0;
const A_WORDS = A_KIND + NUM_KINDS;
const A_PRICE = A_WORDS + NUM_WORDS;
const A_PRICE_OK = A_PRICE + 1;
const A_OPT_DIM = A_PRICE_OK + 1;
const A_SELECTED = A_OPT_DIM + NUM_OPTION_DIMS;
const A_BIAS = A_SELECTED + 1;
export const ACTION_DIM = A_BIAS + 1;

export const ACTION_FEATURE_NAMES: readonly string[] = [
  ...['query', 'product', 'next', 'prev', 'back_to_search', 'back', 'option', 'buy'].map((k) => `kind:${k}`),
  ...WORD_NAMES.map((w) => `word:${w}`),
  'price_over_limit_ratio',
  'price_within_limit',
  ...OPTION_DIM_NAMES.map((d) => `option:${d}`),
  'option:selected',
  'bias',
];

// ---- Observation layout ----
const O_PAGE = 0;
const O_GOAL = O_PAGE + PAGE_NAMES.length;
const O_LIMIT = O_GOAL + NUM_WORDS;
const O_LINE = O_LIMIT + 1;
const O_DONE = O_LINE + MAX_LINES;
const O_SHOWN = O_DONE + MILESTONES_PER_LINE;
const O_SELECTED = O_SHOWN + NUM_WORDS;
const O_PRICE = O_SELECTED + NUM_OPTION_VALUES;
const O_PRICE_OK = O_PRICE + 1;
const O_HAS_NEXT = O_PRICE_OK + 1;
const O_HAS_PREV = O_HAS_NEXT + 1;
export const OBS_DIM = O_HAS_PREV + 1;

export const OBS_FEATURE_NAMES: readonly string[] = [
  ...PAGE_NAMES.map((p) => `page:${p}`),
  ...WORD_NAMES.map((w) => `instruction:${w}`),
  'price_limit',
  ...Array.from({ length: MAX_LINES }, (_, l) => `line:${l + 1}`),
  ...PHASE_NAMES.map((m) => `done:${m}`),
  ...WORD_NAMES.map((w) => `shown:${w}`),
  ...WORD_NAMES.slice(WORD_OPTION).map((w) => `selected:${w}`),
  'item_price_over_limit_ratio',
  'item_price_within_limit',
  'has_next',
  'has_prev',
];

/** Words of a type and an attribute mask into the bag at `off`. */
function writeWords(f: Float32Array, off: number, type: number, attrs: number): void {
  f[off + WORD_TYPE + type] = 1;
  for (let a = 0; a < NUM_ATTRS; a++) if (attrs & (1 << a)) f[off + WORD_ATTR + a] = 1;
}

/** Rewrites episode b's admissible candidate slots (masked slots are zeroed). */
export function writeActionFeatures(s: ShopState, f: Float32Array, mask: Uint8Array, b: number): void {
  const D = ACTION_DIM;
  const slot0 = b * NUM_SLOTS;
  f.fill(0, slot0 * D, (slot0 + NUM_SLOTS) * D);
  const bl = s.lineIndex(b);
  const page = s.page[b];
  const limit = s.limit[bl];
  for (let a = 0; a < NUM_SLOTS; a++) {
    if (!mask[slot0 + a]) continue;
    const off = (slot0 + a) * D;
    f[off + A_BIAS] = 1;
    if (a < LIST_SLOTS) {
      if (page === P_SEARCH) {
        f[off + A_KIND + K_QUERY] = 1;
        const i = bl * s.Q + a;
        writeWords(f, off + A_WORDS, s.queryType[i], s.queryAttrs[i]);
      } else if (page === P_RESULTS) {
        f[off + A_KIND + K_PRODUCT] = 1;
        const i = bl * s.P + s.resultAt(b, s.query[b], s.resultsPage[b] * PAGE_SIZE + a);
        writeWords(f, off + A_WORDS, s.prodType[i], s.prodAttrs[i]);
        // The listing shows the option values the product offers (docs/maths.md §10), as a shop's
        // results show colour and size swatches (medium and long horizons): the same word slots as the item page's option buttons.
        if (s.listingOptions) {
          const opts = s.prodOpts[i];
          for (let v = 0; v < NUM_OPTION_VALUES; v++) if (opts & (1 << v)) f[off + A_WORDS + WORD_OPTION + v] = 1;
        }
        f[off + A_PRICE] = Math.min(PRICE_SCALE, s.prodPrice[i] / limit);
        f[off + A_PRICE_OK] = s.prodPrice[i] <= limit ? 1 : 0;
      } else {
        f[off + A_KIND + K_OPTION] = 1;
        const v = s.optionSlot[b * LIST_SLOTS + a];
        const d = optionDim(v);
        f[off + A_WORDS + WORD_OPTION + v] = 1;
        f[off + A_OPT_DIM + d] = 1;
        f[off + A_SELECTED] = s.selected[b * NUM_OPTION_DIMS + d] === v ? 1 : 0;
      }
    } else {
      const kind = a === S_NEXT ? K_NEXT : a === S_PREV ? K_PREV : a === S_SEARCH ? K_SEARCH : a === S_BACK ? K_BACK : K_BUY;
      f[off + A_KIND + kind] = 1;
    }
  }
  if (page === P_ITEM && mask[slot0 + S_BUY] === 0) throw new Error('shop: item page without Buy Now');
}

/** Rewrites episode b's observation vector. */
export function writeObs(s: ShopState, obs: Float32Array, b: number): void {
  const off = b * OBS_DIM;
  obs.fill(0, off, off + OBS_DIM);
  const bl = s.lineIndex(b);
  const page = s.page[b];
  obs[off + O_PAGE + page] = 1;
  writeWords(obs, off + O_GOAL, s.goalType[bl], s.goalAttrs[bl]);
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    const v = s.goalOpt[bl * NUM_OPTION_DIMS + d];
    if (v >= 0) obs[off + O_GOAL + WORD_OPTION + v] = 1;
  }
  const limit = s.limit[bl];
  obs[off + O_LIMIT] = limit / 100;
  obs[off + O_LINE + s.line[b]] = 1;
  const done = s.progress[b] - s.line[b] * MILESTONES_PER_LINE;
  for (let k = 0; k < done && k < MILESTONES_PER_LINE; k++) obs[off + O_DONE + k] = 1;
  if (page === P_RESULTS) {
    const i = bl * s.Q + s.query[b];
    writeWords(obs, off + O_SHOWN, s.queryType[i], s.queryAttrs[i]);
    obs[off + O_HAS_NEXT] = (s.resultsPage[b] + 1) * PAGE_SIZE < s.R ? 1 : 0;
    obs[off + O_HAS_PREV] = s.resultsPage[b] > 0 ? 1 : 0;
  } else if (page === P_ITEM) {
    const i = bl * s.P + s.item[b];
    writeWords(obs, off + O_SHOWN, s.prodType[i], s.prodAttrs[i]);
    for (let d = 0; d < NUM_OPTION_DIMS; d++) {
      const v = s.selected[b * NUM_OPTION_DIMS + d];
      if (v >= 0) obs[off + O_SELECTED + v] = 1;
    }
    obs[off + O_PRICE] = Math.min(PRICE_SCALE, s.prodPrice[i] / limit);
    obs[off + O_PRICE_OK] = s.prodPrice[i] <= limit ? 1 : 0;
  }
}
