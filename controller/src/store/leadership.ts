/**
 * Which controller of those that share one etcd is the active one: etcd's election (the
 * etcd3 client's Campaign: a key per candidate under `<prefix>election/controller/`, bound to
 * the candidate's lease; the candidate whose key is oldest leads). A controller waits here
 * until it leads, and from then on every batch it writes is conditioned on its election key
 * still being the one it made (EtcdStore's guard, compared by create revision): once its
 * lease is gone (the process paused past the TTL, cut off from etcd), its key is deleted by
 * etcd and no write of it can land any more, whatever it still believes.
 *
 *   waiting --elected--> leading --lease lost / resign--> over
 *
 * `over` is final: a controller that lost the lead stops (onLost) and starts again as a
 * candidate, so that nothing of what it held in memory outlives its leadership.
 */
import type { Campaign } from 'etcd3';
import type { Logger } from '@platform/proto/common';
import type { EtcdStore } from './etcd-store.js';

export interface LeadershipOptions {
  /** What this candidate says of itself (its id, API address, start time), readable by the others. */
  value: string;
  /** Seconds the lease lives without keep-alives: the longest a dead leader holds the lead. Default 5. */
  ttlSeconds?: number;
  log: Logger;
  /** Told once when the lead is lost after it was won (not on resign). */
  onLost: (err: Error) => void;
}

export class EtcdLeadership {
  #state: 'leading' | 'over' = 'leading';

  private constructor(
    private readonly campaign: Campaign,
    readonly key: string,
    readonly since: Date,
  ) {}

  /** Waits until this candidate leads, then guards `store`'s batches with its election key. */
  static async acquire(store: EtcdStore, o: LeadershipOptions): Promise<EtcdLeadership> {
    const ttl = o.ttlSeconds ?? 5;
    const campaign = store.client.namespace(store.prefix).election('election/controller', ttl).campaign(o.value);
    // Before the election an error fails acquire(); after it, it is the lead lost.
    const after: { lost?: (err: Error) => void } = {};
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => (after.lost ? after.lost(err) : reject(err));
      campaign.on('error', onError);
      campaign.on('elected', () => resolve());
    });
    const key = await campaign.getCampaignKey();
    const kv = (await store.client.kv.range({ key: Buffer.from(key, 'utf8') })).kvs[0];
    if (!kv) throw new Error(`elected, but the election key ${key} is gone already`);
    store.setGuard({ key, createRevision: kv.create_revision });
    const leadership = new EtcdLeadership(campaign, key, new Date());
    after.lost = (err) => {
      if (leadership.#state === 'over') return;
      leadership.#state = 'over';
      o.log.error('this controller lost the lead (its etcd lease is gone): it writes nothing more and stops', { err, key });
      o.onLost(err);
    };
    o.log.info('this controller leads', { key, ttl_seconds: ttl });
    return leadership;
  }

  get leading(): boolean {
    return this.#state === 'leading';
  }

  /** Gives the lead up (a graceful stop): the next candidate leads at once instead of after the TTL. */
  async resign(): Promise<void> {
    if (this.#state === 'over') return;
    this.#state = 'over';
    await this.campaign.resign();
  }
}
