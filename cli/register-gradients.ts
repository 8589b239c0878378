/**
 * Registers tfjs's gradient functions in Node.
 *
 * `@tensorflow/tfjs-core` registers no gradients by itself; its ESM file that does
 * (`dist/register_all_gradients`) uses directory imports that Node's ESM loader rejects. The umbrella
 * package's CommonJS build registers them into tfjs's global registry, which every copy of tfjs-core
 * shares, so loading it once makes `tf.variableGrads` work for the whole process. Pages and the Vite
 * worker import the ESM file instead (src/backend).
 */
import { createRequire } from 'node:module';

createRequire(import.meta.url)('@tensorflow/tfjs');
