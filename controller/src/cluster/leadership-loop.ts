/**
 * The life of a controller among several on one etcd, as a loop of terms:
 *
 *   standby --elected--> starting --parts started--> active --lead lost, or parts failed--> stepping-down --> standby
 *      |                    |  (a part fails to start: resign, wait, standby)    |
 *      +--------------------+------------ stop() ----------------------------------+--> stopped
 *
 * While standing by, the front (the standby's API and agents' endpoint, which send everything on
 * to the active controller) is open and this controller campaigns. Elected, it starts the parts
 * only the active controller runs (`activate`: the actors, the scheduler, the staging
 * coordinator, the agents' endpoint, the API), which close the front when they are about to take
 * its agents' port (`releaseFront`; at the latest once they serve): while the state loads, the
 * agents that dial this controller are held at the front rather than refused (standby-front.ts).
 * The parts stop when the lead is lost, and the front opens again. Nothing of a term outlives
 * it: each term's parts are made anew from the store. A graceful stop resigns the lead, so that
 * the next candidate leads at once; so do parts that fail while the lead holds
 * (`ActiveParts.failed`: their memory may disagree with the store), and the next term, here or
 * at another controller, starts from the store.
 *
 * A controller that must not lead (`mustNotLead`) keeps its front open and never campaigns; it
 * is listed among the controllers all the same (Election.standBy).
 */
import type { Logger } from '@platform/proto/common';
import type { ControllerInfo, Election, Term } from '../store/leadership.js';

export type LeadershipState = 'standby' | 'starting' | 'active' | 'stepping-down' | 'stopped';

/** What runs only on the active controller, as one: started for a term, stopped at its end. */
export interface ActiveParts {
  stop(): Promise<void>;
  /**
   * Resolves when the parts must not serve any more though the lead holds (a write whose
   * outcome is unknown: their memory may disagree with the store): the term ends as if the
   * lead were lost, and the lead is resigned, so that whoever leads next loads the state anew.
   */
  failed?: Promise<Error>;
}

export interface LeadershipLoopOptions {
  election: Election;
  info: ControllerInfo;
  /**
   * Starts the active controller's parts for `term`; resolves once they serve. `releaseFront`
   * closes the front (once; the loop does it after the start if the parts did not).
   */
  activate: (term: Term, releaseFront: () => Promise<void>) => Promise<ActiveParts>;
  /** What a standby serves: opened while standing by, closed while the parts start. */
  front: { open(): Promise<void>; close(): Promise<void> };
  log: Logger;
  /** Waits `ms` (injected: tests drive time). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** After a campaign or a start that failed, the wait before the next campaign. Default 1 s. */
  retryDelayMs?: number;
  /** Told of each change of state. */
  onState?: (state: LeadershipState) => void;
  /**
   * Why this controller must not lead, when it must not (its blob directory is not the
   * cluster's): it then stands by for good, listed among the controllers, and never campaigns.
   */
  mustNotLead?: string;
}

export class LeadershipLoop {
  #state: LeadershipState = 'standby';
  #term: Term | undefined;
  readonly #stopping = new AbortController();
  #done: Promise<void> | undefined;

  constructor(private readonly o: LeadershipLoopOptions) {}

  get state(): LeadershipState {
    return this.#state;
  }

  /** The term this controller leads in, while active. */
  get term(): Term | undefined {
    return this.#state === 'active' ? this.#term : undefined;
  }

  #set(state: LeadershipState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.o.onState?.(state);
  }

  /** Opens the front and campaigns; resolves once the front is open (the loop runs on). */
  async start(): Promise<void> {
    await this.o.front.open();
    this.#done = this.#run();
  }

  /** Ends the loop: steps down (resigning) if active, withdraws the candidacy if standing by. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#done;
  }

  async #run(): Promise<void> {
    const { log } = this.o;
    const stopped = this.#stopping.signal;
    const stopSignal = new Promise<'stop'>((resolve) => stopped.addEventListener('abort', () => resolve('stop'), { once: true }));
    const wait = async () => {
      await this.o.sleep(this.o.retryDelayMs ?? 1_000, stopped).catch(() => undefined);
    };
    let frontOpen = true;
    try {
      while (!stopped.aborted) {
        this.#set('standby');
        if (!frontOpen) {
          try {
            await this.o.front.open();
            frontOpen = true;
          } catch (err) {
            log.error('the standby front cannot open; trying again', { err });
            await wait();
            continue;
          }
        }
        if (this.o.mustNotLead !== undefined) {
          // Listed with the others (the election's standBy) while the lease lives; said again when it is lost.
          try {
            await this.o.election.standBy(this.o.info, stopped);
          } catch (err) {
            if (stopped.aborted) break;
            log.warn('standing by failed; trying again', { err });
          }
          await wait();
          continue;
        }
        let term: Term;
        try {
          term = await this.o.election.campaign(this.o.info, stopped);
        } catch (err) {
          if (stopped.aborted) break;
          log.warn('campaign failed; trying again', { err });
          await wait();
          continue;
        }
        this.#term = term;
        this.#set('starting');
        log.info('this controller leads', { key: term.key, since: term.since.toISOString() });
        let parts: ActiveParts;
        let released: Promise<void> | undefined;
        const releaseFront = () =>
          (released ??= (async () => {
            frontOpen = false;
            await this.o.front.close();
          })());
        try {
          parts = await this.o.activate(term, releaseFront);
          await releaseFront();
        } catch (err) {
          log.error('the active controller\'s parts failed to start: the lead is given up', { err });
          await term.resign().catch(() => undefined);
          this.#term = undefined;
          await wait();
          continue;
        }
        this.#set('active');
        const failed = parts.failed?.then((err) => ({ failed: err }));
        const why = await Promise.race([term.lost, stopSignal, ...(failed ? [failed] : [])]);
        this.#set('stepping-down');
        if (why instanceof Error) log.error('this controller lost the lead (its etcd lease is gone): it stops its parts and stands by', { err: why, key: term.key });
        else if (why !== 'stop') log.error('this controller stands down: its memory may disagree with etcd; it stops its parts, gives up the lead and stands by (the state is loaded from etcd again when it leads)', { err: why.failed, key: term.key });
        await parts.stop().catch((err: unknown) => log.error('the active parts did not stop cleanly', { err }));
        if (!(why instanceof Error)) await term.resign().catch((err: unknown) => log.warn('resigning the lead failed: the next controller leads once the lease ends', { err }));
        this.#term = undefined;
      }
    } finally {
      if (frontOpen) await this.o.front.close().catch(() => undefined);
      this.#set('stopped');
    }
  }
}
