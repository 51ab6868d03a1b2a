import test, { type ExecutionContext } from 'ava';
import { serveGateway, type GatewayDefinition } from '@platform/gateway-sdk';
import type { ChangeContext } from '../context.js';
import { JobService } from '../jobs/job-service.js';
import type { InstanceRecord } from '../model/instance.js';
import type { ReferenceCheck } from '../policy/references.js';
import { testDeps } from '../scheduler/cluster.test-fixture.js';
import { MemoryStore } from '../store/memory-store.js';
import type { BatchOp } from '../store/store.js';
import { ServiceCatalog } from './catalog.js';
import { parseProvider, parseService } from './service-model.js';

/** The in-memory store, whose next batch can be made to fail (a full disk, a closing store). */
class FailingStore extends MemoryStore {
  failNext = false;
  override async batch(ops: readonly BatchOp[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the store refused the batch');
    }
    return super.batch(ops);
  }
}

const ctx: ChangeContext = { principal: 'admin@test', requestId: 'r1' };
const GATEWAY_JOB = '00000000-0000-4000-8000-00000000aaaa';

/** A real gateway (the SDK's server on loopback) that counts what it made and has not deleted. */
async function setup(t: ExecutionContext) {
  const live = new Set<string>();
  const def: GatewayDefinition<{ id: string }, { id: string }, { id: string }> = {
    providers: {
      create: async () => { const id = `p${live.size}`; live.add(id); return { id, state: { id } }; },
      delete: async (p) => void live.delete(p.id),
    },
    services: {
      create: async () => { const id = `s${live.size}`; live.add(id); return { id, state: { id } }; },
      delete: async (s) => void live.delete(s.id),
    },
    bindings: {
      create: async () => { const id = `b${live.size}`; live.add(id); return { id, url: 'x://h:1/', protocol: { scheme: 'x' }, state: { id } }; },
      delete: async (b) => void live.delete(b.id),
    },
  };
  const server = await serveGateway(def, { host: '127.0.0.1', port: 0 });
  t.teardown(() => server.stop(0));
  const store = new FailingStore();
  const deps = testDeps(undefined, store);
  const jobs = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map() });
  const instance = { uuid: 'i1', job_uuid: GATEWAY_JOB, state: 'RUNNING', ports: { '0': `127.0.0.1:${server.port}` } } as unknown as InstanceRecord;
  const trusted: ReferenceCheck = { resolve: async (refs) => refs.map((r) => ({ uuid: r.type === 'job' ? GATEWAY_JOB : (r.uuid ?? ''), fqn: r.fqn ?? '' })) };
  const catalog = new ServiceCatalog(deps, jobs, { gatewayTimeoutMs: 5000, instancesOf: (job) => (job === GATEWAY_JOB ? [instance] : []), trusted });
  await catalog.promote({ jobFqn: 'job::/t::gw', type: 'kv' }, ctx, trusted);
  return { live, store, catalog, trusted };
}

test('catalog: a provider the store cannot record is deleted at the gateway again; nothing is kept', async (t) => {
  const { live, store, catalog, trusted } = await setup(t);
  store.failNext = true;
  await t.throwsAsync(catalog.createProvider(parseProvider({ fqn: 'provider::/t::p', type: 'kv', parameters: { url: 'x://admin@h' } }), ctx, trusted), { message: /refused the batch/ });
  t.deepEqual([...live], [], 'the gateway deleted what it made');
  t.deepEqual(catalog.providers(), []);
  const p = await catalog.createProvider(parseProvider({ fqn: 'provider::/t::p', type: 'kv', parameters: { url: 'x://admin@h' } }), ctx, trusted);
  t.is(live.size, 1, 'the same request succeeds once the store does');
  t.truthy(p.state, 'the provider state is kept');
});

test('catalog: a service the store cannot record is deleted at the gateway again (with the states it was made with)', async (t) => {
  const { live, store, catalog, trusted } = await setup(t);
  const p = await catalog.createProvider(parseProvider({ fqn: 'provider::/t::p', type: 'kv', parameters: { url: 'x://admin@h' } }), ctx, trusted);
  const refs: ReferenceCheck = { resolve: async () => [{ uuid: p.uuid, fqn: p.fqn }] };
  store.failNext = true;
  await t.throwsAsync(catalog.createService(parseService({ fqn: 'service::/t::s', provider_fqn: p.fqn }), ctx, refs), { message: /refused the batch/ });
  t.deepEqual([...live], [p.gateway_id]);
  t.deepEqual(catalog.services(), []);
  await catalog.createService(parseService({ fqn: 'service::/t::s', provider_fqn: p.fqn }), ctx, refs);
  t.is(catalog.services().length, 1);
  t.is(live.size, 2);
});
