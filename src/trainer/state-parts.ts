/**
 * The pieces of a trainer that a checkpoint saves and restores, one `StatePart` each: a network's
 * weights (`variablesPart`) and an Adam optimiser's moments and step (`adamPart`).
 *
 * A part's state is JSON-safe values plus named float32 arrays, so the checkpoint format
 * (checkpoint.ts) stores any part without knowing what it is. A learner with state of its own (a
 * critic network and its optimiser) registers more parts with the trainer; nothing else changes.
 *
 * Restoring is exact, bit for bit: float32 arrays are copied as they are, and the few float32 scalars
 * kept as JSON numbers survive the float32 → float64 → text → float64 → float32 trip unchanged.
 */
import * as tf from '@tensorflow/tfjs-core';

import { StateError, type SavedArray, type StatePart } from '../state/state-part.ts';

export { StateError, type Json, type PartState, type SavedArray, type StatePart } from '../state/state-part.ts';

const sameShape = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The weights of a network's variables, in their order (keys "0", "1", …). */
export function variablesPart(variables: readonly tf.Variable[], label: string): StatePart {
  return {
    async save() {
      const arrays: Record<string, SavedArray> = {};
      for (const [i, v] of variables.entries()) arrays[i] = { shape: [...v.shape], values: ((await v.data()) as Float32Array).slice() };
      return { json: null, arrays };
    },
    async load({ arrays }) {
      const keys = Object.keys(arrays);
      if (keys.length !== variables.length)
        throw new StateError(`${label}: the checkpoint has ${keys.length} weight arrays, this run's network has ${variables.length}`);
      variables.forEach((v, i) => {
        const saved = arrays[i];
        if (!saved || !sameShape(saved.shape, v.shape))
          throw new StateError(`${label}: weight ${i} has shape [${saved?.shape.join(', ')}] in the checkpoint, [${v.shape.join(', ')}] in this run`);
      });
      tf.tidy(() => variables.forEach((v, i) => v.assign(tf.tensor(arrays[i].values, v.shape))));
    },
  };
}

/** tfjs's Adam internals that its public getWeights/setWeights do not carry exactly. */
interface AdamInternals {
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: { variable: tf.Variable }[];
  accumulatedSecondMoment: { variable: tf.Variable }[];
}

/**
 * Adam's step count and first and second moments (tfjs getWeights order: m of every variable, then v),
 * plus β1^t and β2^t. tfjs's setWeights recomputes those two as pow(β, t + 1), which is not bit-equal to
 * the running product Adam keeps, so they are saved and put back as they were.
 */
export function adamPart(optimizer: tf.AdamOptimizer, label: string): StatePart {
  const internals = optimizer as unknown as AdamInternals;
  return {
    async save() {
      const [iter, ...moments] = await optimizer.getWeights();
      const iterations = (await iter.tensor.data())[0];
      iter.tensor.dispose(); // getWeights makes a fresh scalar for the step count
      const arrays: Record<string, SavedArray> = {};
      for (const [i, m] of moments.entries()) arrays[i] = { shape: [...m.tensor.shape], values: ((await m.tensor.data()) as Float32Array).slice() };
      const accBeta1 = (await internals.accBeta1.data())[0];
      const accBeta2 = (await internals.accBeta2.data())[0];
      return { json: { iterations, accBeta1, accBeta2, names: moments.map((m) => m.name) }, arrays };
    },
    async load({ json, arrays }) {
      const j = json as { iterations?: unknown; accBeta1?: unknown; accBeta2?: unknown; names?: unknown };
      const count = Object.keys(arrays).length;
      if (!Number.isInteger(j.iterations) || (j.iterations as number) < 0)
        throw new StateError(`${label}: iterations must be a non-negative integer, got ${JSON.stringify(j.iterations)}`);
      for (const k of ['accBeta1', 'accBeta2'] as const) {
        const x = j[k];
        if (typeof x !== 'number' || !(x > 0 && x <= 1)) throw new StateError(`${label}: ${k} must be a number in (0, 1], got ${JSON.stringify(x)}`);
      }
      if (!Array.isArray(j.names) || j.names.length !== count || count % 2 !== 0)
        throw new StateError(`${label}: the moments must come in pairs with one name each`);
      // A used optimiser's moments are replaced: free them first (setWeights does not).
      tf.dispose([...internals.accumulatedFirstMoment, ...internals.accumulatedSecondMoment].map((m) => m.variable));
      const named = [{ name: 'iter', tensor: tf.scalar(j.iterations as number, 'int32') }];
      for (let i = 0; i < count; i++) {
        const a = arrays[i];
        if (!a) throw new StateError(`${label}: moment ${i} is missing`);
        named.push({ name: String((j.names as unknown[])[i]), tensor: tf.tensor(a.values, a.shape) });
      }
      await optimizer.setWeights(named);
      tf.dispose(named.map((n) => n.tensor)); // the optimiser's variables hold their own references
      tf.tidy(() => {
        internals.accBeta1.assign(tf.scalar(j.accBeta1 as number));
        internals.accBeta2.assign(tf.scalar(j.accBeta2 as number));
      });
    },
  };
}
