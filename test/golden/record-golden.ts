// Records 3 cpu iterations per method and environment through the training driver, for
// test/trainer/golden.test.ts: `npx tsx test/golden/record-golden.ts > test/golden/records.json`.
// Rerun it only when a change of behaviour is intended, and say so in the commit.
import { goldenRecords } from './golden-runs.ts';

console.log(JSON.stringify(await goldenRecords(), null, 1));
