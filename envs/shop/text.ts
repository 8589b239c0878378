/**
 * Shop text, in WebShop's phrasing: the instruction ("i need a waterproof, lightweight backpack, and
 * color: blue, and size: large, and price lower than 40.00 dollars"), the page as text, each slot as a
 * click ("search[waterproof lightweight backpack]", "click[B0003]", "click[next >]"), and milestone names.
 * Also the page snapshot the episode view draws. Built only when asked for; never in the training hot
 * path, so it allocates freely.
 */
import { ATTR_NAMES, NUM_ATTRS, NUM_OPTION_DIMS, OPTION_DIM_NAMES, OPTION_OFFSET, OPTION_VALUES, TYPE_NAMES, WORD_NAMES, WORD_OPTION } from './catalog.ts';
import { MILESTONES_PER_LINE, PAGE_SIZE } from './config.ts';
import { PHASE_NAMES } from './milestones.ts';
import { optionDim } from './pages.ts';
import type { ShopFrame } from '../types.ts';
import { LIST_SLOTS, P_ITEM, P_RESULTS, P_SEARCH, PAGE_NAMES, S_BACK, S_BUY, S_NEXT, S_PREV, S_SEARCH, type ShopState } from './state.ts';

function attrWords(mask: number): string[] {
  const xs: string[] = [];
  for (let a = 0; a < NUM_ATTRS; a++) if (mask & (1 << a)) xs.push(ATTR_NAMES[a]);
  return xs;
}

function optionName(v: number): string {
  return WORD_NAMES[WORD_OPTION + v];
}

/** A product's title as the results list shows it. */
export function productTitle(s: ShopState, bl: number, p: number): string {
  const i = bl * s.P + p;
  return [...attrWords(s.prodAttrs[i]), TYPE_NAMES[s.prodType[i]]].join(' ');
}

/** A product's row in the results list: its title and the option values it offers ("… backpack (black, blue; small, large)"). */
export function listingTitle(s: ShopState, bl: number, p: number): string {
  if (!s.listingOptions) return productTitle(s, bl, p);
  const opts = s.prodOpts[bl * s.P + p];
  const dims = OPTION_DIM_NAMES.map((_, d) => {
    const names: string[] = [];
    for (let v = OPTION_OFFSET[d]; v < OPTION_OFFSET[d] + OPTION_VALUES[d].length; v++) if (opts & (1 << v)) names.push(optionName(v));
    return names.join(', ');
  });
  return `${productTitle(s, bl, p)} (${dims.filter((x) => x).join('; ')})`;
}

/** A product's code ("B0107": line 1, pool product 7), like WebShop's ASINs. */
export function productCode(bl: number, s: ShopState, p: number): string {
  return `B${String((bl % s.L) + 1)}${String(p).padStart(3, '0')}`;
}

function queryText(s: ShopState, i: number): string {
  return [...attrWords(s.queryAttrs[i]), TYPE_NAMES[s.queryType[i]]].join(' ');
}

function lineInstruction(s: ShopState, bl: number): string {
  const parts = [`i need ${attrWords(s.goalAttrs[bl]).join(', ')} ${TYPE_NAMES[s.goalType[bl]]}`];
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    const v = s.goalOpt[bl * NUM_OPTION_DIMS + d];
    if (v >= 0) parts.push(`${OPTION_DIM_NAMES[d]}: ${optionName(v)}`);
  }
  parts.push(`price lower than ${s.limit[bl]}.00 dollars`);
  return parts.join(', and ');
}

export function describeTask(s: ShopState, b: number): string {
  const lines: string[] = [];
  for (let l = 0; l < s.nLines[b]; l++) lines.push(lineInstruction(s, b * s.L + l));
  return lines.length === 1 ? lines[0] : lines.map((t, l) => `(${l + 1}) ${t}`).join('; then ');
}

/** One snapshot of the page on screen, for the episode view (src/ui/shop-view.ts). */

export function shopFrame(s: ShopState, b: number): ShopFrame {
  const bl = s.lineIndex(b);
  const page = s.page[b];
  const frame: ShopFrame = {
    page: PAGE_NAMES[page],
    instruction: lineInstruction(s, bl),
    line: s.line[b] + 1,
    lines: s.nLines[b],
    queries: [],
    query: '',
    resultsPage: s.resultsPage[b] + 1,
    resultsPages: s.pageCount(),
    products: [],
    item: null,
    limit: s.limit[bl],
  };
  if (page === P_SEARCH) for (let q = 0; q < s.Q; q++) frame.queries.push(queryText(s, bl * s.Q + q));
  if (page !== P_SEARCH) frame.query = queryText(s, bl * s.Q + s.query[b]);
  if (page === P_RESULTS) {
    const first = s.resultsPage[b] * PAGE_SIZE;
    for (let r = 0; r < s.shownCount(b); r++) {
      const p = s.resultAt(b, s.query[b], first + r);
      frame.products.push({ code: productCode(bl, s, p), title: listingTitle(s, bl, p), price: s.prodPrice[bl * s.P + p] });
    }
  }
  if (page === P_ITEM) {
    const p = s.item[b];
    const options = OPTION_DIM_NAMES.map((dimension) => ({ dimension, values: [] as { name: string; selected: boolean }[] }));
    for (let i = 0; i < s.nOptionSlots[b]; i++) {
      const v = s.optionSlot[b * LIST_SLOTS + i];
      options[optionDim(v)].values.push({ name: optionName(v), selected: s.selected[b * NUM_OPTION_DIMS + optionDim(v)] === v });
    }
    frame.item = { code: productCode(bl, s, p), title: productTitle(s, bl, p), price: s.prodPrice[bl * s.P + p], options };
  }
  return frame;
}

export function describeObservation(s: ShopState, b: number): string {
  const f = shopFrame(s, b);
  const head = `Instruction: ${f.instruction}${f.lines > 1 ? ` (product ${f.line} of ${f.lines})` : ''}`;
  if (f.page === 'search') return `${head}\n[Search]\nCandidate queries: ${f.queries.join(' | ')}`;
  if (f.page === 'results') {
    const rows = f.products.map((p) => `${p.code} | ${p.title} | $${p.price}.00`);
    return `${head}\n[Back to Search] Page ${f.resultsPage} of ${f.resultsPages} for "${f.query}"\n${rows.join('\n')}`;
  }
  const item = f.item!;
  const opts = item.options
    .filter((o) => o.values.length > 0)
    .map((o) => `${o.dimension}: ${o.values.map((v) => (v.selected ? `[${v.name}]` : v.name)).join(' ')}`);
  return `${head}\n[Back to Search] [< Prev]\n${item.title} | Price: $${item.price}.00\n${opts.join('\n')}\n[Buy Now]`;
}

export function describeAction(s: ShopState, b: number, a: number): string {
  const bl = s.lineIndex(b);
  const page = s.page[b];
  if (a === S_NEXT) return 'click[next >]';
  if (a === S_PREV) return 'click[< prev]';
  if (a === S_SEARCH) return 'click[back to search]';
  if (a === S_BACK) return 'click[< back]';
  if (a === S_BUY) return 'click[buy now]';
  if (page === P_SEARCH) return a < s.Q ? `search[${queryText(s, bl * s.Q + a)}]` : `(no query ${a})`;
  if (page === P_RESULTS) {
    if (a >= s.shownCount(b)) return `(no product ${a})`;
    const p = s.resultAt(b, s.query[b], s.resultsPage[b] * PAGE_SIZE + a);
    return `click[${productCode(bl, s, p)}] ${listingTitle(s, bl, p)}`;
  }
  if (page === P_ITEM && a < s.nOptionSlots[b]) return `click[${optionName(s.optionSlot[b * LIST_SLOTS + a])}]`;
  return `(no option ${a})`;
}

export function describeMilestones(s: ShopState, b: number): string[] {
  const names: string[] = [];
  for (let k = 0; k < s.nMs[b]; k++) {
    const phase = PHASE_NAMES[k % MILESTONES_PER_LINE];
    const suffix = s.nLines[b] > 1 ? ` (product ${Math.floor(k / MILESTONES_PER_LINE) + 1})` : '';
    names.push(`${phase}${suffix}`);
  }
  return names;
}
