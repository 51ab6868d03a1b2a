/**
 * Log drains against a real rsyslogd on loopback TCP and UDP ports: a real app's log
 * lines reach it as RFC 5424 messages (APP-NAME the job, PROCID the instance), over TCP with
 * octet-counting framing and over UDP; rsyslogd stopping and starting again loses nothing of the
 * job's own log and the drain reconnects; bad drains are refused with 400 and change nothing;
 * drain.add / drain.delete are audited; a user who may not update the job cannot add one. The
 * lines are sent by the agent holding the instance (its /metrics counts them), not the controller.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { commandJob, tarGz, uploadPackage } from '../harness/apps.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { freePort } from '../harness/net.js';
import { Rsyslog, rsyslogAvailable } from '../harness/rsyslog.js';
import { eventually } from '../harness/wait.js';

interface Drain {
  uuid: string;
  url: string;
  conf: { priority: number; protocol: string };
  max_size: number;
}

/** Says `tick <n>` every 200 ms, and one long line first. */
const TICKER = `
console.log('long ' + 'x'.repeat(5000));
let n = 0;
setInterval(() => console.log('tick ' + n++), 200);
`;

test("drains: a job's log lines reach a real rsyslogd over TCP and UDP; it restarting loses nothing of the job log; bad drains are refused", async (t) => {
  if (!rsyslogAvailable(t)) return t.pass();
  const syslog = await Rsyslog.start();
  t.teardown(() => syslog.dispose());
  const agentMetrics = `http://127.0.0.1:${await freePort()}/metrics`;
  // rsyslogd on loopback: listed for the controller and the agent that sends.
  const collector = [`127.0.0.1:${syslog.tcpPort}`, `127.0.0.1:${syslog.udpPort}`];
  const cluster = await startCluster(t, [{ args: ['--metrics-listen', new URL(agentMetrics).host] }], { allowedDestinations: collector });
  const { api } = cluster;
  const ns = `/drains/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/tick.js': TICKER }));
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::ticker`, pkg.uuid, 'node /app/tick.js'))).body;

  // Bad drains: 400, nothing changed.
  for (const url of ['http://127.0.0.1:514', 'syslog://127.0.0.1', 'syslog://127.0.0.1:0', 'syslog://127.0.0.1:70000', 'syslog://user@host:514', 'syslog://host:514/path', 'syslog://bad_host!:514']) {
    const r = await api.post<{ message: string }>(`/jobs/${job.uuid}/logs/drains`, { url });
    t.is(r.status, 400, `${url}: ${r.text}`);
  }
  t.is((await api.post(`/jobs/${job.uuid}/logs/drains`, { url: `syslog://127.0.0.1:${syslog.tcpPort}`, max_size: 10 })).status, 400, 'max_size below 64');
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.version_id, job.version_id, 'refusals change nothing');

  const tcp = await api.post<Drain>(`/jobs/${job.uuid}/logs/drains`, { url: `syslog://127.0.0.1:${syslog.tcpPort}`, conf: { priority: 13 }, max_size: 300 });
  t.is(tcp.status, 200, tcp.text);
  t.like(tcp.body, { url: `syslog://127.0.0.1:${syslog.tcpPort}`, conf: { priority: 13, protocol: 'tcp' }, max_size: 300 });
  const udp = await api.post<Drain>(`/jobs/${job.uuid}/logs/drains`, { url: `syslog://127.0.0.1:${syslog.udpPort}`, conf: { protocol: 'udp' } });
  t.is(udp.status, 200, udp.text);
  t.is((await api.post(`/jobs/${job.uuid}/logs/drains`, { url: `syslog://127.0.0.1:${syslog.udpPort}` })).status, 409, 'the same url twice');
  const listed = await api.get<Drain[]>(`/jobs/${job.uuid}/logs/drains`);
  t.deepEqual(listed.body.map((d) => d.uuid).sort(), [tcp.body.uuid, udp.body.uuid].sort());
  t.deepEqual((await api.get<Job>(`/jobs/${job.uuid}`)).body.drains, listed.body, "the job's drains field");

  t.is((await api.patch(`/jobs/${job.uuid}`, { state: 'started' })).status, 200);
  const [instance] = await runningInstances(api, job.uuid, 1);
  const mine = (lines: string[], input = '') => lines.filter((l) => l.startsWith(`${input}`) && l.includes(` ${job.uuid} ${instance!.uuid} stdout `));
  const received = await eventually(async () => {
    const lines = mine(await syslog.lines());
    return lines.filter((l) => / tick \d+$/.test(l)).length >= 10 ? lines : undefined;
  }, { timeoutMs: 60_000, what: 'ticks in rsyslog' });
  t.true(received.some((l) => l.includes(`[platform@32473 job="${job.fqn}"]`)), received[0]);
  // The long line: whole over UDP? cut to max_size over TCP (300 bytes for the whole message).
  const long = received.filter((l) => / long x+$/.test(l)).map((l) => l.length);
  t.true(long.length >= 1, 'the long line arrived');
  t.true(long.some((n) => n < 400), `cut to max_size on the TCP drain: ${long.join(', ')}`);
  // Over both: each tick twice (TCP and UDP).
  const ticks = (lines: string[]) => lines.map((l) => / tick (\d+)$/.exec(l)?.[1]).filter((x): x is string => x !== undefined);
  t.true(ticks(mine(received, 'imtcp ')).length > 0, 'ticks over TCP');
  t.true(ticks(mine(received, 'imudp ')).length > 0, 'ticks over UDP');

  // rsyslogd stops: the job's own log goes on; it starts again: the TCP drain reconnects and delivers new lines.
  await syslog.stop();
  const before = (await syslog.lines()).length;
  const logText = async () => (await api.get(`/jobs/${job.uuid}/logs?lines=10000`, { headers: { accept: 'text/plain' } })).text;
  const lastTick = async () => Math.max(...ticks((await logText()).split('\n').map((l) => l.replace(/^\[\w+\] /, `${job.uuid} ${instance!.uuid} stdout `))).map(Number));
  const whileDown = await lastTick();
  await eventually(async () => (await lastTick()) >= whileDown + 10, { timeoutMs: 30_000, what: 'the job log going on while the drain is down' });
  await syslog.restart();
  // The TCP drain kept what the job said while rsyslogd was down, and sends it once reconnected.
  const overTcp = await eventually(async () => {
    const n = ticks(mine((await syslog.lines()).slice(before), 'imtcp ')).map(Number);
    return n.length > 0 && Math.max(...n) > whileDown + 10 ? new Set(n) : undefined;
  }, { timeoutMs: 60_000, what: 'ticks over TCP after rsyslogd came back' });
  const missing = Array.from({ length: 8 }, (_, i) => whileDown + 2 + i).filter((n) => !overTcp.has(n));
  t.deepEqual(missing, [], 'the lines said while the drain was down arrive once it is back');

  // Metrics per drain, on the agent that sent the lines; the controller sends none.
  const prom = await (await fetch(agentMetrics)).text();
  t.regex(prom, new RegExp(`platform_agent_log_drain_messages_sent_total\\{drain="${tcp.body.uuid}"\\} [1-9]`));
  t.regex(prom, new RegExp(`platform_agent_log_drain_messages_sent_total\\{drain="${udp.body.uuid}"\\} [1-9]`));
  t.regex(prom, new RegExp(`platform_agent_log_drain_connected\\{drain="${tcp.body.uuid}"\\} 1`));
  t.notRegex(await (await fetch(`${cluster.controller.url}/metrics`)).text(), /log_drain_messages_sent_total\{/, 'the controller sends no drain');

  // Delete: the updated job; audited both ways.
  const del = await api.delete<Job>(`/jobs/${job.uuid}/logs/drains/${udp.body.uuid}`);
  t.is(del.status, 200, del.text);
  t.deepEqual(del.body.drains.map((d) => d.uuid), [tcp.body.uuid]);
  t.is((await api.delete(`/jobs/${job.uuid}/logs/drains/${udp.body.uuid}`)).status, 404);
  const audit = async (type: string) => (await api.get<{ event_type: string }[]>(`/audit?event_type=${type}&fqn=${encodeURIComponent(job.fqn)}`)).body;
  t.is((await audit('drain.add')).length, 2);
  t.is((await audit('drain.delete')).length, 1);

  // A drain added while the instance runs: the agent is told, and the instance is not replaced.
  const again = await api.post<Drain>(`/jobs/${job.uuid}/logs/drains`, { url: `syslog://127.0.0.1:${syslog.udpPort}`, conf: { protocol: 'udp' } });
  t.is(again.status, 200, again.text);
  await eventually(async () => new RegExp(`platform_agent_log_drain_messages_sent_total\\{drain="${again.body.uuid}"\\} [1-9]`).test(await (await fetch(agentMetrics)).text()), {
    timeoutMs: 30_000, what: 'the agent sending to a drain added while the instance runs',
  });
  t.deepEqual((await runningInstances(api, job.uuid, 1)).map((i) => i.uuid), [instance!.uuid], 'the same instance');

  // Policy: a user who may not update the job cannot list or add drains.
  const eve = await api.createUser(unique('eve'), 'a long enough password');
  t.is((await eve.get(`/jobs/${job.uuid}/logs/drains`)).status, 404);
  t.is((await eve.post(`/jobs/${job.uuid}/logs/drains`, { url: `syslog://127.0.0.1:${syslog.udpPort}` })).status, 404);
});
