/**
 * Shop task generation: from a task seed and a horizon, draws one order (one or two products, each with
 * a type, attributes, option values and a price limit), each line's candidate queries, its product pool
 * and each query's results list, and writes them with the start state into episode b. Depends only on
 * (seed, horizon), so equal seeds give equal instances (a GRPO group).
 *
 * Each line's pool holds exactly one product that meets every constraint (the wanted product) and near
 * misses that fail exactly one (an attribute missing, over the price limit, a wanted option value not
 * offered, or the related type), as WebShop's results do; the rest are other products. The query built
 * from the instruction's words always lists the wanted product at a uniformly drawn rank; a distractor
 * query (the related type, or one attribute swapped) lists it with a horizon's probability.
 */
import { Rng } from '../../src/prng.ts';
import { NUM_OPTION_DIMS, OPTION_OFFSET, OPTION_VALUES, relatedType } from './catalog.ts';
import type { HorizonConfig } from './config.ts';
import { MILESTONES_PER_LINE } from './config.ts';
import { P_SEARCH, type ShopState } from './state.ts';

// Scratch buffers (the generator runs for one episode at a time).
const order = new Int32Array(64);

/** A mask of `n` distinct attributes drawn outside `exclude`. */
function drawAttrs(rng: Rng, words: number, n: number, exclude: number): number {
  let mask = 0;
  while (n > 0) {
    const a = rng.nextInt(words);
    const bit = 1 << a;
    if ((mask | exclude) & bit) continue;
    mask |= bit;
    n--;
  }
  return mask;
}

/** A random set bit of mask (which must be non-zero). */
function drawBit(rng: Rng, mask: number): number {
  for (;;) {
    const a = rng.nextInt(16);
    if (mask & (1 << a)) return a;
  }
}

/** Offered option values: `k` per dimension (fewer where `never` leaves too few), always including `must` (global indices, −1 = none) and never `never`. */
function drawOptions(rng: Rng, k: number, must: Int8Array, mustOff: number, never: number): number {
  let mask = 0;
  for (let d = 0; d < NUM_OPTION_DIMS; d++) {
    const n = OPTION_VALUES[d].length;
    const off = OPTION_OFFSET[d];
    const excluded = never >= off && never < off + n ? 1 : 0;
    const want = Math.min(k, n - excluded);
    let count = 0;
    const m = must[mustOff + d];
    if (m >= 0) {
      mask |= 1 << m;
      count++;
    }
    while (count < want) {
      const v = off + rng.nextInt(n);
      if (v === never || mask & (1 << v)) continue;
      mask |= 1 << v;
      count++;
    }
  }
  return mask;
}

/** Writes a freshly generated order and its start state into episode b. */
export function generateTask(s: ShopState, b: number, seed: number, cfg: HorizonConfig): void {
  const rng = new Rng(seed);
  const D = NUM_OPTION_DIMS;
  const { Q, R, P } = s;
  const W = cfg.attrWords;
  s.nLines[b] = cfg.lines;
  s.nMs[b] = cfg.lines * MILESTONES_PER_LINE;
  let firstType = -1;
  for (let l = 0; l < cfg.lines; l++) {
    const bl = b * s.L + l;
    // ---- The instruction ----
    let type = rng.nextInt(cfg.types);
    while (firstType >= 0 && type >> 1 === firstType >> 1) type = rng.nextInt(cfg.types);
    if (l === 0) firstType = type;
    const attrs = drawAttrs(rng, W, cfg.attrs, 0);
    for (let d = 0; d < D; d++) s.goalOpt[bl * D + d] = d < cfg.options ? OPTION_OFFSET[d] + rng.nextInt(OPTION_VALUES[d].length) : -1;
    const limit = 20 + 10 * rng.nextInt(7);
    s.goalType[bl] = type;
    s.goalAttrs[bl] = attrs;
    s.limit[bl] = limit;
    const priceOk = () => Math.ceil(limit * 0.5) + rng.nextInt(limit - Math.ceil(limit * 0.5) + 1);
    const priceOver = () => limit + 1 + rng.nextInt(Math.floor(limit / 2));
    const priceAny = () => Math.ceil(limit * 0.4) + rng.nextInt(Math.floor(limit * 1.1));

    // ---- The pool: the wanted product (index 0), near misses, then other products ----
    const p0 = bl * P;
    const put = (p: number, t: number, a: number, price: number, opts: number) => {
      s.prodType[p0 + p] = t;
      s.prodAttrs[p0 + p] = a;
      s.prodPrice[p0 + p] = price;
      s.prodOpts[p0 + p] = opts;
    };
    const goalOff = bl * D;
    const noGoal = new Int8Array(D).fill(-1);
    put(0, type, attrs | drawAttrs(rng, W, 1, attrs), priceOk(), drawOptions(rng, cfg.optionValues, s.goalOpt, goalOff, -1));
    for (let p = 1; p < P; p++) {
      const kind = p <= 8 ? (p - 1) >> 1 : 4;
      if (kind === 0) {
        // An attribute missing.
        const gone = drawBit(rng, attrs);
        const kept = attrs & ~(1 << gone);
        put(p, type, kept | drawAttrs(rng, W, 1, attrs), priceOk(), drawOptions(rng, cfg.optionValues, s.goalOpt, goalOff, -1));
      } else if (kind === 1) {
        put(p, type, attrs | drawAttrs(rng, W, 1, attrs), priceOver(), drawOptions(rng, cfg.optionValues, s.goalOpt, goalOff, -1));
      } else if (kind === 2 && cfg.options > 0) {
        // A wanted option value not offered.
        const d = rng.nextInt(cfg.options);
        const never = s.goalOpt[goalOff + d];
        s.goalOpt[goalOff + d] = -1;
        const opts = drawOptions(rng, cfg.optionValues, s.goalOpt, goalOff, never);
        s.goalOpt[goalOff + d] = never;
        put(p, type, attrs | drawAttrs(rng, W, 1, attrs), priceOk(), opts);
      } else if (kind === 3) {
        put(p, relatedType(type), attrs | drawAttrs(rng, W, 1, attrs), priceOk(), drawOptions(rng, cfg.optionValues, s.goalOpt, goalOff, -1));
      } else {
        let t = rng.nextInt(cfg.types);
        while (t === type) t = rng.nextInt(cfg.types);
        put(p, t, drawAttrs(rng, W, 2 + rng.nextInt(2), 0), priceAny(), drawOptions(rng, cfg.optionValues, noGoal, 0, -1));
      }
    }

    // ---- Candidate queries: the instruction's words at a random position, then distractors ----
    const good = rng.nextInt(Q);
    for (let q = 0; q < Q; q++) {
      const i = bl * Q + q;
      if (q === good) {
        s.queryType[i] = type;
        s.queryAttrs[i] = attrs;
      } else if (rng.bernoulli(0.5)) {
        s.queryType[i] = relatedType(type);
        s.queryAttrs[i] = attrs;
      } else {
        s.queryType[i] = type;
        s.queryAttrs[i] = (attrs & ~(1 << drawBit(rng, attrs))) | drawAttrs(rng, W, 1, attrs);
      }
      // Results: the wanted product (if listed) at a uniform rank, the rest drawn from the pool's others.
      const withTarget = q === good || rng.bernoulli(cfg.targetInDistractorProb);
      for (let p = 0; p < P - 1; p++) order[p] = p + 1;
      for (let p = P - 2; p > 0; p--) {
        const j = rng.nextInt(p + 1);
        const t = order[p];
        order[p] = order[j];
        order[j] = t;
      }
      const rank = withTarget ? rng.nextInt(R) : -1;
      const base = i * R;
      for (let r = 0, o = 0; r < R; r++) s.results[base + r] = r === rank ? 0 : order[o++];
    }
    s.lineReward[bl] = 0;
  }
  s.reward[b] = 0;
  s.progress[b] = 0;
  s.line[b] = 0;
  s.page[b] = P_SEARCH;
  s.query[b] = 0;
  s.resultsPage[b] = 0;
  s.item[b] = 0;
  for (let d = 0; d < D; d++) s.selected[b * D + d] = -1;
  s.nOptionSlots[b] = 0;
}

/**
 * Writes into episode `to` the task and start state that generateTask wrote into episode `from` (equal
 * seeds: a GRPO group's runs), copying arrays instead of drawing the task again.
 */
export function copyTask(s: ShopState, from: number, to: number): void {
  const L = s.L;
  const D = NUM_OPTION_DIMS;
  const span = (a: { copyWithin(target: number, start: number, end: number): unknown }, n: number) => a.copyWithin(to * n, from * n, (from + 1) * n);
  span(s.goalType, L);
  span(s.goalAttrs, L);
  span(s.goalOpt, L * D);
  span(s.limit, L);
  span(s.queryType, L * s.Q);
  span(s.queryAttrs, L * s.Q);
  span(s.results, L * s.Q * s.R);
  span(s.prodType, L * s.P);
  span(s.prodAttrs, L * s.P);
  span(s.prodPrice, L * s.P);
  span(s.prodOpts, L * s.P);
  span(s.lineReward, L);
  span(s.selected, D);
  s.nLines[to] = s.nLines[from];
  s.nMs[to] = s.nMs[from];
  s.reward[to] = 0;
  s.progress[to] = 0;
  s.line[to] = 0;
  s.page[to] = P_SEARCH;
  s.query[to] = 0;
  s.resultsPage[to] = 0;
  s.item[to] = 0;
  s.nOptionSlots[to] = 0;
}
