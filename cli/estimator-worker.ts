/**
 * Node's estimator sandbox: a worker thread that holds the visitor's module (imported from a data:
 * URL of its source) and answers the host's requests through the shared core
 * (src/estimator/sandbox-core.ts). The host terminates the thread when a call runs over its limit.
 */
import { format } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { SandboxCore, type SandboxRequest } from '../src/estimator/sandbox-core.ts';
import type { ConsoleLine } from './estimator-sandbox.ts';

const port = parentPort!;
// The visitor's console output travels on the same port as the replies, so the host writes it before it
// handles the reply that follows (a worker's own stdout reaches the host asynchronously, possibly after
// the command has printed its result and exited).
for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  console[level] = (...args: unknown[]) => port.postMessage({ type: 'console', text: format(...args) } satisfies ConsoleLine);
}
const core = new SandboxCore({
  url: (source) => `data:text/javascript;base64,${Buffer.from(source, 'utf8').toString('base64')}`,
  load: (url) => import(url),
});

port.on('message', (request: SandboxRequest) => {
  void core.handle(request).then(({ reply, transfer }) => port.postMessage(reply, transfer));
});
port.postMessage({ type: 'ready' });
