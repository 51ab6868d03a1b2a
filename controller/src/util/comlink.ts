/**
 * The one wrapper around comlink for worker_threads. comlink ships UMD builds
 * whose typings do not match its runtime under NodeNext, so it is loaded with
 * `require` here and given the small typed surface the controller uses.
 */
import { createRequire } from 'node:module';
import type { MessagePort, Worker } from 'node:worker_threads';

/** The remote view of an object exposed in another thread: every method returns a promise. */
export type Remote<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

interface ComlinkModule {
  wrap(endpoint: unknown): unknown;
  expose(value: unknown, endpoint: unknown): void;
}

const require = createRequire(import.meta.url);
const comlink = require('comlink') as ComlinkModule;
const nodeEndpoint = require('comlink/dist/umd/node-adapter.js') as (port: Worker | MessagePort) => unknown;

/** A typed proxy for the object that `worker` exposes with `exposeToParent`. */
export function wrapWorker<T>(worker: Worker): Remote<T> {
  return comlink.wrap(nodeEndpoint(worker)) as Remote<T>;
}

/** Exposes `value` to the thread that started this worker. */
export function exposeToParent(value: object, port: MessagePort): void {
  comlink.expose(value, nodeEndpoint(port));
}
