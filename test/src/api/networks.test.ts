/**
 * Virtual networks against a real controller (no agent: addresses are shown once instances are
 * placed, which networks-agent.test.ts covers): create with a subnet from the pool, join and
 * leave through the job, one network per job, refusals that change nothing, policy, audit,
 * manifests, and what survives kill -9.
 */
import test from 'ava';
import type { ApiErrorBody, AuditLogItem, Job } from '@platform/controller';
import { httpAppArchive, uploadPackage } from '../harness/apps.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { taskEnd } from '../harness/tasks.js';

interface Network {
  uuid: string;
  fqn: string;
  name: string;
  subnet_info: { Subnet: string };
  gateway: string;
  version_id: number;
  network_end_points: { uuid: string; fqn: string; job_uuid: string; broadcast_enable: boolean; discovery_address: string; multicast_addresses: string[]; end_point_interface?: unknown[] }[];
}

let controller: ControllerProcess | undefined;
let api: ApiClient;

test.before(async () => {
  controller = await ControllerProcess.start({ env: { PLATFORM_NETWORK_SUBNET_POOL: '10.77.0.0/16', PLATFORM_NETWORK_SUBNET_SIZE: '24' } });
  api = await controller.admin();
});
test.after.always(async () => {
  await controller?.dispose();
});

async function job(fqn: string): Promise<Job> {
  const r = await api.post<Job>('/jobs', { fqn });
  if (r.status !== 200 && r.status !== 201) throw new Error(`job ${fqn}: ${r.status} ${r.text}`);
  return r.body;
}

async function network(fqn: string, extra: Record<string, unknown> = {}): Promise<Network> {
  const r = await api.post<Network>('/networks', { fqn, ...extra });
  if (r.status !== 200) throw new Error(`network ${fqn}: ${r.status} ${r.text}`);
  return r.body;
}

test('networks: a network gets the first free /24 of the pool, is listed and read, and its FQN is unique', async (t) => {
  const ns = `/net/${unique()}`;
  const a = await network(`network::${ns}::a`, { description: 'first' });
  t.regex(a.subnet_info.Subnet, /^10\.77\.\d+\.0\/24$/);
  t.is(a.gateway, a.subnet_info.Subnet.replace(/0\/24$/, '1'));
  t.is(a.name, 'a');
  const b = await network(`network::${ns}::b`);
  t.not(a.subnet_info.Subnet, b.subnet_info.Subnet);
  const list = await api.get<Network[]>('/networks');
  t.true(list.body.some((n) => n.uuid === a.uuid) && list.body.some((n) => n.uuid === b.uuid));
  const one = await api.get<Network>(`/v1/networks/${a.uuid}`);
  t.is(one.status, 200);
  t.deepEqual(one.body, a);
  const dup = await api.post<ApiErrorBody>('/networks', { fqn: `network::${ns}::a` });
  t.is(dup.status, 409);
  const shows = await api.get<AuditLogItem[]>(`/audit?fqn=${encodeURIComponent(`network::${ns}::a`)}`);
  t.deepEqual(shows.body.map((i) => i.event_type).sort(), ['network.create', 'network.show']);
});

test('networks: bad input is refused with an APIError and changes nothing', async (t) => {
  const ns = `/net/${unique()}`;
  const mine = async () => (await api.get<Network[]>('/networks')).body.filter((n) => n.fqn.startsWith(`network::${ns}::`)).length;
  for (const [body, status, pattern] of [
    [{ fqn: `job::${ns}::x` }, 400, /network FQN/],
    [{ fqn: 'network::nope' }, 400, /fqn/],
    [{ fqn: `network::${ns}::x`, subnet: '10.1.2.3/24' }, 400, /host bits/],
    [{ fqn: `network::${ns}::x`, subnet: '10.1.2.0/33' }, 400, /prefix length/],
    [{ fqn: `network::${ns}::x`, subnet: '300.1.2.0/24' }, 400, /not an IPv4 address/],
    [{ fqn: `network::${ns}::x`, subnet: '10.1.0.0/30' }, 400, /\/8 to \/29/],
    [{ fqn: `network::${ns}::x`, extra: 1, subnet: 5 }, 400, /subnet/],
  ] as const) {
    const r = await api.post<ApiErrorBody>('/networks', body);
    t.is(r.status, status, JSON.stringify(body));
    t.regex(r.body.message, pattern);
  }
  const fixed = await network(`network::${ns}::fixed`, { subnet: '192.168.77.0/24' });
  t.is(fixed.subnet_info.Subnet, '192.168.77.0/24');
  const overlap = await api.post<ApiErrorBody>('/networks', { fqn: `network::${ns}::over`, subnet: '192.168.0.0/16' });
  t.is(overlap.status, 409);
  t.regex(overlap.body.message, /overlaps the subnet 192\.168\.77\.0\/24/);
  t.is(await mine(), 1);

  const j = await job(`job::${ns}::j`);
  for (const [body, pattern] of [
    [{ job_fqn: `job::${ns}::j`, discovery_address: '-bad' }, /discovery_address/],
    [{ job_fqn: `job::${ns}::j`, discovery_address: 'a..b' }, /discovery_address/],
    [{ job_fqn: `job::${ns}::j`, discovery_address: 'under_score' }, /discovery_address/],
    [{ job_fqn: `job::${ns}::j`, multicast_addresses: ['10.0.0.0/8'] }, /not a multicast block/],
    [{ job_fqn: `job::${ns}::j`, multicast_addresses: ['239.1.1.1/16'] }, /host bits/],
    [{ job_fqn: `job::${ns}::nope` }, /no job/],
    [{ job_fqn: `network::${ns}::j` }, /job FQN/],
  ] as const) {
    const r = await api.post<ApiErrorBody>(`/networks/${fixed.uuid}/join`, body);
    t.is(r.status, 400, JSON.stringify(body));
    t.regex(r.body.message, pattern);
  }
  t.is((await api.get<Job>(`/jobs/${j.uuid}`)).body.network_ref, null);
  t.is((await api.get<Network>(`/networks/${fixed.uuid}`)).body.version_id, fixed.version_id);
  t.is((await api.get('/networks/00000000-0000-4000-8000-000000000000')).status, 404);
  t.is((await api.get('/networks/not-a-uuid')).status, 400);
  // A job body cannot put the job on a network: joining has its endpoint.
  const sneaky = await api.post<ApiErrorBody>('/jobs', { fqn: `job::${ns}::sneaky`, network_ref: { uuid: fixed.uuid } });
  t.is(sneaky.status, 400);
  t.regex(sneaky.body.message, /network_ref: a job joins a network with POST \/networks\/.*\/join/);
  const routes = await api.post<ApiErrorBody>('/jobs', { fqn: `job::${ns}::routes`, aggregate_network_routes: { m: '239.1.1.1/16' } });
  t.is(routes.status, 400);
});

test('networks: join sets the job network_ref (audited as network.join), one network per job, leave clears it', async (t) => {
  const ns = `/net/${unique()}`;
  const n1 = await network(`network::${ns}::one`);
  const n2 = await network(`network::${ns}::two`);
  const j = await job(`job::${ns}::app`);
  const joined = await api.post<Network>(`/networks/${n1.uuid}/join`, {
    job_fqn: j.fqn,
    discovery_address: 'App.Example',
    broadcast_enable: false,
    multicast_addresses: ['239.5.0.0/16'],
  });
  t.is(joined.status, 200, joined.text);
  const ep = joined.body.network_end_points[0]!;
  t.like(ep, { fqn: j.fqn, job_uuid: j.uuid, discovery_address: 'app.example', broadcast_enable: false, multicast_addresses: ['239.5.0.0/16'] });
  t.deepEqual(ep.end_point_interface, []);
  const after = (await api.get<Job>(`/jobs/${j.uuid}`)).body;
  t.deepEqual(after.network_ref, { uuid: n1.uuid });
  t.is(after.version_id, j.version_id + 1);
  // ipam=false leaves the interfaces out.
  const plain = await api.get<Network[]>('/networks?ipam=false');
  t.is(plain.body.find((n) => n.uuid === n1.uuid)!.network_end_points[0]!.end_point_interface, undefined);
  t.truthy((await api.get<Network[]>('/networks?ipam=true')).body.find((n) => n.uuid === n1.uuid)!.network_end_points[0]!.end_point_interface);

  const audit = await api.get<AuditLogItem[]>(`/audit?fqn=${encodeURIComponent(j.fqn)}`);
  const join = audit.body.find((i) => i.event_type === 'network.join');
  t.is(join?.event_type_int, 6002);
  t.truthy(join, JSON.stringify(audit.body));
  t.true(JSON.stringify(join).includes('"network_ref/uuid"'));

  // A second network: 409, nothing changes.
  const second = await api.post<ApiErrorBody>(`/networks/${n2.uuid}/join`, { job_fqn: j.fqn });
  t.is(second.status, 409);
  t.regex(second.body.message, /is on network .*one already/);
  t.is((await api.get<Network>(`/networks/${n2.uuid}`)).body.network_end_points.length, 0);
  // Another member may not take its discovery name.
  const other = await job(`job::${ns}::other`);
  const clash = await api.post<ApiErrorBody>(`/networks/${n1.uuid}/join`, { job_fqn: other.fqn, discovery_address: 'app.example' });
  t.is(clash.status, 409);
  // Joining again with other options changes them; with the same, nothing.
  const again = await api.post<Network>(`/networks/${n1.uuid}/join`, { job_fqn: j.fqn, discovery_address: 'app2', broadcast_enable: true });
  t.is(again.body.network_end_points[0]!.discovery_address, 'app2');
  t.is(again.body.network_end_points[0]!.uuid, ep.uuid);
  const same = await api.post<Network>(`/networks/${n1.uuid}/join`, { job_fqn: j.fqn, discovery_address: 'app2', broadcast_enable: true });
  t.is(same.body.version_id, again.body.version_id);
  // A PUT of the job that repeats its network_ref is fine; one that changes it is refused.
  const current = (await api.get<Job>(`/jobs/${j.uuid}`)).body;
  const put = await api.put<Job>(`/jobs/${j.uuid}`, { ...current, tags: { a: 'b' } });
  t.is(put.status, 200, put.text);
  t.deepEqual(put.body.network_ref, { uuid: n1.uuid });
  const moved = await api.put<ApiErrorBody>(`/jobs/${j.uuid}`, { ...put.body, network_ref: { uuid: n2.uuid } });
  t.is(moved.status, 400);
  // A member job cannot be deleted; a network with members cannot either, unless forced.
  t.is((await api.delete(`/jobs/${j.uuid}`)).status, 409);
  const del = await api.delete<ApiErrorBody>(`/networks/${n1.uuid}`);
  t.is(del.status, 409);
  t.regex(del.body.message, /member job/);

  const left = await api.post<Network>(`/networks/${n1.uuid}/leave`, { job_fqn: j.fqn });
  t.is(left.status, 200);
  t.is(left.body.network_end_points.length, 0);
  t.is((await api.get<Job>(`/jobs/${j.uuid}`)).body.network_ref, null);
  t.is((await api.post(`/networks/${n1.uuid}/leave`, { job_fqn: j.fqn })).status, 404);
  // Now the second network takes it; a forced delete takes it off first.
  t.is((await api.post(`/networks/${n2.uuid}/join`, { job_fqn: j.fqn })).status, 200);
  t.is((await api.delete(`/networks/${n2.uuid}?force=true`)).status, 200);
  t.is((await api.get<Job>(`/jobs/${j.uuid}`)).body.network_ref, null);
  t.is((await api.get(`/networks/${n2.uuid}`)).status, 404);
  t.is((await api.delete(`/jobs/${j.uuid}`)).status, 200);
});

test('networks: policy decides who creates, reads and joins; a user works in its sandbox', async (t) => {
  const name = `u${unique().replace(/[^a-z0-9]/gi, '').slice(0, 10).toLowerCase()}`;
  const user = await api.createUser(name, 'pw-for-networks-1');
  const mine = await user.post<Network>('/networks', { fqn: `network::/sandbox/${name}::n` });
  t.is(mine.status, 200, mine.text);
  const theirs = await network(`network::/net/${unique()}::admins`);
  const denied = await user.post<ApiErrorBody>('/networks', { fqn: `network::/net/${unique()}::x` });
  t.is(denied.status, 403);
  t.is((await user.get(`/networks/${theirs.uuid}`)).status, 404);
  t.false((await user.get<Network[]>('/networks')).body.some((n) => n.uuid === theirs.uuid));
  t.true((await user.get<Network[]>('/networks')).body.some((n) => n.uuid === mine.body.uuid));
  // Joining an admin's job to the user's network: the job is not the user's to see.
  const adminJob = await job(`job::/net/${unique()}::j`);
  const r = await user.post<ApiErrorBody>(`/networks/${mine.body.uuid}/join`, { job_fqn: adminJob.fqn });
  t.is(r.status, 400);
  t.is((await api.get<Job>(`/jobs/${adminJob.uuid}`)).body.network_ref, null);
});

test('networks: a manifest creates its networks and joins its jobs after them; expansion shows it', async (t) => {
  const ns = `/net/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const manifest = {
    jobs: {
      [`job::${ns}::a`]: { packages: [{ fqn: pkg.fqn }], start: { cmd: 'node /app/server.js' } },
      [`job::${ns}::b`]: { packages: [{ fqn: pkg.fqn }], start: { cmd: 'node /app/server.js' } },
    },
    networks: {
      [`network::${ns}::net`]: {
        jobs: [
          { fqn: `job::${ns}::a`, discovery_address: 'a', broadcast_enable: true },
          { fqn: `job::${ns}::b`, discovery_address: 'b', multicast_addresses: ['239.9.0.0/16'] },
        ],
      },
    },
  };
  const expansion = await api.post<{ expanded_json: string }>('/manifests/expansion', manifest);
  t.is(expansion.status, 200, expansion.text);
  const expanded = JSON.parse(expansion.body.expanded_json) as { networks: { action: string; fqn: string; joins: { job_fqn: string; action: string }[] }[] };
  t.is(expanded.networks[0]!.action, 'create');
  t.deepEqual(expanded.networks[0]!.joins.map((j) => [j.job_fqn, j.action]), [[`job::${ns}::a`, 'join'], [`job::${ns}::b`, 'join']]);
  t.false((await api.get<Network[]>('/networks')).body.some((n) => n.fqn === `network::${ns}::net`));

  const bad = await api.post<ApiErrorBody>('/manifests', { ...manifest, networks: { [`network::${ns}::net`]: { jobs: [{ fqn: `job::${ns}::a`, discovery_address: 'no_' }] } } });
  t.is(bad.status, 400);
  const typo = await api.post<ApiErrorBody>('/manifests', { ...manifest, networks: { [`network::${ns}::net`]: { jobs: [{ fqn: `job::${ns}::a`, broadcast: true }] } } });
  t.is(typo.status, 400);
  const missing = await api.post<ApiErrorBody>('/manifests', { ...manifest, networks: { [`network::${ns}::net`]: { jobs: [{ fqn: `job::${ns}::zzz` }] } } });
  t.is(missing.status, 400);
  t.regex(missing.body.message, /does not exist and is not declared/);
  const jobsOf = async () => [
    ...(await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(`job::${ns}::a`)}`)).body,
    ...(await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(`job::${ns}::b`)}`)).body,
  ];
  t.deepEqual(await jobsOf(), []);

  const r = await api.post<{ location: string }>('/manifests', manifest);
  t.is(r.status, 200, r.text);
  const task = await taskEnd<{ state: string }>(api, r.body.location);
  t.is(task.state, 'complete', JSON.stringify(task));
  const net = (await api.get<Network[]>('/networks')).body.find((n) => n.fqn === `network::${ns}::net`)!;
  t.deepEqual(net.network_end_points.map((e) => [e.fqn, e.discovery_address]), [[`job::${ns}::a`, 'a'], [`job::${ns}::b`, 'b']]);
  const jobs = await jobsOf();
  t.is(jobs.length, 2);
  t.true(jobs.every((j) => j.network_ref?.uuid === net.uuid));
  // Again with other options: updated in place (rule 1), nothing left (rule 3).
  const again = structuredClone(manifest);
  again.networks[`network::${ns}::net`]!.jobs = [{ fqn: `job::${ns}::a`, discovery_address: 'alpha', broadcast_enable: false }];
  const r2 = await api.post<{ location: string }>('/manifests', again);
  t.is((await taskEnd<{ state: string }>(api, r2.body.location)).state, 'complete');
  const net2 = (await api.get<Network>(`/networks/${net.uuid}`)).body;
  t.deepEqual(net2.network_end_points.map((e) => [e.fqn, e.discovery_address]), [[`job::${ns}::a`, 'alpha'], [`job::${ns}::b`, 'b']]);
});

test.serial('networks: networks and memberships survive kill -9 of the controller', async (t) => {
  const ns = `/net/${unique()}`;
  const n = await network(`network::${ns}::durable`);
  const j = await job(`job::${ns}::d`);
  t.is((await api.post(`/networks/${n.uuid}/join`, { job_fqn: j.fqn, discovery_address: 'd' })).status, 200);
  await controller!.kill9();
  controller = await controller!.restart();
  api = await controller.admin();
  const back = (await api.get<Network>(`/networks/${n.uuid}`)).body;
  t.is(back.subnet_info.Subnet, n.subnet_info.Subnet);
  t.is(back.network_end_points[0]!.discovery_address, 'd');
  t.deepEqual((await api.get<Job>(`/jobs/${j.uuid}`)).body.network_ref, { uuid: n.uuid });
  // The pool remembers what it gave.
  const next = await network(`network::${ns}::next`);
  t.not(next.subnet_info.Subnet, n.subnet_info.Subnet);
});
