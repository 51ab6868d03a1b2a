import test from 'ava';
import { testDeps } from '../scheduler/cluster.test-fixture.js';
import { keys } from '../store/keys.js';
import { PipelineService } from './pipeline.js';

test('pipelines: the stager index is rebuilt in batches the store takes (etcd\'s --max-txn-ops)', async (t) => {
  const deps = testDeps();
  const store = deps.store;
  const stager = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  for (let p = 0; p < 10; p++) {
    const uuid = `10000000-0000-4000-8000-${String(p).padStart(12, '0')}`;
    await store.batch([{ type: 'put', key: keys.pipeline(uuid), value: JSON.stringify({ uuid, fqn: `stagpipe::/t::p${p}`, stagers: [{ uuid: stager(p) }, { uuid: stager(p + 100) }] }) }]);
  }
  // As etcd does: a batch of more than 4 operations is refused.
  Object.defineProperty(store, 'maxBatchOps', { value: 4 });
  const batch = store.batch.bind(store);
  const sizes: number[] = [];
  store.batch = (ops) => {
    sizes.push(ops.length);
    return ops.length > 4 ? Promise.reject(new Error(`${ops.length} operations`)) : batch(ops);
  };
  await new PipelineService(deps).restore();
  t.deepEqual(sizes, [4, 4, 4, 4, 4]);
  t.is((await store.scan({ prefix: 'idx/stager/' })).length, 20);
});
