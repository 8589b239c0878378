/**
 * Shop episode state as typed arrays (B episodes), rewritten in place: the task (each order line's goal,
 * its candidate queries, its product pool and each query's results list) and where the agent is (page,
 * query, results page, open product, selected options). Layout of the action slots is fixed: 0…9 list the
 * page's entries (queries, products or option values), then Next, Prev, Back to search, Back, Buy Now.
 */
import { NUM_OPTION_DIMS } from './catalog.ts';
import { type HorizonConfig, MAX_LINES, PAGE_SIZE, poolSize } from './config.ts';

export const P_SEARCH = 0;
export const P_RESULTS = 1;
export const P_ITEM = 2;
export const PAGE_NAMES = ['search', 'results', 'item'] as const;

/** Action slots: LIST_SLOTS entries, then the page's buttons. */
export const LIST_SLOTS = PAGE_SIZE;
export const S_NEXT = LIST_SLOTS;
export const S_PREV = LIST_SLOTS + 1;
export const S_SEARCH = LIST_SLOTS + 2;
export const S_BACK = LIST_SLOTS + 3;
export const S_BUY = LIST_SLOTS + 4;
export const NUM_SLOTS = LIST_SLOTS + 5;

export class ShopState {
  readonly B: number;
  /** Order lines per episode (upper bound), queries per line, results per query, products per line's pool. */
  readonly L = MAX_LINES;
  readonly Q: number;
  readonly R: number;
  readonly P: number;
  /** Whether results listings show each product's offered option values (config.ts `listingOptions`). */
  readonly listingOptions: boolean;

  // ---- Task, per episode b and line l (index b·L + l) ----
  readonly nLines: Uint8Array;
  readonly nMs: Uint8Array;
  readonly goalType: Uint8Array;
  /** Bit a: the instruction names attribute a. */
  readonly goalAttrs: Uint16Array;
  /** Per (b, l, dimension): the wanted option value (global value index), or −1 when not named. */
  readonly goalOpt: Int8Array;
  /** Price limit in dollars. */
  readonly limit: Uint8Array;
  /** Per (b, l, q): the query's product type and attribute words. */
  readonly queryType: Uint8Array;
  readonly queryAttrs: Uint16Array;
  /** Per (b, l, q, rank): pool index of the product shown at that rank. */
  readonly results: Uint8Array;
  /** Per (b, l, p): the product's type, attribute mask, price in dollars and offered option values (bit v). */
  readonly prodType: Uint8Array;
  readonly prodAttrs: Uint16Array;
  readonly prodPrice: Uint8Array;
  readonly prodOpts: Uint16Array;

  // ---- Where the agent is ----
  readonly progress: Uint8Array;
  readonly line: Uint8Array;
  readonly page: Uint8Array;
  readonly query: Uint8Array;
  readonly resultsPage: Uint8Array;
  readonly item: Uint8Array;
  /** Per (b, dimension): selected option value (global index) on the open item page, or −1. */
  readonly selected: Int8Array;
  /** Per (b, slot): option value listed in item-page slot i. */
  readonly optionSlot: Int8Array;
  readonly nOptionSlots: Uint8Array;
  /** Per (b, l): WebShop reward of the line's purchase (0 until bought). */
  readonly lineReward: Float32Array;
  /** Per b: the episode's graded reward, the mean of its lines' rewards (docs/maths.md §10). */
  readonly reward: Float32Array;

  constructor(B: number, cfg: HorizonConfig) {
    this.B = B;
    this.Q = cfg.queries;
    this.R = cfg.results;
    this.P = poolSize(cfg);
    this.listingOptions = cfg.listingOptions;
    const BL = B * this.L;
    const D = NUM_OPTION_DIMS;
    this.nLines = new Uint8Array(B);
    this.nMs = new Uint8Array(B);
    this.goalType = new Uint8Array(BL);
    this.goalAttrs = new Uint16Array(BL);
    this.goalOpt = new Int8Array(BL * D);
    this.limit = new Uint8Array(BL);
    this.queryType = new Uint8Array(BL * this.Q);
    this.queryAttrs = new Uint16Array(BL * this.Q);
    this.results = new Uint8Array(BL * this.Q * this.R);
    this.prodType = new Uint8Array(BL * this.P);
    this.prodAttrs = new Uint16Array(BL * this.P);
    this.prodPrice = new Uint8Array(BL * this.P);
    this.prodOpts = new Uint16Array(BL * this.P);
    this.progress = new Uint8Array(B);
    this.line = new Uint8Array(B);
    this.page = new Uint8Array(B);
    this.query = new Uint8Array(B);
    this.resultsPage = new Uint8Array(B);
    this.item = new Uint8Array(B);
    this.selected = new Int8Array(B * D);
    this.optionSlot = new Int8Array(B * LIST_SLOTS);
    this.nOptionSlots = new Uint8Array(B);
    this.lineReward = new Float32Array(BL);
    this.reward = new Float32Array(B);
  }

  /** Index of (b, current line) into the per-line arrays. */
  lineIndex(b: number): number {
    return b * this.L + this.line[b];
  }

  /** Pool index of the product at rank r of the current line's query q. */
  resultAt(b: number, q: number, r: number): number {
    return this.results[(this.lineIndex(b) * this.Q + q) * this.R + r];
  }

  /** Number of results pages of a query (10 a page). */
  pageCount(): number {
    return Math.ceil(this.R / PAGE_SIZE);
  }

  /** Results shown on the current results page. */
  shownCount(b: number): number {
    return Math.min(PAGE_SIZE, this.R - this.resultsPage[b] * PAGE_SIZE);
  }

  /**
   * Key of the full page state within the task instance (GiGPO's anchor states): line, page, query,
   * results page, open product, selected options and milestone progress, packed into 32 bits.
   */
  computeKey(b: number): number {
    const D = NUM_OPTION_DIMS;
    let k = this.progress[b];
    k = k * 3 + this.page[b];
    k = k * 2 + this.line[b];
    k = k * 8 + this.query[b];
    k = k * 4 + this.resultsPage[b];
    k = k * 32 + this.item[b];
    for (let d = 0; d < D; d++) k = k * 11 + (this.selected[b * D + d] + 1);
    return k >>> 0;
  }
}
