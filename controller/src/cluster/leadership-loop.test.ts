import test from 'ava';
import { silentLogger } from '@platform/proto/common';
import type { ControllerInfo, ControllerStatus, Election, Term } from '../store/leadership.js';
import { startParts, type Part } from '../util/parts.js';
import { LeadershipLoop, type LeadershipState } from './leadership-loop.js';

/** An election driven by the test: `elect()` ends the pending campaign, `lose()` the current term. */
class FakeElection implements Election {
  campaigns = 0;
  withdrawn = 0;
  resigned = 0;
  #pending: { resolve: (t: Term) => void; reject: (err: Error) => void } | undefined;
  #lose: ((err: Error) => void) | undefined;
  failNext: Error | undefined;

  campaign(_info: ControllerInfo, signal: AbortSignal): Promise<Term> {
    this.campaigns++;
    if (this.failNext) {
      const err = this.failNext;
      this.failNext = undefined;
      return Promise.reject(err);
    }
    return new Promise<Term>((resolve, reject) => {
      this.#pending = { resolve, reject };
      signal.addEventListener('abort', () => {
        this.withdrawn++;
        reject(new Error('withdrawn'));
      }, { once: true });
    });
  }

  get campaigning(): boolean {
    return this.#pending !== undefined;
  }

  elect(n: number): void {
    const pending = this.#pending!;
    this.#pending = undefined;
    const lost = new Promise<Error>((resolve) => (this.#lose = resolve));
    pending.resolve({ key: `k${n}`, createRevision: String(n), since: new Date(n * 1000), lost, resign: async () => void this.resigned++ });
  }

  lose(): void {
    this.#lose!(new Error('lease expired'));
  }

  async leader() {
    return undefined;
  }

  async members(): Promise<ControllerStatus[]> {
    return [];
  }

  standing = 0;
  #leaseLost: (() => void) | undefined;

  standBy(_info: ControllerInfo, signal: AbortSignal): Promise<void> {
    this.standing++;
    return new Promise<void>((resolve, reject) => {
      this.#leaseLost = resolve;
      signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
    });
  }

  /** The lease of a controller that stands by without campaigning ends. */
  loseStandingLease(): void {
    this.#leaseLost!();
  }
}

/** Waits until `check` holds, turning the event loop (no timers: the loop's waits are the fake sleep's). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never: ${what}`);
}

/** A loop on a FakeElection; its parts fail to start `failActivate` times, and start only once `gate` settles; `mustNotLead` as the loop's option. */
function setup(o: { failActivate?: number; gate?: Promise<void>; mustNotLead?: string; keepFront?: boolean } = {}) {
  /** Fails the parts of the current term (their memory may disagree with the store). */
  const failParts: ((err: Error) => void)[] = [];
  const election = new FakeElection();
  const events: string[] = [];
  const states: LeadershipState[] = [];
  let activations = 0;
  const sleeps: (() => void)[] = [];
  const loop = new LeadershipLoop({
    election,
    info: { id: 'c1', api: 'http://127.0.0.1:1', grpc: '127.0.0.1:2', started: '2026-01-01T00:00:00Z' },
    log: silentLogger,
    front: {
      open: async () => void events.push('front open'),
      close: async () => void events.push('front closed'),
    },
    activate: async (term, releaseFront) => {
      if (!o.keepFront) await releaseFront();
      await o.gate;
      activations++;
      if (o.failActivate !== undefined && activations <= o.failActivate) {
        events.push(`activate ${term.key} failed`);
        throw new Error('a port is in use');
      }
      events.push(`active ${term.key}`);
      const failed = new Promise<Error>((resolve) => failParts.push(resolve));
      return { failed, stop: async () => void events.push(`stopped ${term.key}`) };
    },
    // The test's clock: a wait ends when the test says so (or the loop stops).
    sleep: (_ms, signal) =>
      new Promise((resolve, reject) => {
        sleeps.push(() => resolve());
        signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
      }),
    retryDelayMs: 1_000,
    onState: (s) => states.push(s),
    ...(o.mustNotLead ? { mustNotLead: o.mustNotLead } : {}),
  });
  return { election, events, states, loop, sleeps, failParts };
}

test('leadership loop: stands by with the front open, leads when elected, and stands by again when the lead is lost', async (t) => {
  const { election, events, states, loop } = setup();
  await loop.start();
  await until(() => election.campaigning, 'campaigning');
  t.is(loop.state, 'standby');
  t.deepEqual(events, ['front open']);
  election.elect(1);
  await until(() => loop.state === 'active', 'active');
  t.is(loop.term?.key, 'k1');
  t.deepEqual(events, ['front open', 'front closed', 'active k1']);
  election.lose();
  await until(() => election.campaigning && loop.state === 'standby', 'standing by again');
  t.is(loop.term, undefined);
  t.deepEqual(events, ['front open', 'front closed', 'active k1', 'stopped k1', 'front open']);
  t.is(election.resigned, 0, 'a lost lead is not resigned (there is nothing to give up)');
  election.elect(2);
  await until(() => loop.state === 'active', 'active again');
  t.is(loop.term?.key, 'k2');
  await loop.stop();
  t.deepEqual(events.slice(-3), ['front closed', 'active k2', 'stopped k2'], 'the front stays closed: the process ends');
  t.is(election.resigned, 1, 'a stop resigns');
  t.deepEqual(states, ['starting', 'active', 'stepping-down', 'standby', 'starting', 'active', 'stepping-down', 'stopped']);
  t.is(election.campaigns, 2);
});

test('leadership loop: parts that fail while the lead holds (a write whose outcome is unknown) are stopped, the lead is resigned, and the next term starts its parts anew', async (t) => {
  const { election, events, states, loop, failParts } = setup();
  await loop.start();
  await until(() => election.campaigning, 'campaigning');
  election.elect(1);
  await until(() => loop.state === 'active', 'active');
  failParts[0]!(new Error('the outcome of a write is unknown'));
  await until(() => election.campaigning && loop.state === 'standby', 'standing by again');
  t.is(election.resigned, 1, 'the lead is given up: whoever leads next loads the state from the store');
  t.deepEqual(events, ['front open', 'front closed', 'active k1', 'stopped k1', 'front open']);
  // Elected again (no other candidate): parts made anew.
  election.elect(2);
  await until(() => loop.state === 'active', 'active again');
  t.deepEqual(events.slice(-2), ['front closed', 'active k2']);
  await loop.stop();
  t.deepEqual(states, ['starting', 'active', 'stepping-down', 'standby', 'starting', 'active', 'stepping-down', 'stopped']);
  t.is(election.resigned, 2);
});

test('leadership loop: parts that start without taking the front\'s port have the front closed once they serve', async (t) => {
  const { election, events, loop } = setup({ keepFront: true });
  await loop.start();
  await until(() => election.campaigning, 'campaign');
  election.elect(1);
  await until(() => loop.state === 'active', 'active');
  t.deepEqual(events, ['front open', 'active k1', 'front closed'], 'the front held what came while the parts started');
  election.lose();
  await until(() => loop.state === 'standby', 'standing by');
  t.deepEqual(events.slice(-2), ['stopped k1', 'front open']);
  await loop.stop();
});

test('leadership loop: a stop while standing by withdraws the candidacy and closes the front; nothing is started', async (t) => {
  const { election, events, loop } = setup();
  await loop.start();
  await until(() => election.campaigning, 'campaigning');
  await loop.stop();
  t.is(election.withdrawn, 1);
  t.deepEqual(events, ['front open', 'front closed']);
  t.is(loop.state, 'stopped');
});

test('leadership loop: parts that fail to start give the lead up; after the wait the controller campaigns again', async (t) => {
  const { election, events, loop, sleeps } = setup({ failActivate: 1 });
  await loop.start();
  await until(() => election.campaigning, 'campaigning');
  election.elect(1);
  await until(() => sleeps.length === 1, 'waiting before the next campaign');
  t.is(election.resigned, 1, 'the lead is given up at once, for another controller');
  t.is(loop.state, 'starting');
  t.is(election.campaigns, 1, 'no campaign before the wait is over');
  sleeps[0]!();
  await until(() => election.campaigning, 'campaigning again');
  t.is(loop.state, 'standby');
  election.elect(2);
  await until(() => loop.state === 'active', 'active');
  t.deepEqual(events, ['front open', 'front closed', 'activate k1 failed', 'front open', 'front closed', 'active k2']);
  await loop.stop();
});

test('leadership loop: a failed campaign (etcd unreachable) is tried again after the wait', async (t) => {
  const { election, loop, sleeps } = setup();
  election.failNext = new Error('etcd did not answer');
  await loop.start();
  await until(() => sleeps.length === 1, 'waiting');
  t.is(election.campaigns, 1);
  sleeps[0]!();
  await until(() => election.campaigning, 'campaigning again');
  t.is(election.campaigns, 2);
  await loop.stop();
  t.is(loop.state, 'stopped');
});

test('leadership loop: a stop while the parts start lets them start, then stops them and resigns', async (t) => {
  let release!: () => void;
  const { election, events, loop } = setup({ gate: new Promise<void>((resolve) => (release = resolve)) });
  await loop.start();
  await until(() => election.campaigning, 'campaigning');
  election.elect(1);
  await until(() => loop.state === 'starting', 'starting');
  const stopping = loop.stop();
  release();
  await stopping;
  t.deepEqual(events, ['front open', 'front closed', 'active k1', 'stopped k1']);
  t.is(election.resigned, 1);
});

test('leadership loop: the lead lost while the parts start stops them as soon as they are up', async (t) => {
  let release!: () => void;
  const { election, events, loop } = setup({ gate: new Promise<void>((resolve) => (release = resolve)) });
  await loop.start();
  await until(() => election.campaigning, 'campaigning');
  election.elect(1);
  await until(() => loop.state === 'starting', 'starting');
  election.lose();
  release();
  await until(() => election.campaigning && loop.state === 'standby', 'standing by');
  t.deepEqual(events, ['front open', 'front closed', 'active k1', 'stopped k1', 'front open']);
  t.is(election.resigned, 0);
  await loop.stop();
});

test('leadership loop: a controller that must not lead stands by with its front open and never campaigns; its lease lost, it stands by again', async (t) => {
  const { election, events, loop, sleeps } = setup({ mustNotLead: 'the blob directory is not the cluster\'s' });
  await loop.start();
  await until(() => election.standing === 1, 'standing by');
  election.loseStandingLease();
  await until(() => sleeps.length === 1, 'waiting before standing by again');
  sleeps[0]!();
  await until(() => election.standing === 2, 'standing by again');
  t.is(election.campaigns, 0);
  t.is(loop.state, 'standby');
  await loop.stop();
  t.deepEqual(events, ['front open', 'front closed']);
  t.is(loop.state, 'stopped');
});

test('leadership loop: the active parts start in their order when elected and stop in the written order when the lead is lost, twice; one that fails to start stops the others and gives the lead up', async (t) => {
  const election = new FakeElection();
  const events: string[] = [];
  const failing: { part?: string } = {};
  const sleeps: (() => void)[] = [];
  // The parts only the active controller runs, made anew for each term.
  const activeParts = (term: string): Part[] =>
    ['actors', 'scheduler', 'staging', 'agent-server'].map((name) => ({
      name,
      start: () => {
        if (failing.part === `${name} ${term}`) throw new Error('address in use');
        events.push(`${term}: ${name} on`);
      },
      stop: (graceful: boolean) => void events.push(`${term}: ${name} off${graceful ? '' : ' (hurried)'}`),
    }));
  const order = [['staging'], ['agent-server']];
  const loop = new LeadershipLoop({
    election,
    info: { id: 'c1', api: 'http://127.0.0.1:1', grpc: '127.0.0.1:2', started: '' },
    log: silentLogger,
    front: { open: async () => void events.push('front open'), close: async () => void events.push('front closed') },
    activate: async (term, releaseFront) => {
      await releaseFront();
      return startParts(silentLogger, activeParts(term.key), order);
    },
    sleep: (_ms, signal) =>
      new Promise((resolve, reject) => {
        sleeps.push(() => resolve());
        signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
      }),
  });
  await loop.start();
  for (const n of [1, 2]) {
    await until(() => election.campaigning, `campaign ${n}`);
    election.elect(n);
    await until(() => loop.state === 'active', `active ${n}`);
    election.lose();
    await until(() => loop.state === 'standby', `standing by ${n}`);
  }
  const term = (k: string, change: string) => ['actors', 'scheduler', 'staging', 'agent-server'].map((p) => `${k}: ${p} ${change}`);
  const off = (k: string) => [`${k}: staging off`, `${k}: agent-server off`, `${k}: scheduler off`, `${k}: actors off`];
  t.deepEqual(events, ['front open', 'front closed', ...term('k1', 'on'), ...off('k1'), 'front open', 'front closed', ...term('k2', 'on'), ...off('k2'), 'front open']);

  // Elected again, a part fails to start: the ones started stop, and the lead is given up.
  events.length = 0;
  failing.part = 'staging k3';
  await until(() => election.campaigning, 'campaign 3');
  election.elect(3);
  await until(() => sleeps.length === 1, 'waiting after the failed start');
  t.deepEqual(events, ['front closed', 'k3: actors on', 'k3: scheduler on', 'k3: scheduler off (hurried)', 'k3: actors off (hurried)']);
  t.is(election.resigned, 1);
  await loop.stop();
});
