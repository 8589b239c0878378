/**
 * The shop's vocabulary: product types (in pairs of related types, which WebShop's type reward scores
 * half), attribute words, and option values of the two option dimensions (colour, size). Every word the
 * pages show is one of these, so the policy's bag-of-words features (features.ts) index this list.
 */

/** Product types; types 2c and 2c + 1 share a category (a "related" type, docs/maths.md §10). */
export const TYPE_NAMES = [
  't-shirt',
  'hoodie',
  'sneakers',
  'boots',
  'mug',
  'teapot',
  'headphones',
  'speaker',
  'candle',
  'pillow',
  'backpack',
  'tote bag',
] as const;
export const NUM_TYPES = TYPE_NAMES.length;

export const ATTR_NAMES = [
  'cotton',
  'waterproof',
  'wireless',
  'organic',
  'handmade',
  'vegan',
  'lightweight',
  'recycled',
  'machine washable',
  'non-slip',
  'dishwasher safe',
  'noise cancelling',
  'scented',
  'travel size',
  'eco-friendly',
  'long lasting',
] as const;
export const NUM_ATTRS = ATTR_NAMES.length;

/** Option dimensions and their values; a product offers some values of every dimension. */
export const OPTION_DIM_NAMES = ['color', 'size'] as const;
export const NUM_OPTION_DIMS = OPTION_DIM_NAMES.length;
export const OPTION_VALUES: readonly (readonly string[])[] = [
  ['black', 'white', 'red', 'blue', 'green', 'grey'],
  ['small', 'medium', 'large', 'x-large'],
];
/** Values are numbered across dimensions (colour values first): bit v of a product's option mask. */
export const OPTION_OFFSET = [0, OPTION_VALUES[0].length];
export const NUM_OPTION_VALUES = OPTION_VALUES[0].length + OPTION_VALUES[1].length;

/** Bag-of-words slots: types, then attributes, then option values. */
export const WORD_TYPE = 0;
export const WORD_ATTR = NUM_TYPES;
export const WORD_OPTION = NUM_TYPES + NUM_ATTRS;
export const NUM_WORDS = WORD_OPTION + NUM_OPTION_VALUES;
export const WORD_NAMES: readonly string[] = [...TYPE_NAMES, ...ATTR_NAMES, ...OPTION_VALUES[0], ...OPTION_VALUES[1]];

/** WebShop's type reward (engine/goal.py get_type_reward), made discrete: same type 1, related 0.5, else 0. */
export function typeReward(bought: number, wanted: number): number {
  if (bought === wanted) return 1;
  return bought >> 1 === wanted >> 1 ? 0.5 : 0;
}

/** The related type of t (the other type of its category). */
export function relatedType(t: number): number {
  return t ^ 1;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
