/**
 * Node's estimator sandbox: a worker thread that holds the visitor's module (imported from a data:
 * URL of its source) and answers the host's requests through the shared core
 * (src/estimator/sandbox-core.ts). The host terminates the thread when a call runs over its limit.
 */
import { parentPort } from 'node:worker_threads';
import { SandboxCore, type SandboxRequest } from '../src/estimator/sandbox-core.ts';

const port = parentPort!;
const core = new SandboxCore({
  url: (source) => `data:text/javascript;base64,${Buffer.from(source, 'utf8').toString('base64')}`,
  load: (url) => import(url),
});

port.on('message', (request: SandboxRequest) => {
  void core.handle(request).then(({ reply, transfer }) => port.postMessage(reply, transfer));
});
port.postMessage({ type: 'ready' });
