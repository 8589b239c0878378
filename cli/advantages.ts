/**
 * The advantage calculator: `npm run -s advantages -- --input batch.json [--backend cpu|webgpu]`.
 *
 * Reads a batch in the JSON format of cli/batch-json.ts and prints the advantages in the
 * same format on either path: `cpu` runs the reference estimators, `webgpu` the WGSL kernels through
 * tfjs on Dawn (SwiftShader where there is no GPU). The webgpu numbers are float32, so they agree with
 * the cpu ones to about 1e-6, not to the last digit. `--input -` reads stdin.
 * Invalid flags or input exit with 2 and a message naming the field; a missing GPU adapter exits with 1.
 * `--estimator FILE.js` runs your own estimator on the batch instead (in a worker thread, with
 * `--estimatorTimeout`); its failures exit with 2 and their message.
 */
import { InputError, formatAdvantageResponse, type AdvantageRequest } from './batch-json.ts';
import type { AdvantageResult } from '../src/advantages/types.ts';
import { EstimatorError } from '../src/estimator/failure.ts';
import { estimatorSettings } from '../src/estimator/custom-settings.ts';
import { methodSpec } from '../src/methods/registry.ts';
import { nodeEstimatorSandbox, readEstimatorSource } from './estimator-sandbox.ts';
import { parseAdvantagesArgs, readAdvantageRequest, USAGE } from './advantages-args.ts';
import { runCommand } from './flags.ts';

/** The method's engine on webgpu (its WGSL kernels through tfjs on Dawn); leaves no tensor, buffer or GPU handle behind. */
async function computeOnWebGpu(request: AdvantageRequest): Promise<AdvantageResult> {
  // Loaded only here so that the cpu path (and every usage error) never loads tfjs or the native addon.
  const tf = await import('@tensorflow/tfjs-core');
  const { initBackend, uninstallNodeWebGpu } = await import('../src/backend/node-webgpu.ts');
  const { setWebGpuCpuForward } = await import('../src/backend/webgpu-interop.ts');
  const { createAdvantageEngine } = await import('../src/engine/advantage-engine.ts');
  const { readShaderSources } = await import('../src/gpu/shaders-node.ts');
  await initBackend('webgpu', { strict: true });
  setWebGpuCpuForward(false);
  const engine = createAdvantageEngine('webgpu', request.settings.method, readShaderSources);
  try {
    const { tensor, result } = await engine.compute(request.batch, request.settings);
    tensor.dispose();
    return result;
  } finally {
    engine.dispose();
    // Dawn keeps the process alive while its device and GPU object are referenced.
    tf.removeBackend('webgpu');
    uninstallNodeWebGpu();
  }
}

async function main(argv: string[]): Promise<number> {
  const args = parseAdvantagesArgs(argv);
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.estimator !== undefined) {
    const source = readEstimatorSource(args.estimator);
    const request = readAdvantageRequest(args.input, true);
    const sandbox = nodeEstimatorSandbox(source, args.estimatorTimeout);
    try {
      const advantages = await sandbox.estimate(request.batch, estimatorSettings(request.settings));
      const runs = request.batch.runOffsets.length - 1;
      const empty = new Float64Array(advantages.length);
      process.stdout.write(
        `${JSON.stringify(formatAdvantageResponse(request, { advantages, trajectoryAdvantages: new Float64Array(runs), segmentAdvantages: empty, shapedRewards: empty }))}\n`,
      );
      return 0;
    } finally {
      sandbox.dispose();
    }
  }
  const request = readAdvantageRequest(args.input);
  let result: AdvantageResult;
  try {
    result = args.backend === 'webgpu' ? await computeOnWebGpu(request) : methodSpec(request.settings.method).estimate(request.batch, request.settings);
  } catch (e) {
    process.stderr.write(`advantages (${args.backend}): ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify(formatAdvantageResponse(request, result))}\n`);
  return 0;
}

runCommand(() => main(process.argv.slice(2)), USAGE, [InputError, EstimatorError]);
