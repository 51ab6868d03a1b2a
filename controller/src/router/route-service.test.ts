import test from 'ava';
import { MemoryStore } from '../store/memory-store.js';
import { keys } from '../store/keys.js';
import { RouteService } from './route-service.js';

const A = 'e0000000-0000-4000-8000-000000000001';
const B = 'e0000000-0000-4000-8000-000000000002';
const C = 'e0000000-0000-4000-8000-000000000003';

test('route service: the table is loaded from the stored jobs that have routes, whatever the text of the others', async (t) => {
  const store = new MemoryStore();
  const job = (uuid: string, name: string, ports: unknown[], tags: Record<string, string> = {}) =>
    JSON.stringify({ uuid, fqn: `job::/t::${name}`, name, tags, ports });
  await store.batch([
    { type: 'put', key: keys.job(A), value: job(A, 'web', [{ number: 8080, routes: [{ type: 'http', endpoint: 'web.example.test' }] }]) },
    // No routes, but text that reads like them (in a tag's key and value): skipped or parsed, never routed.
    { type: 'put', key: keys.job(B), value: job(B, 'quiet', [{ number: 80, routes: [] }], { 'x\\"routes': '"routes":[{"type":"http","endpoint":"no.example.test"}]' }) },
    { type: 'put', key: keys.job(C), value: job(C, 'bare', []) },
  ]);
  const routes = new RouteService({ domain: 'example.test' });
  await routes.load(store, []);
  t.deepEqual([...routes.table.routeMap()].map(([endpoint, jobs]) => [endpoint, jobs.map((j) => j.uuid)]), [['web.example.test', [A]]]);
});
