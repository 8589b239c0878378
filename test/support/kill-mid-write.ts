/**
 * A process that starts an atomic checkpoint write and is SIGKILLed inside it, between the flushed
 * temporary file and the rename: `node --import tsx test/support/kill-mid-write.ts TARGET SOURCE`
 * writes SOURCE's bytes to TARGET and dies before they can land (checkpoint tests, reliability suite).
 */
import { readFileSync } from 'node:fs';
import { writeCheckpointFile } from '../../cli/checkpoint-file.ts';

const [target, source] = process.argv.slice(2);
const bytes = readFileSync(source);
writeCheckpointFile(target, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, {
  beforeRename: () => process.kill(process.pid, 'SIGKILL'),
});
process.stderr.write('the kill did not happen\n');
process.exit(3);
