/**
 * The shop's pages and what each button does, after WebShop's web_agent_site (search page, results
 * pages of 10 with Next and Prev and Back to Search, item page with option buttons, Back and Buy Now):
 * the admissible-slot mask of a page and the transition of one clicked slot.
 */
import { NUM_OPTION_DIMS, OPTION_OFFSET, OPTION_VALUES } from './catalog.ts';
import { PAGE_SIZE } from './config.ts';
import { purchaseReward } from './reward.ts';
import { LIST_SLOTS, NUM_SLOTS, P_ITEM, P_RESULTS, P_SEARCH, S_BACK, S_BUY, S_NEXT, S_PREV, S_SEARCH, type ShopState } from './state.ts';

/** Writes episode b's admissible slots for its current page. */
export function writeMask(s: ShopState, mask: Uint8Array, b: number): void {
  const off = b * NUM_SLOTS;
  mask.fill(0, off, off + NUM_SLOTS);
  const page = s.page[b];
  if (page === P_SEARCH) {
    for (let q = 0; q < s.Q; q++) mask[off + q] = 1;
  } else if (page === P_RESULTS) {
    const n = s.shownCount(b);
    for (let r = 0; r < n; r++) mask[off + r] = 1;
    if ((s.resultsPage[b] + 1) * PAGE_SIZE < s.R) mask[off + S_NEXT] = 1;
    if (s.resultsPage[b] > 0) mask[off + S_PREV] = 1;
    mask[off + S_SEARCH] = 1;
  } else {
    for (let i = 0; i < s.nOptionSlots[b]; i++) mask[off + i] = 1;
    mask[off + S_SEARCH] = 1;
    mask[off + S_BACK] = 1;
    mask[off + S_BUY] = 1;
  }
}

/** Opens product p's item page: no option selected, its offered values listed dimension by dimension. */
function openItem(s: ShopState, b: number, p: number): void {
  s.page[b] = P_ITEM;
  s.item[b] = p;
  for (let d = 0; d < NUM_OPTION_DIMS; d++) s.selected[b * NUM_OPTION_DIMS + d] = -1;
  const opts = s.prodOpts[s.lineIndex(b) * s.P + p];
  let n = 0;
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    for (let v = OPTION_OFFSET[d]; v < OPTION_OFFSET[d] + OPTION_VALUES[d].length; v++) {
      if (opts & (1 << v) && n < LIST_SLOTS) s.optionSlot[b * LIST_SLOTS + n++] = v;
    }
  }
  s.nOptionSlots[b] = n;
}

/** Dimension of global option value v. */
export function optionDim(v: number): number {
  return v >= OPTION_OFFSET[1] ? 1 : 0;
}

/** Outcome of a click, for the step's bookkeeping. */
export const CLICK_MOVED = 0;
/** Bought with reward 1 and more lines remain: the next line's search page is open. */
export const CLICK_BOUGHT_NEXT = 1;
/** Bought with reward 1 on the last line. */
export const CLICK_BOUGHT_LAST = 2;
/** Bought with reward below 1: the order ends. */
export const CLICK_BOUGHT_WRONG = 3;

/** Applies admissible slot a of episode b; returns a CLICK_* outcome. */
export function click(s: ShopState, b: number, a: number): number {
  const page = s.page[b];
  if (a === S_SEARCH) {
    s.page[b] = P_SEARCH;
    s.resultsPage[b] = 0;
    s.item[b] = 0;
    return CLICK_MOVED;
  }
  if (page === P_SEARCH) {
    s.page[b] = P_RESULTS;
    s.query[b] = a;
    s.resultsPage[b] = 0;
    return CLICK_MOVED;
  }
  if (page === P_RESULTS) {
    if (a === S_NEXT) s.resultsPage[b]++;
    else if (a === S_PREV) s.resultsPage[b]--;
    else openItem(s, b, s.resultAt(b, s.query[b], s.resultsPage[b] * PAGE_SIZE + a));
    return CLICK_MOVED;
  }
  // Item page.
  if (a === S_BACK) {
    s.page[b] = P_RESULTS;
    s.item[b] = 0;
    return CLICK_MOVED;
  }
  if (a === S_BUY) {
    const bl = s.lineIndex(b);
    const r = purchaseReward(s, b, bl, s.item[b]);
    s.lineReward[bl] = r;
    let sum = 0;
    for (let l = 0; l <= s.line[b]; l++) sum += s.lineReward[b * s.L + l];
    s.reward[b] = sum / s.nLines[b];
    if (r < 1) return CLICK_BOUGHT_WRONG;
    if (s.line[b] + 1 === s.nLines[b]) return CLICK_BOUGHT_LAST;
    s.line[b]++;
    s.page[b] = P_SEARCH;
    s.query[b] = 0;
    s.resultsPage[b] = 0;
    s.item[b] = 0;
    for (let d = 0; d < NUM_OPTION_DIMS; d++) s.selected[b * NUM_OPTION_DIMS + d] = -1;
    return CLICK_BOUGHT_NEXT;
  }
  const v = s.optionSlot[b * LIST_SLOTS + a];
  s.selected[b * NUM_OPTION_DIMS + optionDim(v)] = v;
  return CLICK_MOVED;
}
