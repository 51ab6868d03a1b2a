/**
 * A controller among several on one etcd (`--store etcd://...`). The node holds what lasts for
 * the whole process: its stores (etcd, and its own RocksDB for logs and metric series), its
 * candidacy, and its API and agents' addresses. In each term in which it leads, it runs the
 * parts only the active controller runs, as one Controller (controller.ts: the actors, the
 * scheduler, the staging coordinator, the agents' endpoint, the router, the API), made anew
 * from the store; while another one leads, it serves its standby front (cluster/standby-front.ts:
 * requests sent on to the active controller, agents and routers sent on to it).
 * cluster/leadership-loop.ts has the state machine, in this order:
 *
 *   start:  open the stores -> open the front (bind the addresses) -> campaign
 *   elected: close the front -> guard every write with the term's key -> start the Controller
 *            on the front's addresses
 *   lost:   stop the Controller (its in-flight writes are fenced) -> open the front -> campaign
 *
 * The API address stays bound from start to stop (the front's shared listener): the front
 * answers it while the Controller starts and stops (503 with retry, or sent on to the active
 * controller), the Controller's API is attached to it while it runs. It never refuses a
 * connection while this controller stands down and leads again. The agents' address is
 * unbound and bound again (agents dial again anyway).
 *   a write's outcome unknown (etcd/write-outcome.ts): as lost, and the lead is resigned; when
 *            this controller leads again its Controller is made anew from etcd
 *   stop:   stop the Controller and resign, or withdraw -> close the front -> close the stores
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { FdSink, JsonLogger, type Logger } from '@platform/proto/common';
import { CLIENT_ADDRESS_KEY_BYTES, ClientAddressProof } from './api/client-address.js';
import { LeadershipLoop, type LeadershipState } from './cluster/leadership-loop.js';
import { StandbyFront, type ActiveAddress } from './cluster/standby-front.js';
import { CONTROLLER_VERSION } from './cluster/version.js';
import { Controller, openLocalStore, resolveControllerOptions, type ControllerOptions } from './controller.js';
import { EtcdElection, type ControllerInfo } from './store/leadership.js';
import { randomIds } from './util/ids.js';
import { Parts } from './util/parts.js';
import { checkBlobDir, type MarkerRecord } from './blobs/blob-dir-marker.js';
import { keys } from './store/keys.js';
import type { EtcdStore } from './store/etcd-store.js';

/** How long a standby reuses what etcd said of the active controller before asking again (ms). */
const ACTIVE_CACHE_MS = 500;

export class ControllerNode {
  #stopping: Promise<void> | undefined;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;

  private constructor(
    readonly log: Logger,
    readonly info: ControllerInfo,
    private readonly loop: LeadershipLoop,
    /** The node's own parts (stores, front, leadership), stopped in the reverse of their start. */
    private readonly parts: Parts,
    /** The Controller of the current term, while there is one. */
    private readonly current: { controller?: Controller | undefined },
  ) {
    this.#closed = new Promise((resolve) => (this.#markClosed = resolve));
  }

  /** Opens the stores and the front, and campaigns; resolves once the front answers (a standby, or soon the active one). */
  static async start(userOptions: ControllerOptions): Promise<ControllerNode> {
    const options = resolveControllerOptions(userOptions);
    if (!options.etcd) throw new Error('a controller node needs etcd (--store etcd://...)');
    const log = userOptions.log ?? new JsonLogger(new FdSink(1), options.logLevel, { component: 'controller' });
    const ids = userOptions.ids ?? randomIds;
    await mkdir(options.dataDir, { recursive: true });
    // Loaded here, not with the module: etcd's client costs a start on RocksDB nothing.
    const { EtcdStore } = await import('./store/etcd-store.js');
    // The node's parts, in the order they start (and the reverse of the order they stop):
    //   local-store -> etcd-store -> front -> leadership (whose terms start and stop a Controller's parts)
    const parts = new Parts(log);
    try {
      const rocks = await parts.startWith('local-store', () => openLocalStore(options, log), (r) => r.close());
      const etcd = await parts.startWith('etcd-store', () => new EtcdStore(options.etcd!), (e) => e.close().catch((err: unknown) => log.warn('etcd store close failed', { err })));
      // Controllers on one etcd share one blob directory; one whose directory is another never leads.
      const blobDir = await checkBlobDir(options.blobDir, markerRecord(etcd));
      if (!blobDir.shared) {
        log.error(
          'this controller\'s blob directory is not the one the cluster\'s controllers share: it stands by and never leads. Give it the same PLATFORM_BLOB_DIR as the others (a mount all of them reach), which holds the cluster\'s marker file, and start it again',
          { blob_dir: options.blobDir, marker_file: blobDir.file, cluster_marker: blobDir.expected, found: blobDir.found ?? 'none' },
        );
      }
      // Shared by the controllers: a standby proves its clients' addresses with it, the active one checks them.
      const clientAddressKey = await sharedClientAddressKey(etcd);
      const election = new EtcdElection(etcd, options.leaseTtlSeconds, log);
      let cached: { at: number; active: ActiveAddress | undefined } | undefined;
      const id = ids.uuid();
      const front = new StandbyFront({
        id,
        listen: options.listen,
        grpcListen: options.grpcListen,
        log,
        ids,
        clientAddress: new ClientAddressProof(clientAddressKey),
        active: async (fresh) => {
          if (!fresh && cached && Date.now() - cached.at < ACTIVE_CACHE_MS) return cached.active;
          const leader = await election.leader();
          // Not this controller: while it starts its parts, it is the leader but serves nothing yet.
          const active = leader && leader.id !== id ? { api: leader.api, grpc: leader.grpc } : undefined;
          cached = { at: Date.now(), active };
          return active;
        },
      });
      // The first open binds the addresses (port 0: one picked now, kept for every term).
      await parts.start({ name: 'front', start: () => front.open(), stop: () => front.shutdown() });
      const host = (h: string) => (h.includes(':') ? `[${h}]` : h);
      const apiHost = ['0.0.0.0', '::'].includes(options.listen.host) ? '127.0.0.1' : options.listen.host;
      const info: ControllerInfo = {
        id,
        api: `http://${host(apiHost)}:${front.apiPort}`,
        grpc: `${host(options.grpcListen.host)}:${front.grpcPort}`,
        started: new Date().toISOString(),
        blob_dir_shared: blobDir.shared,
      };
      const current: { controller?: Controller | undefined } = {};
      const loop = new LeadershipLoop({
        election,
        info,
        front,
        log,
        ...(blobDir.shared ? {} : { mustNotLead: `its blob directory ${options.blobDir} is not the cluster's` }),
        sleep: (ms, signal) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, ms);
            signal.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(new Error('stopped'));
            }, { once: true });
          }),
        onState: (state: LeadershipState) => {
          if (state === 'standby') {
            cached = undefined;
            log.info('controller standing by', { id: info.id, api: info.api, grpc: info.grpc, blob_dir_shared: blobDir.shared, version: CONTROLLER_VERSION, store: `etcd (${options.etcd!.endpoints.join(',')}, ${etcd.prefix})` });
          }
        },
        activate: async (term, releaseFront) => {
          // From here on every write is conditioned on this term's key: a stale one is refused by
          // etcd. A write whose outcome stays unknown ends the term's parts: their memory may
          // disagree with etcd (the election key is `<prefix>election/controller/<lease id>`).
          let unresolved: (err: Error) => void = () => undefined;
          const failed = new Promise<Error>((resolve) => (unresolved = resolve));
          etcd.setGuard(
            { key: term.key, createRevision: term.createRevision, lease: term.key.slice(term.key.lastIndexOf('/') + 1) },
            {
              onUnresolved: (err) => unresolved(err),
              onSettling: (e) => log.warn('etcd did not answer a write: its outcome is sought by its receipt', { receipt: e.receipt, err: e.cause }),
              onAmbiguous: (e) => {
                const fields = { receipt: e.receipt, outcome: e.outcome, tries: e.tries, ms: e.ms, err: e.cause };
                if (e.outcome === 'unknown') log.error('etcd did not answer a write, and its outcome could not be learnt', fields);
                else log.warn('etcd did not answer a write: its outcome was learnt from its receipt', fields);
              },
            },
          );
          const controller = await Controller.start({
            ...userOptions,
            log,
            listen: { host: options.listen.host, port: front.apiPort },
            grpcListen: { host: options.grpcListen.host, port: front.grpcPort },
            term: { rocks, etcd, controllers: () => election.members(), clientAddressKey, api: front.apiListener, releaseAgentsPort: releaseFront },
          });
          current.controller = controller;
          return {
            failed,
            stop: async () => {
              await controller.stop();
              if (current.controller === controller) current.controller = undefined;
            },
          };
        },
      });
      const node = new ControllerNode(log, info, loop, parts, current);
      // The loop opens the front again (a no-op: it is open) and campaigns; its stop closes the front.
      await parts.start({ name: 'leadership', start: () => loop.start(), stop: () => loop.stop() });
      log.info('controller standing by', { id: info.id, api: info.api, grpc: info.grpc, blob_dir_shared: blobDir.shared, version: CONTROLLER_VERSION, store: `etcd (${options.etcd.endpoints.join(',')}, ${etcd.prefix})` });
      return node;
    } catch (err) {
      await parts.stop([], false).catch(() => undefined);
      throw err;
    }
  }

  /** standby, starting, active, stepping-down or stopped. */
  get state(): LeadershipState {
    return this.loop.state;
  }

  /** The Controller of the current term, while this one is active. */
  get controller(): Controller | undefined {
    return this.current.controller;
  }

  get url(): string {
    return this.info.api;
  }

  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Steps down (resigning) or withdraws, then closes the stores. Safe to call more than once. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.log.info('controller stopping');
      // The leadership first (the term's Controller stops, the lead is resigned), the stores last.
      await this.parts.stop().catch((err: unknown) => this.log.error('the controller did not stop cleanly', { err }));
      this.log.info('controller stopped');
      this.#markClosed();
    })();
    return this.#stopping;
  }
}

/** The cluster's blob directory marker in etcd (`meta/blob-dir-marker`), recorded only if none is. */
function markerRecord(etcd: EtcdStore): MarkerRecord {
  const key = keys.meta('blob-dir-marker');
  return {
    get: () => etcd.get(key),
    claim: async (marker) => {
      const ns = etcd.client.namespace(etcd.prefix);
      await ns.if(key, 'Create', '==', 0).then(ns.put(key).value(marker)).commit();
      const recorded = await etcd.get(key);
      if (recorded === undefined) throw new Error(`the blob directory marker ${key} is gone from etcd right after it was recorded`);
      return recorded;
    },
  };
}

/**
 * The key the controllers prove clients' addresses to each other with (api/client-address.ts):
 * made by the first controller that starts and kept in etcd (`meta/client-address-key`), put only
 * if no other controller put one meanwhile, so that every controller reads the same. Any
 * controller may make it (a standby needs it as much as the active one), hence not under a term's
 * guard. Kept in etcd, it is as safe as etcd's access, like the join secret.
 */
async function sharedClientAddressKey(etcd: EtcdStore): Promise<Buffer> {
  const key = keys.meta('client-address-key');
  let kept = await etcd.get(key);
  if (kept === undefined) {
    const ns = etcd.client.namespace(etcd.prefix);
    await ns.if(key, 'Create', '==', 0).then(ns.put(key).value(randomBytes(CLIENT_ADDRESS_KEY_BYTES).toString('base64'))).commit();
    kept = await etcd.get(key);
    if (kept === undefined) throw new Error(`the client address key ${key} is gone from etcd right after it was recorded`);
  }
  const bytes = Buffer.from(kept, 'base64');
  if (bytes.length !== CLIENT_ADDRESS_KEY_BYTES) throw new Error(`the client address key in etcd (${key}) is not ${CLIENT_ADDRESS_KEY_BYTES} bytes of base64: remove it and start the controllers again`);
  return bytes;
}
