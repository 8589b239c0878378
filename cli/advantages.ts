/**
 * The advantage calculator: `npm run -s advantages -- --input batch.json [--backend cpu|webgpu]`.
 *
 * Reads a batch in the JSON format of src/advantages/batch-json.ts and prints the advantages in the
 * same format on either path: `cpu` runs the reference estimators, `webgpu` the WGSL kernels through
 * tfjs on Dawn (SwiftShader where there is no GPU). The webgpu numbers are float32, so they agree with
 * the cpu ones to about 1e-6, not to the last digit. `--input -` reads stdin.
 * Invalid flags or input exit with 2 and a message naming the field; a missing GPU adapter exits with 1.
 */
import { InputError, formatAdvantageResponse, type AdvantageRequest } from '../src/advantages/batch-json.ts';
import { computeAdvantages } from '../src/advantages/estimators.ts';
import type { AdvantageResult } from '../src/advantages/types.ts';
import { parseAdvantagesArgs, readAdvantageRequest, USAGE, UsageError } from './advantages-args.ts';

/** The kernels through tfjs on Dawn; leaves no tensor, buffer or GPU handle behind. */
async function computeOnWebGpu(request: AdvantageRequest): Promise<AdvantageResult> {
  // Loaded only here so that the cpu path (and every usage error) never loads tfjs or the native addon.
  const tf = await import('@tensorflow/tfjs-core');
  const { initBackend, uninstallNodeWebGpu } = await import('../src/backend/node-webgpu.ts');
  const { GpuAdvantageEstimator, batchToTensors } = await import('../src/gpu/advantage-estimator.ts');
  const { readShaderSources } = await import('../src/gpu/shaders-node.ts');
  await initBackend('webgpu', { strict: true });
  const estimator = new GpuAdvantageEstimator(readShaderSources());
  const inputs = batchToTensors(request.batch);
  try {
    const { advantages, details } = await estimator.compute(inputs, request.settings, { details: true });
    advantages.dispose();
    return details!;
  } finally {
    tf.dispose(Object.values(inputs));
    estimator.dispose();
    // Dawn keeps the process alive while its device and GPU object are referenced.
    tf.removeBackend('webgpu');
    uninstallNodeWebGpu();
  }
}

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseAdvantagesArgs>;
  let request: AdvantageRequest;
  try {
    args = parseAdvantagesArgs(argv);
    if (args === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    request = readAdvantageRequest(args.input);
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) {
      process.stderr.write(`${e.message}\n${e instanceof UsageError ? `\n${USAGE}\n` : ''}`);
      return 2;
    }
    throw e;
  }
  let result: AdvantageResult;
  try {
    result = args.backend === 'cpu' ? computeAdvantages(request.batch, request.settings) : await computeOnWebGpu(request);
  } catch (e) {
    process.stderr.write(`advantages (${args.backend}): ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify(formatAdvantageResponse(request, result))}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
