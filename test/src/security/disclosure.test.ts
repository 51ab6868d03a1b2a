/**
 * What one user's requests must not tell of another's resources: through a manifest (whether a
 * job, network or service of another namespace exists, a network's uuid and subnet) and through
 * a route conflict (the uuid of the job that holds a TCP port). A resource the caller may not
 * read answers as one that does not exist.
 */
import test from 'ava';
import type { ApiErrorBody, Job } from '@platform/controller';
import { unique } from '../harness/fixtures.js';
import { useController } from '../harness/suite.js';

const suite = useController(test);
const PASSWORD = 'a long enough password';

async function twoUsers() {
  const alice = unique('alice');
  const mallory = unique('mallory');
  const a = await suite.api().createUser(alice, PASSWORD);
  const m = await suite.api().createUser(mallory, PASSWORD);
  return { alice, mallory, a, m };
}

/** The parts of a refusal that must not tell "exists" from "does not": all but the FQN named. */
function shape(r: { status: number; body: ApiErrorBody }, fqn: string): unknown {
  const { request_id: _r, error_details: _d, message, missing_claims, ...flags } = r.body;
  const strip = (s: string) => s.split(fqn).join('<fqn>');
  return { status: r.status, message: strip(message), missing_claims: (missing_claims as string[] | undefined)?.map(strip), flags };
}

test('manifests: a job of another namespace answers the same whether it exists or not (no create/update oracle)', async (t) => {
  const { alice, a, m } = await twoUsers();
  const existing = `job::/sandbox/${alice}::${unique('secret')}`;
  const missing = `job::/sandbox/${alice}::${unique('nothere')}`;
  t.is((await a.post<Job>('/v1/jobs', { fqn: existing })).status, 200);
  for (const path of ['/v1/manifests/expansion', '/v1/manifests']) {
    const r1 = await m.post<ApiErrorBody>(path, { jobs: { [existing]: { packages: [] } } });
    const r2 = await m.post<ApiErrorBody>(path, { jobs: { [missing]: { packages: [] } } });
    t.is(r1.status, 403, r1.text);
    t.deepEqual(shape(r1, existing), shape(r2, missing), `${path}: "exists" must read as "does not exist"`);
  }
});

test("manifests: a link or network member naming another namespace's job answers the same whether it exists or not", async (t) => {
  const { alice, mallory, a, m } = await twoUsers();
  const existing = `job::/sandbox/${alice}::${unique('db')}`;
  const missing = `job::/sandbox/${alice}::${unique('nothere')}`;
  t.is((await a.post<Job>('/v1/jobs', { fqn: existing, ports: [{ number: 5432 }] })).status, 200);
  const mine = `job::/sandbox/${mallory}::${unique('app')}`;
  const link = (target: string) => ({ jobs: { [mine]: { packages: [], links: { DB: { fqn: target, port: 5432 } } } } });
  const l1 = await m.post<ApiErrorBody>('/v1/manifests/expansion', link(existing));
  const l2 = await m.post<ApiErrorBody>('/v1/manifests/expansion', link(missing));
  t.not(l1.status, 200, `a link to a job mallory may not read is accepted: ${l1.text.slice(0, 300)}`);
  t.deepEqual(shape(l1, existing), shape(l2, missing), 'links: "exists" must read as "does not exist"');

  const net = `network::/sandbox/${mallory}::${unique('n')}`;
  const member = (target: string) => ({ jobs: { [mine]: { packages: [] } }, networks: { [net]: { jobs: [{ fqn: target }] } } });
  const n1 = await m.post<ApiErrorBody>('/v1/manifests/expansion', member(existing));
  const n2 = await m.post<ApiErrorBody>('/v1/manifests/expansion', member(missing));
  t.deepEqual(shape(n1, existing), shape(n2, missing), 'network members: "exists" must read as "does not exist"');
});

test("manifests: the expansion does not show the uuid and subnet of another namespace's network", async (t) => {
  const { alice, mallory, a, m } = await twoUsers();
  const fqn = `network::/sandbox/${alice}::${unique('private')}`;
  const made = await a.post<{ uuid: string; subnet_info: { Subnet: string } }>('/v1/networks', { fqn });
  t.is(made.status, 200, made.text);
  // Mallory cannot read it by uuid...
  t.is((await m.get(`/v1/networks/${made.body.uuid}`)).status, 404);
  // ...but a manifest of her own job that names it shows its uuid and subnet.
  const mine = `job::/sandbox/${mallory}::${unique('j')}`;
  const r = await m.post<{ expanded_json?: string }>('/v1/manifests/expansion', { jobs: { [mine]: { packages: [] } }, networks: { [fqn]: {} } });
  const text = r.text;
  t.false(text.includes(made.body.uuid), `the network's uuid leaks: ${text.slice(0, 600)}`);
  t.false(text.includes(made.body.subnet_info.Subnet), `the network's subnet leaks: ${text.slice(0, 600)}`);
  // The same through a subnet that differs: the message names the real one.
  const other = await m.post<ApiErrorBody>('/v1/manifests/expansion', { jobs: { [mine]: { packages: [] } }, networks: { [fqn]: { subnet: '10.250.0.0/24' } } });
  t.false(other.text.includes(made.body.subnet_info.Subnet), `the network's subnet leaks: ${other.text.slice(0, 600)}`);
  // And a network that does not exist answers like one that exists.
  const missing = `network::/sandbox/${alice}::${unique('nothere')}`;
  const r2 = await m.post<ApiErrorBody>('/v1/manifests/expansion', { jobs: { [mine]: { packages: [] } }, networks: { [missing]: {} } });
  t.is(r.status, r2.status, `exists: ${r.status}, does not exist: ${r2.status}`);
});

test("routes: a TCP port taken by another namespace's job does not name that job's uuid", async (t) => {
  const { alice, mallory, a, m } = await twoUsers();
  const doc = unique('tcp');
  const grant = await suite.api().put('/v1/policy', { docs: [{ name: doc, for_version: 0, text: 'route::/tcp { permit map }' }] });
  t.is(grant.status, 200, grant.text);
  try {
    const port = 30_000 + Math.floor(Math.random() * 900);
    const theirs = await a.post<Job>('/v1/jobs', { fqn: `job::/sandbox/${alice}::${unique('db')}`, ports: [{ number: 5432, routes: [{ type: 'tcp', endpoint: `tcp://127.0.0.1:${port}` }] }] });
    t.is(theirs.status, 200, theirs.text);
    const r = await m.post<ApiErrorBody>('/v1/jobs', { fqn: `job::/sandbox/${mallory}::${unique('probe')}`, ports: [{ number: 5432, routes: [{ type: 'tcp', endpoint: `tcp://127.0.0.1:${port}` }] }] });
    t.is(r.status, 409, r.text);
    t.false(r.text.includes(theirs.body.uuid), `alice's job uuid leaks to mallory: ${r.text}`);
    t.is((await m.get(`/v1/jobs/${theirs.body.uuid}`)).status, 404, 'a job mallory may not read');
  } finally {
    await suite.api().put('/v1/policy', { docs: [{ name: doc, for_version: 1, text: '' }] });
  }
});
