/**
 * Runs a bench with a GPU fault armed in its own process (src/gpu/fault-injection.ts), for tests of
 * what a bench does when the GPU path is refused:
 *   tsx test/support/bench-with-fault.ts <fault> <bench script> [bench flags …]
 * The bench reads its flags from process.argv as when run alone.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ArmedGpuFault, armGpuFault } from '../../src/gpu/fault-injection.ts';

const [fault, script, ...args] = process.argv.slice(2);
if (!fault || !script) throw new Error('usage: tsx test/support/bench-with-fault.ts <fault> <bench script> [flags …]');
armGpuFault(fault as ArmedGpuFault);
process.argv = [process.argv[0]!, script, ...args];
await import(pathToFileURL(resolve(script)).href);
