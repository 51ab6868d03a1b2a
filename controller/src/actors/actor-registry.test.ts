import test from 'ava';
import { silentLogger } from '@platform/proto/common';
import { ManualClock } from '../util/clock.js';
import { Actor } from './actor.js';
import { ActorRegistry } from './actor-registry.js';

class Counter extends Actor {
  value = 0;
  increment(): Promise<number> {
    return this.mailbox.post(async () => ++this.value);
  }
}

function setup(existing = new Set(['a', 'b'])) {
  const clock = new ManualClock();
  let loads = 0;
  const registry = new ActorRegistry<Counter>({
    kind: 'counter',
    clock,
    log: silentLogger,
    idleMs: 1000,
    load: async (id) => {
      loads++;
      await new Promise((r) => setImmediate(r));
      return existing.has(id) ? new Counter(id, clock.nowMs()) : undefined;
    },
  });
  return { registry, clock, loads: () => loads };
}

test('actor registry: concurrent gets of one id share one activation', async (t) => {
  const { registry, loads } = setup();
  const [x, y, z] = await Promise.all([registry.get('a'), registry.get('a'), registry.get('a')]);
  t.is(loads(), 1);
  t.is(x, y);
  t.is(y, z);
  t.is(registry.size, 1);
});

test('actor registry: an unknown id yields undefined and is not kept', async (t) => {
  const { registry } = setup();
  t.is(await registry.get('nope'), undefined);
  t.is(registry.size, 0);
});

test('actor registry: idle actors are passivated, busy ones are not', async (t) => {
  const { registry, clock } = setup();
  const a = (await registry.get('a'))!;
  const b = (await registry.get('b'))!;
  const release = b.hold();
  clock.advance(999);
  t.is(registry.passivateIdle(), 0);
  clock.advance(1);
  t.is(registry.passivateIdle(), 1);
  t.true(a.stopped);
  t.is(registry.peek('a'), undefined);
  t.is(registry.peek('b'), b);
  release();
  t.is(registry.passivateIdle(), 1);
  t.is(registry.size, 0);
});

test('actor registry: a passivated actor is reactivated fresh on the next use', async (t) => {
  const { registry, clock, loads } = setup();
  const first = (await registry.get('a'))!;
  await first.increment();
  clock.advance(5000);
  registry.passivateIdle();
  const second = (await registry.get('a'))!;
  t.not(first, second);
  t.is(loads(), 2);
  t.is(await registry.with('a', (actor) => actor.increment()), 1);
});

test('actor registry: release passivates an actor with nothing to do at once; a busy one stays', async (t) => {
  const { registry, loads } = setup();
  const a = (await registry.get('a'))!;
  const b = (await registry.get('b'))!;
  const held = b.hold();
  t.true(registry.release('a'));
  t.true(a.stopped);
  t.is(registry.peek('a'), undefined);
  t.false(registry.release('b'), 'busy');
  t.is(registry.peek('b'), b);
  t.false(registry.release('nope'));
  held();
  t.is(await registry.with('a', (actor) => actor.increment()), 1, 'the next use activates it again');
  t.is(loads(), 3);
});

test('actor registry: stop drains mailboxes and refuses further gets', async (t) => {
  const { registry } = setup();
  const a = (await registry.get('a'))!;
  const pending = a.increment();
  await registry.stop();
  t.is(await pending, 1);
  await t.throwsAsync(registry.get('a'), { message: /stopped/ });
});

test('actor registry: past idleLimit live actors, the least recently active with nothing to do leave at once, busy ones stay', async (t) => {
  const clock = new ManualClock();
  const registry = new ActorRegistry<Counter>({ kind: 'counter', clock, log: silentLogger, idleMs: 60_000, idleLimit: 10, load: async () => undefined });
  const actors: Counter[] = [];
  const releases: (() => void)[] = [];
  for (let n = 0; n < 12; n++) {
    const actor = new Counter(`c${n}`, clock.nowMs());
    if (n < 3) releases.push(actor.hold()); // the three oldest have work
    registry.add(actor);
    actors.push(actor);
    clock.advance(1);
  }
  t.is(registry.size, 12, 'not during the turn that added them');
  await new Promise((r) => setImmediate(r));
  t.is(registry.size, 9, 'down to a tenth below the limit');
  t.deepEqual(
    actors.filter((a) => a.stopped).map((a) => a.id),
    ['c3', 'c4', 'c5'],
    'the least recently active idle ones, well before idleMs',
  );
  for (const id of ['c0', 'c1', 'c2']) t.is(registry.peek(id)?.id, id, 'busy actors stay whatever their age');
  await t.throwsAsync(actors[3]!.increment(), { message: /closed/ });
  releases.forEach((r) => r());
  await registry.stop();
});
