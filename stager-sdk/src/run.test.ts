import test from 'ava';
import type { StagerContext } from './context.js';
import { StagerRequestError } from './errors.js';
import { TestCoordinator } from './testkit.js';

test('runStager: a stager that returns without reporting is done', async (t) => {
  const kit = await TestCoordinator.start({ files: { a: '1' } });
  t.teardown(() => kit.close());
  const result = await kit.run(async () => undefined);
  t.is(result.outcome, 'done');
  t.is(kit.outcome, 'done');
});

test('runStager: a stager that throws reports failed with the message', async (t) => {
  const kit = await TestCoordinator.start({ files: { a: '1' } });
  t.teardown(() => kit.close());
  const result = await kit.run(async () => {
    throw new Error('the source is broken');
  });
  t.is(result.outcome, 'failed');
  t.is(kit.failureMessage, 'the source is broken');
});

test('runStager: relaunch after adding a dependency; the next run sees it', async (t) => {
  const kit = await TestCoordinator.start({ files: { a: '1' } });
  t.teardown(() => kit.close());
  const stager = async (ctx: StagerContext) => {
    if (!(await ctx.hasDependency('runtime', 'java'))) {
      await ctx.addDependency('runtime', 'java');
      return ctx.relaunch();
    }
    await ctx.setEnv('RELAUNCHED', 'yes');
  };
  t.is((await kit.run(stager)).outcome, 'relaunch');
  t.is((await kit.run(stager)).outcome, 'done');
  t.is(kit.meta.environment['RELAUNCHED'], 'yes');
});

test('client: metadata changes of every resource; an unknown resource answers 448', async (t) => {
  const kit = await TestCoordinator.start({ files: { a: '1' } });
  t.teardown(() => kit.close());
  const c = kit.client();
  await c.setEnvironment('A', '1');
  await c.addProvides('package', 'thing');
  await c.addTemplate('/app/conf', '<%', '%>');
  await c.addDependency('os', 'linux');
  await c.removeDependency('os', 'linux');
  t.deepEqual(await c.meta(), {
    dependencies: [],
    provides: [{ type: 'package', name: 'thing' }],
    environment: { A: '1' },
    templates: [{ path: '/app/conf', left_delimiter: '<%', right_delimiter: '%>' }],
  });
  const err = await t.throwsAsync(c.changeMeta({ resource: 'volumes', action: 'add' } as never), { instanceOf: StagerRequestError });
  t.is(err.status, 448);
});

test('client: an upload with a wrong sha256 is refused (499) and changes nothing', async (t) => {
  const kit = await TestCoordinator.start({ files: { a: '1' } });
  t.teardown(() => kit.close());
  const before = kit.archive;
  const err = await t.throwsAsync(kit.client().upload(Buffer.from('data'), 4, '00'.repeat(32)), { instanceOf: StagerRequestError });
  t.is(err.status, 499);
  t.is(kit.archive, before);
});
