/**
 * The golden runs (test/golden/): the training driver reproduces, record for record, the 3 cpu
 * iterations per method and environment recorded in test/golden/records.json. A change that alters
 * training (features, the update, the maths) fails here until the file is re-recorded on purpose.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goldenRecords } from '../golden/golden-runs.ts';

describe('golden records', () => {
  it('trains exactly the recorded iterations on cpu for every method and environment', async () => {
    const expected = JSON.parse(readFileSync(new URL('../golden/records.json', import.meta.url), 'utf8'));
    const actual = await goldenRecords();
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected)) expect(actual[key], key).toEqual(expected[key]);
  });
});
