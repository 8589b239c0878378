/**
 * Shop horizons: one table saying how many products an order has, how many attributes and options each
 * product's instruction names, how many candidate queries the search page offers, how deep the results
 * go (10 a page), how many values each option dimension offers, and the step limit. Longer horizons
 * search deeper among more distractors, with more words, and choose more options; long orders hold two products, so a
 * long task has 2 × 4 = 8 milestones (docs/maths.md §10).
 */
import type { Horizon } from '../types.ts';

export interface HorizonConfig {
  /** Products in the order; each is one line of four milestones. */
  lines: number;
  /** Attributes the instruction names per product. */
  attrs: number;
  /** Option dimensions the instruction names per product (colour first). */
  options: number;
  /** Candidate queries on the search page (one built from the instruction's words, the rest distractors). */
  queries: number;
  /** Results per query (10 a page). */
  results: number;
  /** Probability that a distractor query's results also hold the wanted product. */
  targetInDistractorProb: number;
  /** Values each product offers per option dimension. */
  optionValues: number;
  /** Product types and attribute words in use (the first ones of catalog.ts): a small vocabulary makes
   *  the short horizons quick to learn, the whole one makes matching words the long tasks' hard part. */
  types: number;
  attrWords: number;
  /** Step limit. */
  maxSteps: number;
  /**
   * Whether a results listing shows the option values each product offers (docs/maths.md §10). Medium and
   * long tasks show them: without them a near miss lacking a wanted value looks like the wanted product
   * until opened, and no cloned prior gets long tasks off 0%. Tiny and short keep the plain listing: with
   * option values listed, GiGPO from random init on tiny tasks fell to 0% (test/trainer/shop-methods.test.ts,
   * seed 1; not yet understood).
   */
  listingOptions: boolean;
}

export const PAGE_SIZE = 10;
export const MILESTONES_PER_LINE = 4;
export const MAX_LINES = 2;

export const HORIZON_CONFIGS: Record<Horizon, HorizonConfig> = {
  tiny: {
    types: 2,
    attrWords: 4,
    lines: 1,
    attrs: 1,
    options: 1,
    queries: 1,
    results: 2,
    targetInDistractorProb: 0,
    optionValues: 2,
    maxSteps: 12,
    listingOptions: false,
  },
  short: {
    types: 8,
    attrWords: 8,
    lines: 1,
    attrs: 2,
    options: 1,
    queries: 3,
    results: 10,
    targetInDistractorProb: 0.3,
    optionValues: 3,
    maxSteps: 20,
    listingOptions: false,
  },
  medium: {
    types: 12,
    attrWords: 12,
    lines: 1,
    attrs: 2,
    options: 2,
    queries: 4,
    results: 20,
    targetInDistractorProb: 0.3,
    optionValues: 4,
    maxSteps: 30,
    listingOptions: true,
  },
  long: {
    types: 12,
    attrWords: 16,
    lines: 2,
    attrs: 3,
    options: 2,
    queries: 5,
    results: 20,
    targetInDistractorProb: 0.3,
    optionValues: 4,
    maxSteps: 40,
    listingOptions: true,
  },
};

/** Products in one line's pool: the results lists are drawn from it. */
export function poolSize(c: HorizonConfig): number {
  return c.results + 6;
}
