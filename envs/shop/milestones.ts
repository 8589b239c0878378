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
 *
 * Two other detectors for the detector settings (docs/maths.md §6): the loose one (`looseSideEffect`),
 * which a policy can game, and the fine one (`fineTransition`): before the search phase, a results page
 * of a query for the goal's product type; before the options phase, one named option value selected.
 */
import { PAGE_SIZE } from './config.ts';
import { NUM_OPTION_DIMS } from './catalog.ts';
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

/**
 * The loose detector: any product page opened (an item page on screen that was not before the step, or
 * another product's), or any purchase, whatever the product. `itemBefore`: the item page's product
 * before the step, or −1 when no item page was on screen; `bought`: the step bought something.
 */
export function looseSideEffect(s: ShopState, b: number, itemBefore: number, bought: boolean): boolean {
  return bought || (s.page[b] === P_ITEM && s.item[b] !== itemBefore);
}

/**
 * The fine detector's intermediate transition of task milestone k (0-based) after the step: before the
 * search phase, a results page of a query for the goal's product type on screen (whether or not it lists
 * a matching product yet); before the options phase, a goal-consistent item page with at least one
 * option value the instruction names selected. The episode book reports the first of each stage.
 */
export function fineTransition(s: ShopState, b: number, k: number): boolean {
  const bl = s.lineIndex(b);
  switch (k & 3) {
    case 0:
      return s.page[b] === P_RESULTS && s.queryType[bl * s.Q + s.query[b]] === s.goalType[bl];
    case 2: {
      if (s.page[b] !== P_ITEM || !goalConsistent(s, bl, s.item[b])) return false;
      for (let d = 0; d < NUM_OPTION_DIMS; d++) {
        const v = s.goalOpt[bl * NUM_OPTION_DIMS + d];
        if (v >= 0 && s.selected[b * NUM_OPTION_DIMS + d] === v) return true;
      }
      return false;
    }
    default:
      return false;
  }
}
