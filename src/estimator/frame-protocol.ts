/**
 * The messages that connect a panel's training worker to the page's estimator frame (sandbox-frame.ts).
 * A worker cannot make a frame, so the page makes one and hands the worker two MessagePorts per
 * sandbox worker: `data` reaches the sandbox worker inside the frame (batches in, advantages out), and
 * `control` reaches the frame itself, which stays responsive while the sandbox worker is busy and so can
 * terminate it when a call runs over its limit.
 */

/** Worker → page: a sandbox worker is wanted (`id` numbers the worker's requests). */
export interface SandboxPortRequest {
  type: 'estimatorSandbox';
  id: number;
}

/** Page → worker: the ports of a new sandbox worker, or why there is none. */
export type SandboxPortGrant =
  | { type: 'estimatorSandbox'; id: number; data: MessagePort; control: MessagePort }
  | { type: 'estimatorSandbox'; id: number; error: string };

/** Panel worker → frame, on `control`. */
export type FrameCommand = { type: 'terminate' };

/** Frame → panel worker, on `control`: the sandbox worker died of something other than `terminate`. */
export type FrameNotice = { type: 'crash'; message: string };

/** Page → frame: start a sandbox worker on these ports. */
export interface FrameSpawn {
  type: 'spawn';
  data: MessagePort;
  control: MessagePort;
}

const isSandboxPortMessage = (message: unknown) =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'estimatorSandbox';
export const isSandboxPortRequest = (message: unknown): message is SandboxPortRequest => isSandboxPortMessage(message);
export const isSandboxPortGrant = (message: unknown): message is SandboxPortGrant => isSandboxPortMessage(message);
