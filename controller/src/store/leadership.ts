/**
 * Which controller of those that share one etcd is the active one: etcd's election (the etcd3
 * client's Campaign: a key per candidate under `<prefix>election/controller/`, bound to the
 * candidate's lease; the candidate whose key is oldest leads). Each candidate's key holds what
 * it says of itself (ControllerInfo: its id, API URL and agents' address), so that standbys know
 * where to send requests and agents, and the active one can list the controllers.
 *
 * A campaign ends in a Term once this candidate leads. From then on every batch the controller
 * writes is conditioned on the term's key still being the one it made (EtcdStore's guard,
 * compared by create revision): once its lease is gone (the process paused past the TTL, or cut
 * off from etcd), etcd deletes the key, the term's `lost` resolves, and no write of it can land
 * any more, whatever it still believes.
 */
import type { Logger } from '@platform/proto/common';
import type { Campaign, Election as EtcdElectionApi, Lease } from 'etcd3';
import type { EtcdStore } from './etcd-store.js';
import { LeaseKeeperThread } from './lease-keeper.js';

/** What a controller says of itself to the others. */
export interface ControllerInfo {
  /** Made at each start of the process. */
  id: string;
  /** The API's base URL, as the other controllers reach it. */
  api: string;
  /** host:port of the agents' endpoint. */
  grpc: string;
  /** When the process started (ISO 8601). */
  started: string;
  /**
   * Whether its blob directory is the cluster's (blobs/blob-dir-marker.ts): one that is not
   * never leads. Absent in what controllers of earlier builds say.
   */
  blob_dir_shared?: boolean;
}

/** A controller as the election sees it: `since` (ISO 8601) is when it began to lead, on the active one. */
export interface ControllerStatus extends ControllerInfo {
  active: boolean;
  since?: string;
}

/** One leadership of this controller, from election to loss or resignation. */
export interface Term {
  /** The election key this candidate holds (its etcd key, without the store's prefix removed). */
  readonly key: string;
  /** The key's create revision: the guard of every write of the term. */
  readonly createRevision: string;
  readonly since: Date;
  /** Resolves when the lead is lost (the lease is gone); never rejects. */
  readonly lost: Promise<Error>;
  /** Gives the lead up: the next candidate leads at once instead of after the TTL. */
  resign(): Promise<void>;
}

export interface Election {
  /**
   * Resolves once this candidate leads. Aborting `signal` withdraws the candidacy (its key and
   * lease go) and rejects.
   */
  campaign(info: ControllerInfo, signal: AbortSignal): Promise<Term>;
  /** The active controller, if one leads now. */
  leader(): Promise<(ControllerInfo & { since?: string }) | undefined>;
  /** Every controller taking part (the active one and the standbys), oldest candidacy first; then those that only stand by. */
  members(): Promise<ControllerStatus[]>;
  /**
   * Says `info` without standing for election (a controller that must not lead), for as long
   * as its lease lives: resolves once the lease is lost (say it again), rejects once `signal`
   * is aborted (the key and lease go).
   */
  standBy(info: ControllerInfo, signal: AbortSignal): Promise<void>;
}

/** etcd3's Election keeps its keys under `election/<name>/`: `<prefix>election/controller/<lease id>`. */
/** How long a resignation may take: etcd unreachable, the lease ends by itself within its TTL. */
const RESIGN_TIMEOUT_MS = 5_000;

/** Gives the candidacy up, within RESIGN_TIMEOUT_MS (a stop must not hang on an etcd that does not answer). */
function resign(campaign: Campaign): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    campaign.resign().finally(() => clearTimeout(timer)),
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`etcd did not take the resignation within ${RESIGN_TIMEOUT_MS} ms: the lease ends by itself`)), RESIGN_TIMEOUT_MS);
      timer.unref();
    }),
  ]);
}

export const ELECTION_NAME = 'controller';
/** Where controllers that do not stand for election say who they are: `<prefix>standby-only/controller/<lease id>`. */
const STANDBY_ONLY = `standby-only/${ELECTION_NAME}/`;

function parseInfo(value: string | undefined): (ControllerInfo & { since?: string }) | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as ControllerInfo & { since?: string };
  } catch {
    return undefined; // a candidate of another build: not one we can send anything to
  }
}

export class EtcdElection implements Election {
  readonly #election: EtcdElectionApi;

  constructor(
    private readonly store: EtcdStore,
    /** Seconds the lease lives without keep-alives: the longest a dead leader holds the lead. */
    readonly ttlSeconds: number,
    /** Where renewals of the term's lease that failed or came late are told (they say why a lead was lost). */
    private readonly log?: Logger,
  ) {
    this.#election = store.client.namespace(store.prefix).election(ELECTION_NAME, ttlSeconds);
  }

  campaign(info: ControllerInfo, signal: AbortSignal): Promise<Term> {
    if (signal.aborted) return Promise.reject(new Error('the candidacy was withdrawn'));
    const campaign: Campaign = this.#election.campaign(JSON.stringify(info));
    // Once elected, the lease is kept by a thread of its own, which also says when it is lost (lease-keeper.ts).
    let keeper: LeaseKeeperThread | undefined;
    let lostOf: (err: Error) => void = () => undefined;
    const lost = new Promise<Error>((resolve) => (lostOf = resolve)).then((err) => {
      keeper?.stop();
      return err;
    });
    return new Promise<Term>((resolve, reject) => {
      let elected = false;
      const withdraw = () => {
        resign(campaign).catch(() => undefined);
        reject(new Error('the candidacy was withdrawn'));
      };
      signal.addEventListener('abort', withdraw, { once: true });
      // Before the election an error fails the campaign; after it, it is the lead lost.
      campaign.on('error', (err: Error) => {
        if (elected) lostOf(err);
        else {
          signal.removeEventListener('abort', withdraw);
          resign(campaign).catch(() => undefined);
          reject(err);
        }
      });
      campaign.on('elected', () => {
        elected = true;
        signal.removeEventListener('abort', withdraw);
        void (async () => {
          const key = await campaign.getCampaignKey();
          const kv = (await this.store.client.kv.range({ key: Buffer.from(key, 'utf8') })).kvs[0];
          if (!kv) throw new Error(`elected, but the election key ${key} is gone already`);
          const since = new Date();
          // The standbys and /cluster/admin read when the lead began.
          await campaign.proclaim(JSON.stringify({ ...info, since: since.toISOString() }));
          if (signal.aborted) {
            await resign(campaign).catch(() => undefined);
            throw new Error('the candidacy was withdrawn');
          }
          keeper = new LeaseKeeperThread(
            { client: this.store.clientOptions, lease: key.slice(key.lastIndexOf('/') + 1), ttlMs: this.ttlSeconds * 1000 },
            {
              // The client's renewals (and its own verdict on the lease) stop once the keeper's have begun.
              renewing: () => (campaign as unknown as { lease: Lease }).lease.release(),
              // A keeper that failed before its first renewal left the client's running: the lease
              // must end (revoked: the next candidate leads at once), or this controller's next
              // candidacy would wait behind its own key.
              lost: (err) => {
                (campaign as unknown as { lease: Lease }).lease.revoke().catch(() => undefined);
                lostOf(err);
              },
              attempt: ({ ms, failed }) =>
                this.log?.warn(failed ? 'a renewal of the term\'s lease failed: the next one is tried within a second' : 'a renewal of the term\'s lease was answered late', {
                  ms,
                  ttl_ms: this.ttlSeconds * 1000,
                  ...(failed ? { err: failed } : {}),
                }),
            },
          );
          resolve({
            key,
            createRevision: kv.create_revision,
            since,
            lost,
            resign: () => {
              keeper?.stop();
              return resign(campaign);
            },
          });
        })().catch((err: unknown) => {
          resign(campaign).catch(() => undefined);
          reject(err instanceof Error ? err : new Error(String(err)));
        });
      });
    });
  }

  async leader(): Promise<(ControllerInfo & { since?: string }) | undefined> {
    return parseInfo(await this.#election.leader());
  }

  async members(): Promise<ControllerStatus[]> {
    const list = (prefix: string) => this.store.client.getAll().prefix(`${this.store.prefix}${prefix}`).sort('Create', 'Ascend').exec();
    const [candidates, standing] = await Promise.all([list(`election/${ELECTION_NAME}/`), list(STANDBY_ONLY)]);
    const leading = candidates.kvs.flatMap((kv, i) => {
      const info = parseInfo(kv.value.toString('utf8'));
      if (!info) return [];
      const { since, ...rest } = info;
      return [{ ...rest, active: i === 0, ...(i === 0 && since ? { since } : {}) }];
    });
    const others = standing.kvs.flatMap((kv) => {
      const info = parseInfo(kv.value.toString('utf8'));
      if (!info) return [];
      const { since: _since, ...rest } = info;
      return [{ ...rest, active: false }];
    });
    return [...leading, ...others];
  }

  standBy(info: ControllerInfo, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new Error('stopped'));
    const lease = this.store.client.namespace(this.store.prefix).lease(this.ttlSeconds);
    return new Promise<void>((resolve, reject) => {
      const end = () => {
        lease.revoke().catch(() => undefined);
        reject(new Error('stopped'));
      };
      signal.addEventListener('abort', end, { once: true });
      lease.on('lost', () => {
        signal.removeEventListener('abort', end);
        resolve();
      });
      lease
        .grant()
        .then((id) => lease.put(`${STANDBY_ONLY}${id}`).value(JSON.stringify(info)).exec())
        .catch((err: unknown) => {
          signal.removeEventListener('abort', end);
          lease.revoke().catch(() => undefined);
          reject(err instanceof Error ? err : new Error(String(err)));
        });
    });
  }
}
