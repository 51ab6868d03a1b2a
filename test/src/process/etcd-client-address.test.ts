/**
 * What is counted and recorded per client address, through a standby: two real controllers on a
 * real etcd, clients on distinct loopback addresses (127.0.0.2, 127.0.0.3...: every one reaches
 * the controllers on 127.0.0.1). The standby names each client's address to the active controller
 * with a proof keyed with the key the controllers share through etcd, so one client's wrong
 * passwords or device codes through the standby do not throttle another client of it, and
 * auth.deny records and the active controller's log name the client, not the standby. A client
 * that sends the header itself, straight to the active controller, is not believed.
 */
import { request } from 'node:http';
import test, { type ExecutionContext } from 'ava';
import type { AuditLogItem } from '@platform/controller';
import { TEST_ADMIN_PASSWORD, type ControllerProcess } from '../harness/controller-process.js';
import { etcdController, testDir, testEtcd } from '../harness/etcd-cluster.js';
import { freePort } from '../harness/net.js';
import { unique } from '../harness/fixtures.js';
import { basicAuth } from '../harness/http.js';
import { eventually } from '../harness/wait.js';

const CLIENT_ADDRESS_HEADER = 'x-platform-client-address';

interface Answer {
  status: number;
  body: { message?: string; retry?: boolean };
}

/** A request to `base` from the loopback address `from` (the client's address as the controller sees it). */
function from(address: string, base: string, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, localAddress: address, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let body: Answer['body'] = {};
        try {
          body = JSON.parse(text) as Answer['body'];
        } catch {
          // Not JSON: the status says enough.
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const login = (address: string, base: string, name: string, password: string, headers: Record<string, string> = {}) =>
  from(address, base, 'POST', '/v1/oauth2/token', { authorization: basicAuth(name, password), ...headers });

async function pair(t: ExecutionContext): Promise<{ active: ControllerProcess; standby: ControllerProcess } | undefined> {
  const etcd = await testEtcd(t);
  if (!etcd) return undefined;
  const blobDir = await testDir(t);
  // An identity provider on a closed port of loopback, which is not allowed: each device code asked for is 502, then 429 past the limit.
  const idp = `name=down,issuer=http://127.0.0.1:${await freePort()},client-id=x`;
  const start = (until: 'ready' | 'standby') => etcdController(t, etcd, { blobDir, until, args: ['--idp', idp], env: { PLATFORM_BUILTINS: 'false' } });
  const active = await start('ready');
  const standby = await start('standby');
  return { active, standby };
}

test('etcd: through a standby, each client is counted by its own address: one client\'s wrong passwords and device codes do not throttle another; records and logs name the client; a client\'s own header is not believed', async (t) => {
  t.timeout(4 * 60_000);
  const p = await pair(t);
  if (!p) return;
  const { active, standby } = p;
  const admin = await active.admin();
  const [a, b, c] = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
  t.false(standby.lines.some((l) => l['msg'] === 'controller ready'), 'the second stands by');

  // Client A, through the standby: 30 wrong passwords over as many names, then its address must wait.
  const names: string[] = [];
  for (let i = 0; i < 30; i++) {
    const name = unique('spray');
    names.push(name);
    const r = await login(a, standby.url, name, 'wrong', { 'x-request-id': `spray-${i}` });
    t.is(r.status, 401, `attempt ${i}: ${JSON.stringify(r.body)}`);
  }
  const throttled = await login(a, standby.url, 'admin', TEST_ADMIN_PASSWORD);
  t.is(throttled.status, 429, 'client A must wait');
  t.regex(throttled.body.message ?? '', /from this address/);
  // Sent straight to the active controller, a client's own header naming another address is not
  // believed: A claiming to be a fresh address must still wait. At once: A's wait after its 30th
  // failure is one second.
  const claim = (address: string, requestId: string) => ({ 'x-request-id': requestId, [CLIENT_ADDRESS_HEADER]: `address=${address};at=${Date.now()};proof=${'A'.repeat(43)}` });
  const stillA = await login(a, active.url, 'admin', TEST_ADMIN_PASSWORD, claim('127.0.0.9', unique('forged')));
  t.is(stillA.status, 429, 'a forged header does not lift the wait of client A');

  // Client B, through the same standby: not held up by A.
  const other = await login(b, standby.url, 'admin', TEST_ADMIN_PASSWORD);
  t.is(other.status, 200, `client B logs in: ${JSON.stringify(other.body)}`);

  // The refusals are recorded and logged with A's address, not the standby's.
  const denial = await eventually(async () => {
    const items = (await admin.get<AuditLogItem[]>(`/v1/audit?event_type=auth.deny&fqn=${encodeURIComponent(`auth::/::${names[0]!}`)}`)).body;
    return items.length > 0 ? items[0] : undefined;
  }, { timeoutMs: 10_000, what: 'the auth.deny record of client A\'s first attempt' });
  t.is(denial.audit_payload['source'], a);
  const logged = active.lines.find((l) => l['msg'] === 'request refused' && l['request_id'] === 'spray-0');
  t.is(logged?.['client'], a, 'the active controller\'s log line names client A');

  // Nor is C, claiming to be A: it is recorded as C.
  const forger = unique('forger');
  t.is((await login(c, active.url, forger, 'wrong', claim(a, unique('forged')))).status, 401);
  const forged = await eventually(async () => {
    const items = (await admin.get<AuditLogItem[]>(`/v1/audit?event_type=auth.deny&fqn=${encodeURIComponent(`auth::/::${forger}`)}`)).body;
    return items.length > 0 ? items[0] : undefined;
  }, { timeoutMs: 10_000, what: 'the auth.deny record of the forged attempt' });
  t.is(forged.audit_payload['source'], c, 'recorded with the real address, not the one claimed');

  // The device flow's limit per address (10 codes a minute), through the standby: A reaches it, B does not.
  const getcode = (address: string) => from(address, standby.url, 'GET', '/v1/oauth2/device/down/getcode', {});
  for (let i = 0; i < 10; i++) t.is((await getcode(a)).status, 502, `code ${i} of client A reaches for the provider`);
  t.is((await getcode(a)).status, 429, 'client A is past the limit');
  t.is((await getcode(b)).status, 502, 'client B is not: it reaches for the provider');
});
