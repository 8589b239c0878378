/**
 * The shop's milestone detector Φ (docs/maths.md §2 and §10), BEACON's four WebShop phases
 * (ZJU-REAL/BEACON, migpo/webshop_milestone_detector.py) for each line of the order, in task order:
 *
 *   1. search: a results page on screen lists a goal-consistent product;
 *   2. detail: a goal-consistent product's item page is open;
 *   3. options: on that page, every option value the instruction names is selected;
 *   4. purchase: Buy Now with every constraint met (reward 1).
 *
 * Milestone k of the task (0-based) is phase k mod 4 of line ⌊k / 4⌋. The detector reads the page state
 * after the step; the purchase is an event, passed in by the step.
 */
import { PAGE_SIZE } from './config.ts';
import { goalConsistent, optionsChosen } from './reward.ts';
import { P_ITEM, P_RESULTS, type ShopState } from './state.ts';

export const PHASE_NAMES = ['search', 'detail', 'options', 'purchase'] as const;

/** Whether episode b's next milestone (task index k) holds after a step; `boughtOk`: this step bought with reward 1. */
export function milestoneHolds(s: ShopState, b: number, k: number, boughtOk: boolean): boolean {
  const bl = s.lineIndex(b);
  switch (k & 3) {
    case 0: {
      if (s.page[b] !== P_RESULTS) return false;
      const first = s.resultsPage[b] * PAGE_SIZE;
      const n = s.shownCount(b);
      for (let r = 0; r < n; r++) if (goalConsistent(s, bl, s.resultAt(b, s.query[b], first + r))) return true;
      return false;
    }
    case 1:
      return s.page[b] === P_ITEM && goalConsistent(s, bl, s.item[b]);
    case 2:
      return s.page[b] === P_ITEM && goalConsistent(s, bl, s.item[b]) && optionsChosen(s, b, bl);
    default:
      return boughtOk;
  }
}
