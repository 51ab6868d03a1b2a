import test from 'ava';
import { AuditLog } from '../audit/audit-log.js';
import { ConflictError, InvalidRequestError, NotFoundError, TooLargeError } from '../errors.js';
import { silentLogger } from '@platform/proto/common';
import { keys } from '../store/keys.js';
import { MemoryStore } from '../store/memory-store.js';
import { ManualClock } from '../util/clock.js';
import { randomIds } from '../util/ids.js';
import { BOOTSTRAP_POLICY } from './bootstrap.js';
import type { Caller } from './engine.js';
import { MAX_POLICY_DOC_BYTES, PolicyService } from './policy-service.js';

const admin: Caller = { name: 'admin', mechanism: 'basic', principal: 'admin@platform.local' };
const tom: Caller = { name: 'tom', mechanism: 'basic', principal: 'tom@platform.local' };
const ctx = { principal: 'admin@platform.local', requestId: 'r1' };

async function setup(store = new MemoryStore()) {
  const clock = new ManualClock(Date.UTC(2026, 10, 21));
  const audit = new AuditLog({ store, clock, ids: randomIds });
  const policy = new PolicyService({ store, clock, log: silentLogger, audit });
  const loaded = await policy.load({ principal: 'controller', requestId: 'startup' });
  return { store, audit, policy, loaded };
}

async function auditEvents(audit: AuditLog): Promise<string[]> {
  return (await audit.query({ limit: 1000, offset: 0, reverse: true })).items.map((i) => `${i.event_type} ${i.fqn}`);
}

test('policy service: the first start writes the bootstrap policy once; later starts load what is stored', async (t) => {
  const { store, policy, loaded, audit } = await setup();
  t.deepEqual(loaded, { bootstrapped: true, documents: 1 });
  t.like(policy.list()[0], { name: 'bootstrap', version: '1', text: BOOTSTRAP_POLICY });
  t.deepEqual(await auditEvents(audit), ['policy.add policydoc::/::bootstrap']);
  t.true(policy.engine.check(admin, 'policy::/', 'update').allowed);
  await policy.put({ docs: [{ name: 'extra', for_version: 0, text: 'job::/shared { permit read }' }] }, admin, ctx);
  const again = await setup(store);
  t.deepEqual(again.loaded, { bootstrapped: false, documents: 2 });
  t.true(again.policy.engine.check(tom, 'job::/shared::x', 'read').allowed);
});

test('policy service: versions are kept; for_version guards against lost updates', async (t) => {
  const { policy, audit } = await setup();
  const put = (for_version: unknown, text: string) => policy.put({ docs: [{ name: 'team', for_version, text }] }, admin, ctx);
  const [v1] = await put(0, 'job::/team { permit read }');
  t.is(v1!.version, '1');
  const [v2] = await put('1', 'job::/team { permit read, update }');
  t.is(v2!.version, '2');
  await t.throwsAsync(put(1, 'job::/team { permit delete }'), { instanceOf: ConflictError, message: /is at version 2, not 1/ });
  t.is((await policy.get('team')).text, 'job::/team { permit read, update }');
  t.is((await policy.get('team', 1)).text, 'job::/team { permit read }');
  await t.throwsAsync(policy.get('team', 3), { instanceOf: NotFoundError });
  t.true(policy.engine.check(tom, 'job::/team::x', 'update').allowed);
  // The same text again writes nothing.
  const [same] = await put(2, 'job::/team { permit read, update }');
  t.is(same!.version, '2');
  // Empty text deletes; versions stay; writing again continues the numbers.
  await put(2, '');
  t.deepEqual(policy.list().map((d) => d.name), ['bootstrap']);
  await t.throwsAsync(policy.get('team'), { instanceOf: NotFoundError });
  t.is((await policy.get('team', 2)).version, '2');
  t.false(policy.engine.check(tom, 'job::/team::x', 'read').allowed);
  const [v4] = await put(3, 'job::/team { permit read }');
  t.is(v4!.version, '4');
  t.deepEqual((await auditEvents(audit)).slice(1), [
    'policy.add policydoc::/::team',
    'policy.update policydoc::/::team',
    'policy.delete policydoc::/::team',
    'policy.add policydoc::/::team',
  ]);
});

test('policy service: a PUT is all or nothing', async (t) => {
  const { store, policy } = await setup();
  const before = [];
  for await (const entry of store.iterate({})) before.push(entry);
  const attempts: [unknown, new (...a: never[]) => Error, RegExp][] = [
    [{ docs: [{ name: 'a', for_version: 0, text: 'job::/a { permit read }' }, { name: 'b', for_version: 0, text: 'job::/b {\n permit reed }' }] }, InvalidRequestError, /policy "b" line 2, column 9: "reed" is not a permission/],
    [{ docs: [{ name: 'a', for_version: 0, text: 'job::/a { permit read }' }, { name: 'bootstrap', for_version: 0, text: 'job::/b { permit read }' }] }, ConflictError, /version 1, not 0/],
    [{ docs: [{ name: 'a', for_version: 0, text: 'x'.repeat(MAX_POLICY_DOC_BYTES + 1) }] }, TooLargeError, /over the limit of 524288 bytes/],
    [{ docs: [{ name: 'a', for_version: 0, text: 'job::/a { role ghost }' }] }, InvalidRequestError, /role "ghost" is not defined/],
    [{ docs: [{ name: 'a', text: 'job::/a { permit read }' }] }, InvalidRequestError, /for_version/],
    [{ docs: [{ name: '../x', for_version: 0, text: '' }] }, InvalidRequestError, /name/],
    [{ docs: [] }, InvalidRequestError, /docs/],
    [{ docs: [{ name: 'a', for_version: 0, text: 'job::/a { permit read }' }, { name: 'a', for_version: 0, text: '' }] }, InvalidRequestError, /appears twice/],
    [{ docs: [{ name: 'bootstrap', for_version: 1, text: 'job::/a { permit read }' }] }, ConflictError, /take permit update on policy::\/ away from admin@platform.local/],
    [{ docs: [{ name: 'nothing', for_version: 0, text: '' }] }, NotFoundError, /an empty text deletes/],
  ];
  for (const [body, type, message] of attempts) {
    await t.throwsAsync(policy.put(body as Record<string, unknown>, admin, ctx), { instanceOf: type, message });
  }
  const after = [];
  for await (const entry of store.iterate({})) after.push(entry);
  t.deepEqual(after, before, 'nothing was written');
  t.deepEqual(policy.list().map((d) => d.name), ['bootstrap']);
});

test('policy service: roles may be defined in another document of the same PUT', async (t) => {
  const { policy, store } = await setup();
  await policy.put(
    {
      docs: [
        { name: 'uses', for_version: 0, text: 'job::/ops { if (auth_server@platform->name == "tom") { role operator } }' },
        { name: 'roles', for_version: 0, text: 'role::/operator { permit read, start, stop }', description: 'shared roles' },
      ],
    },
    admin,
    ctx,
  );
  t.true(policy.engine.check(tom, 'job::/ops::x', 'stop').allowed);
  t.is((await policy.get('roles')).description, 'shared roles');
  t.truthy(await store.get(keys.policyDocVersion('roles', 1)));
});
