/**
 * `npm run prior:ship`: computes the page defaults' SFT prior on wasm, as the page's worker does, and
 * writes it to src/page/page-prior.json (src/page/shipped-prior.ts says why and when).
 */
import { writeFileSync } from 'node:fs';
import '../cli/register-gradients.ts';
import { initBackend } from '../src/backend/node-webgpu.ts';
import { applyTrainingFlags } from '../src/backend/webgpu-interop.ts';
import { encodeShippedPrior, SHIPPED_PRIOR_BACKEND, shippedPriorConfig, shippedPriorKey } from '../src/page/shipped-prior.ts';
import { trainSftPrior } from '../src/trainer/sft-prior.ts';

const report = await initBackend(SHIPPED_PRIOR_BACKEND, { strict: true });
applyTrainingFlags(report.backend); // the flags the worker trains under (worker-backend.ts)
const weights = await trainSftPrior(shippedPriorConfig());
const file = new URL('../src/page/page-prior.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(encodeShippedPrior(shippedPriorKey(), weights))}\n`);
console.log(`wrote ${file.pathname}: ${shippedPriorKey()}`);
