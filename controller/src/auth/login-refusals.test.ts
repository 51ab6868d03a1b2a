import test from 'ava';
import { AuditLog, type AuditLogItem } from '../audit/audit-log.js';
import { AuditRetention } from '../audit/audit-retention.js';
import { silentLogger } from '@platform/proto/common';
import { MemoryStore } from '../store/memory-store.js';
import { ManualClock } from '../util/clock.js';
import { randomIds } from '../util/ids.js';
import { LoginRefusals, MAX_NAMES_PER_SOURCE } from './login-refusals.js';

/** Counts the operations of each batch. */
class CountingStore extends MemoryStore {
  readonly batches: number[] = [];
  override batch(ops: Parameters<MemoryStore['batch']>[0]): Promise<void> {
    this.batches.push(ops.length);
    return super.batch(ops);
  }
}

function setup() {
  const store = new CountingStore();
  const clock = new ManualClock(Date.UTC(2026, 10, 23));
  const audit = new AuditLog({ store, clock, ids: randomIds });
  const deps = { store, clock, ids: randomIds, log: silentLogger, audit };
  return { store, clock, audit, deps, refusals: new LoginRefusals(deps, { intervalMs: 60_000 }) };
}

const claimed = (name: string) => ({ principal: `${name}@platform.local`, requestId: 'r' });
const refusal = (name: string, source = '192.0.2.1', throttled = false) => ({
  claimed: claimed(name),
  name,
  source,
  mechanism: 'basic',
  reason: throttled ? 'too many failed logins' : 'wrong user name or password',
  throttled,
});

async function items(audit: AuditLog): Promise<AuditLogItem[]> {
  return (await audit.query({ limit: 1000, offset: 0, reverse: true })).items;
}

test('login refusals: one record per name and source per interval, written at once and rewritten with the count', async (t) => {
  const { audit, clock, refusals } = setup();
  await refusals.refuse(refusal('alice'));
  let log = await items(audit);
  t.is(log.length, 1, 'the first refusal is on disk before the answer');
  t.is(log[0]!.fqn, 'auth::/::alice');
  t.like(log[0]!.audit_payload, { count: 1, throttled: 0, source: '192.0.2.1', mechanism: 'basic' });
  for (let i = 0; i < 2999; i++) await refusals.refuse(refusal('alice', '192.0.2.1', i >= 3));
  await refusals.refuse(refusal('alice', '192.0.2.2'));
  t.is((await items(audit)).length, 2, 'another source has its own record; more refusals write nothing yet');
  clock.advance(60_000);
  refusals.sweep();
  await refusals.stop();
  log = await items(audit);
  t.is(log.length, 2);
  const first = log.find((i) => i.audit_payload['source'] === '192.0.2.1')!;
  t.like(first.audit_payload, { count: 3000, throttled: 2996, reason: 'too many failed logins' });
  await new LoginRefusals(setup().deps).stop();
});

test('login refusals: a source spraying names gets records for a few names, then one aggregate', async (t) => {
  const { audit, refusals } = setup();
  for (let i = 0; i < 3000; i++) await refusals.refuse(refusal(`user${i}`, '2001:db8::1', i > 50));
  await refusals.stop();
  const log = await items(audit);
  t.is(log.length, MAX_NAMES_PER_SOURCE + 1);
  const aggregate = log.find((i) => i.fqn === 'auth::/')!;
  t.like(aggregate.audit_payload, { count: 3000 - MAX_NAMES_PER_SOURCE, source: '2001:db8::1' });
  t.is((aggregate.audit_payload['names'] as string[]).length, 10);
});

test('audit retention: deletes items older than the retention in bounded batches, keeps the rest', async (t) => {
  const { audit, clock, deps, store } = setup();
  const ctx = { principal: 'admin@platform.local', requestId: 'r' };
  for (let i = 0; i < 2500; i++) await audit.record(ctx, 'auth.issue', 'auth::/::admin');
  clock.advance(3_600_000);
  await audit.record(ctx, 'auth.issue', 'auth::/::admin');
  store.batches.length = 0;
  const retention = new AuditRetention(deps, { retentionSeconds: 1800, batchSize: 1000 });
  t.is(await retention.prune(), 2500);
  t.deepEqual(store.batches, [1000, 1000, 500]);
  t.is((await items(audit)).length, 1);
  t.is(await retention.prune(), 0);
  await retention.stop();
});
