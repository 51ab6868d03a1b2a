import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayRefusedError } from '../index.js';
import { GatewayTestKit } from '../testkit.js';
import { tenantGateway } from './tenant-gateway.js';

test('tenant gateway: a service is a tenant, a binding an API key; both come and go through the admin API', async (t) => {
  // The admin API, reduced to what the gateway calls: a set of paths.
  const made = new Set<string>();
  const api = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (req.method === 'PUT') made.add(path);
    res.statusCode = req.method === 'DELETE' && !made.delete(path) ? 404 : 200;
    res.end();
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  t.teardown(() => api.close());
  const adminUrl = `http://admin:secret@127.0.0.1:${(api.address() as AddressInfo).port}`;

  const kit = await GatewayTestKit.start(tenantGateway(adminUrl, 'https://api.example.com:443/v1'));
  t.teardown(() => kit.stop());
  t.is(kit.tier, 2);
  t.deepEqual(kit.methodMap['/services'], { POST: { params: { plan: 'small' } } });

  const service = await kit.createService({ name: 'acme', params: { plan: 'large' } });
  const binding = await kit.createBinding({ service, name: 'api' });
  t.regex(binding.object.url, /^https:\/\/acme:[0-9A-Za-z]{40}@api\.example\.com:443\/v1$/);
  t.is(made.size, 2);

  await kit.restart(); // nothing lives in the gateway: the state comes back in the headers
  await kit.deleteBinding(binding);
  await kit.deleteService(service);
  t.is(made.size, 0);
  const again = await t.throwsAsync(kit.deleteService(service), { instanceOf: GatewayRefusedError });
  t.is(again.status, 404);
  const noPlan = await t.throwsAsync(kit.createService({ name: 'x' }), { instanceOf: GatewayRefusedError });
  t.is(noPlan.status, 400);
});
