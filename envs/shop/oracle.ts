/**
 * Shop oracle: a planner that knows which product is wanted and picks the next click of a shortest plan
 * from any page (so it can take over mid-episode): search with the instruction's words (a query that
 * lists a goal-consistent product), page to it, open it, select each named option value, buy; back out of anything else. Its plan
 * is at most 1 + 1 + 1 + 2 + 1 = 6 clicks a line, well inside every step limit.
 */
import { NUM_OPTION_DIMS } from './catalog.ts';
import { PAGE_SIZE } from './config.ts';
import { goalConsistent } from './reward.ts';
import { LIST_SLOTS, P_RESULTS, P_SEARCH, S_BACK, S_BUY, S_NEXT, S_PREV, S_SEARCH, type ShopState } from './state.ts';

/** Rank of a goal-consistent product in query q's results of episode b's line, or −1. */
function wantedRank(s: ShopState, b: number, q: number): number {
  const bl = s.lineIndex(b);
  for (let r = 0; r < s.R; r++) if (goalConsistent(s, bl, s.resultAt(b, q, r))) return r;
  return -1;
}

/** Slot of the oracle's next click for live episode b. */
export function oracleAction(s: ShopState, b: number): number {
  const page = s.page[b];
  if (page === P_SEARCH) {
    // The query made of the instruction's words (what a shopper would type), which lists the wanted product.
    const bl = s.lineIndex(b);
    for (let q = 0; q < s.Q; q++) {
      const i = bl * s.Q + q;
      if (s.queryType[i] === s.goalType[bl] && s.queryAttrs[i] === s.goalAttrs[bl] && wantedRank(s, b, q) >= 0) return q;
    }
    for (let q = 0; q < s.Q; q++) if (wantedRank(s, b, q) >= 0) return q;
    return 0;
  }
  if (page === P_RESULTS) {
    const r = wantedRank(s, b, s.query[b]);
    if (r < 0) return S_SEARCH;
    const p = Math.floor(r / PAGE_SIZE);
    if (p > s.resultsPage[b]) return S_NEXT;
    if (p < s.resultsPage[b]) return S_PREV;
    return r - p * PAGE_SIZE;
  }
  const bl = s.lineIndex(b);
  if (!goalConsistent(s, bl, s.item[b])) return S_BACK;
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    const v = s.goalOpt[bl * NUM_OPTION_DIMS + d];
    if (v < 0 || s.selected[b * NUM_OPTION_DIMS + d] === v) continue;
    for (let i = 0; i < s.nOptionSlots[b]; i++) if (s.optionSlot[b * LIST_SLOTS + i] === v) return i;
  }
  return S_BUY;
}
