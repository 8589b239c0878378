// A benchmark that borrows a test helper: bench-not-test must name it.
import { helper } from '../test/helper.ts';

export const run = helper;
