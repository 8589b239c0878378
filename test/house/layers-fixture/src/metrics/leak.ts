// A metric that reaches the page through a helper: core-loads-no-runtime must name it.
import { helper } from './helper.ts';

export const leak = helper;
