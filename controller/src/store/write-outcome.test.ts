import test from 'ava';
import { UnavailableError } from '../errors.js';
import { ManualClock } from '../util/clock.js';
import { MemoryStore } from './memory-store.js';
import type { BatchOp } from './store.js';
import { AmbiguousWriteError, UnresolvedWriteError, WriteOutcomes, type ReceiptedWrites, type WriteOutcomeOptions } from './write-outcome.js';

const CALL_MS = 1_000;
const BOUND_MS = 5_000;

/**
 * Writes with receipts over a memory store, losing what the test says: the answer of a write
 * that lands, a write that lands only later (still under way in the store), or the answers of
 * the tries to settle. A call that fails takes its whole deadline, as a call etcd does not answer.
 */
class LossyReceipts implements ReceiptedWrites<BatchOp[]> {
  readonly receipts = new Map<string, 'written' | 'void'>();
  sends = 0;
  settles = 0;
  /** What the next send meets. */
  next: 'ok' | 'answer-lost' | 'request-lost' | 'under-way' | 'refused' = 'ok';
  /** How many tries to settle fail (no answer) before one is answered. */
  settleFailures = 0;
  /** A write still under way in the store: lands when `land()` is called, if its receipt is free. */
  #underWay: (() => Promise<void>) | undefined;

  constructor(
    readonly store: MemoryStore,
    readonly clock: ManualClock,
  ) {}

  async #apply(ops: readonly BatchOp[], receipt: string): Promise<boolean> {
    if (this.receipts.has(receipt)) return false;
    this.receipts.set(receipt, 'written');
    await this.store.batch(ops);
    return true;
  }

  #noAnswer(deadline: number): AmbiguousWriteError {
    this.clock.advance(Math.max(0, deadline - this.clock.nowMs()));
    return new AmbiguousWriteError('deadline exceeded');
  }

  async send(ops: BatchOp[], receipt: string, deadline: number): Promise<void> {
    this.sends++;
    const fault = this.next;
    this.next = 'ok';
    switch (fault) {
      case 'ok':
        await this.#apply(ops, receipt);
        return;
      case 'answer-lost':
        await this.#apply(ops, receipt);
        throw this.#noAnswer(deadline);
      case 'request-lost':
        throw this.#noAnswer(deadline);
      case 'under-way':
        this.#underWay = async () => void (await this.#apply(ops, receipt));
        throw this.#noAnswer(deadline);
      case 'refused':
        throw new Error('permission denied');
    }
  }

  /** The write under way reaches the store now. */
  async land(): Promise<void> {
    await this.#underWay?.();
  }

  async settle(receipt: string, deadline: number): Promise<'written' | 'void'> {
    this.settles++;
    if (this.settleFailures > 0) {
      this.settleFailures--;
      throw this.#noAnswer(deadline);
    }
    const held = this.receipts.get(receipt);
    if (held) return held;
    this.receipts.set(receipt, 'void');
    return 'void';
  }
}

function setup(o: Partial<WriteOutcomeOptions> = {}) {
  const clock = new ManualClock();
  const store = new MemoryStore();
  const writes = new LossyReceipts(store, clock);
  const unresolved: UnresolvedWriteError[] = [];
  const events: { outcome: string; tries: number; ms: number }[] = [];
  const settling: string[] = [];
  const outcomes = new WriteOutcomes(writes, {
    clock,
    sleep: async (ms) => clock.advance(ms),
    callTimeoutMs: CALL_MS,
    boundMs: BOUND_MS,
    retryMs: 200,
    onUnresolved: (err) => unresolved.push(err),
    onSettling: (e) => settling.push(e.receipt),
    onAmbiguous: (e) => events.push({ outcome: e.outcome, tries: e.tries, ms: e.ms }),
    ...o,
  });
  return { clock, store, writes, outcomes, unresolved, events, settling };
}

const put = (key: string, value: string): BatchOp[] => [{ type: 'put', key, value }];

test('write outcome: a write answered is written, nothing to settle', async (t) => {
  const { store, writes, outcomes, events } = setup();
  await outcomes.write(put('a', '1'), 'r1');
  t.is(await store.get('a'), '1');
  t.is(writes.settles, 0);
  t.deepEqual(events, []);
});

test('write outcome: a write that landed but whose answer was lost resolves as written (the caller applies it)', async (t) => {
  const { store, writes, outcomes, unresolved, events, settling } = setup();
  writes.next = 'answer-lost';
  await outcomes.write(put('job', 'made'), 'r1');
  t.deepEqual(settling, ['r1']);
  t.is(await store.get('job'), 'made');
  t.is(writes.receipts.get('r1'), 'written');
  t.deepEqual(events, [{ outcome: 'written', tries: 1, ms: 0 }]);
  t.deepEqual(unresolved, []);
});

test('write outcome: a write that never reached the store is refused with 503 and retry, and its receipt is taken so that it cannot land later', async (t) => {
  const { store, writes, outcomes, unresolved, events } = setup();
  writes.next = 'under-way';
  const err = await t.throwsAsync(outcomes.write(put('job', 'made'), 'r1'), { instanceOf: UnavailableError });
  t.false(err instanceof UnresolvedWriteError, 'the outcome is known: not written');
  t.is(err!.tryAgainInMs, 1000);
  t.regex(err!.message, /it was not written/);
  t.is(writes.receipts.get('r1'), 'void');
  // The attempt still under way reaches the store: its receipt is taken, it writes nothing.
  await writes.land();
  t.is(await store.get('job'), undefined);
  t.deepEqual(events, [{ outcome: 'void', tries: 1, ms: 0 }]);
  t.deepEqual(unresolved, []);
  // The controller writes on.
  await outcomes.write(put('job', 'again'), 'r2');
  t.is(await store.get('job'), 'again');
});

test('write outcome: settling tried again while the store does not answer (its leader changing) succeeds within the bound: no stand-down', async (t) => {
  const { store, writes, outcomes, unresolved, events } = setup();
  writes.next = 'answer-lost';
  writes.settleFailures = 3;
  await outcomes.write(put('k', 'v'), 'r1');
  t.is(await store.get('k'), 'v');
  t.is(writes.settles, 4);
  // Three tries that took their deadline and three waits of 200 ms: within the bound of 5 s.
  t.deepEqual(events, [{ outcome: 'written', tries: 4, ms: 3 * CALL_MS + 3 * 200 }]);
  t.deepEqual(unresolved, []);
  t.is(outcomes.unresolved, undefined);
});

test('write outcome: an outcome not learnt within the bound is answered 503, told once, and every later write of the term is refused without being sent', async (t) => {
  const { clock, writes, outcomes, unresolved, events } = setup();
  writes.next = 'answer-lost';
  writes.settleFailures = 1_000;
  const start = clock.nowMs();
  const err = await t.throwsAsync(outcomes.write(put('k', 'v'), 'r1'), { instanceOf: UnresolvedWriteError });
  t.is(err!.tryAgainInMs, 1000);
  t.regex(err!.message, /could not be learnt within 5000 ms.*stands down/);
  // The send took its deadline; then given up once the bound passed, not sooner nor later
  // (the last try's deadline is the bound's end).
  t.is(clock.nowMs() - start, CALL_MS + BOUND_MS);
  t.is(unresolved.length, 1);
  t.is(unresolved[0], err);
  t.is(outcomes.unresolved, err);
  t.deepEqual(events.map((e) => e.outcome), ['unknown']);
  const sends = writes.sends;
  const later = await t.throwsAsync(outcomes.write(put('other', 'x'), 'r2'), { instanceOf: UnresolvedWriteError });
  t.regex(later!.message, /no longer writes/);
  t.is(writes.sends, sends, 'not sent');
  t.is(unresolved.length, 1, 'told once');
});

test('write outcome: a write refused outright (not a lost answer) fails as it failed, nothing settled', async (t) => {
  const { writes, outcomes, unresolved } = setup();
  writes.next = 'refused';
  await t.throwsAsync(outcomes.write(put('k', 'v'), 'r1'), { message: 'permission denied' });
  t.is(writes.settles, 0);
  t.deepEqual(unresolved, []);
});

test('write outcome: a write whose answer was lost and whose request never arrived is known unwritten after settling fails for a while', async (t) => {
  const { store, writes, outcomes, unresolved, events } = setup();
  writes.next = 'request-lost';
  writes.settleFailures = 2;
  await t.throwsAsync(outcomes.write(put('k', 'v'), 'r1'), { instanceOf: UnavailableError, message: /not written/ });
  t.is(await store.get('k'), undefined);
  t.deepEqual(events.map((e) => [e.outcome, e.tries]), [['void', 3]]);
  t.deepEqual(unresolved, []);
});
