/**
 * The lease keeper's thread (lease-keeper.ts): renews the term's lease over a connection of its
 * own while the main thread says it is there. Messages: parent -> worker 'here'; worker ->
 * parent { renewed: true } once (it keeps the lease from then on), { ended: why } (the lease is
 * taken for lost; the thread ends).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Etcd3, type IOptions } from 'etcd3';
import { SystemClock } from '../util/clock.js';
import { LeaseKeeper, renewEveryMs, type LeaseKeeperData } from './lease-keeper.js';

const data = workerData as LeaseKeeperData;
const credentials = data.client.credentials;
// Buffers arrive as Uint8Arrays.
const options: IOptions = {
  ...data.client,
  ...(credentials
    ? {
        credentials: {
          rootCertificate: Buffer.from(credentials.rootCertificate),
          ...(credentials.certChain && credentials.privateKey ? { certChain: Buffer.from(credentials.certChain), privateKey: Buffer.from(credentials.privateKey) } : {}),
        },
      }
    : {}),
};
const client = new Etcd3(options);
const every = renewEveryMs(data.ttlMs);

type Stream = Awaited<ReturnType<typeof client.leaseClient.leaseKeepAlive>>;
let stream: Promise<Stream> | undefined;
/** The renewal waiting for its answer (one at a time: the keeper waits for each). */
let waiting: { resolve: (ttl: number) => void; reject: (err: Error) => void } | undefined;

function open(): Promise<Stream> {
  const made = client.leaseClient.leaseKeepAlive().then((s) => {
    s.on('data', (res: { TTL: string }) => {
      waiting?.resolve(Number(res.TTL));
      waiting = undefined;
    });
    s.on('error', (err: Error) => {
      if (stream === made) stream = undefined;
      waiting?.reject(err);
      waiting = undefined;
    });
    return s;
  });
  made.catch(() => {
    if (stream === made) stream = undefined;
  });
  return made;
}

/**
 * One renewal on the keep-alive stream (made again after a failure): the TTL etcd answers.
 * Bounded by the TTL as a whole, the stream's making included (the client waits for a
 * connection, behind its circuit breaker): a renewal that never settled would hold every later
 * one back until the lease was lost.
 */
async function renew(): Promise<number> {
  const started = Date.now();
  const current = (stream ??= open());
  let opening: NodeJS.Timeout | undefined;
  const s = await Promise.race([
    current,
    new Promise<never>((_, reject) => {
      opening = setTimeout(() => {
        if (stream === current) stream = undefined;
        reject(new Error(`no keep-alive stream to etcd within ${data.ttlMs} ms`));
      }, data.ttlMs);
    }),
  ]).finally(() => clearTimeout(opening));
  return new Promise<number>((resolve, reject) => {
    // No answer within the TTL: the stream is made again.
    const timer = setTimeout(() => {
      if (stream === current) stream = undefined;
      s.end();
      waiting = undefined;
      reject(new Error(`no answer to the renewal within ${data.ttlMs} ms`));
    }, Math.max(0, data.ttlMs - (Date.now() - started)));
    waiting = {
      resolve: (ttl) => {
        clearTimeout(timer);
        resolve(ttl);
      },
      reject: (err) => {
        clearTimeout(timer);
        reject(err);
      },
    };
    s.write({ ID: data.lease });
  });
}

const keeper = new LeaseKeeper({ clock: new SystemClock(), ttlMs: data.ttlMs, renew, attempt: (attempt) => parentPort!.postMessage({ attempt }) });
parentPort!.on('message', () => keeper.heard());
let said = false;
const tick = () =>
  keeper.tick().then(() => {
    if (keeper.renewed > 0 && !said) {
      said = true;
      parentPort!.postMessage({ renewed: true });
    }
    if (keeper.ended === undefined) return;
    clearInterval(timer);
    parentPort!.postMessage({ ended: keeper.ended });
    client.close();
    parentPort!.close();
  });
const timer = setInterval(() => void tick(), every);
void tick();
