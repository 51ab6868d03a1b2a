/**
 * Isolation: an ordinary user's job tries, from inside its instance on a
 * real bwrap agent, what an attacker would try to get out of it (attack.py: the "shocker"
 * open_by_handle_at read of the controller's signing key, the host's /proc, host writes, mounts,
 * capabilities, another instance's files and processes), and every attempt fails. Where the
 * sandbox hides a thing, the test also checks from the host, as the instance's own uid, that
 * the uid alone would keep it out (other instances' roots, their processes).
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Job } from '@platform/controller';
import { bwrapWorks } from '../harness/agent-process.js';
import { tarGz, uploadPackage } from '../harness/apps.js';
import { runningInstances, startCluster, type ApiInstance, type TestCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';

const ATTACK_PY = readFileSync(fileURLToPath(new URL('../../src/security/attack.py', import.meta.url)), 'utf8');
const PYTHON = '/usr/bin/python3';

interface Record_ {
  pid: number;
  identity?: { uid: number; gid: number };
  cgroups: string[];
}

/** The instance's record in the agent's data directory (what a restarted agent reads). */
function recordOf(cluster: TestCluster, uuid: string): Record_ {
  return JSON.parse(readFileSync(join(cluster.agents[0]!.dataDir, 'instances', uuid, 'instance.json'), 'utf8')) as Record_;
}

/** Host pids of processes running as `uid`. */
function pidsOfUid(uid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      if (m && Number(m[1]) === uid) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}

/** The file handle of `path` (name_to_handle_at, on the host as root), checked to open it there. */
function hostHandle(path: string): { handle: string; type: number; opensOnHost: string } {
  const script = [
    'import ctypes, json, os, sys',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'class FH(ctypes.Structure): _fields_ = [("n", ctypes.c_uint), ("t", ctypes.c_int), ("f", ctypes.c_ubyte * 128)]',
    'fh = FH(128, 0); mount_id = ctypes.c_int()',
    'assert libc.name_to_handle_at(-100, sys.argv[1].encode(), ctypes.byref(fh), ctypes.byref(mount_id), 0) == 0',
    'mfd = os.open(os.path.dirname(sys.argv[1]), os.O_RDONLY)',
    'fd = libc.open_by_handle_at(mfd, ctypes.byref(fh), os.O_RDONLY)',
    'print(json.dumps({"handle": bytes(fh.f[:fh.n]).hex(), "type": fh.t, "opensOnHost": os.read(fd, 4096).decode() if fd >= 0 else ""}))',
  ].join('\n');
  const r = spawnSync(PYTHON, ['-c', script, path], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`name_to_handle_at on the host: ${r.stderr}`);
  return JSON.parse(r.stdout) as { handle: string; type: number; opensOnHost: string };
}

/** Runs `argv` on the host as `uid` (no groups, no capabilities). */
function asUid(uid: number, argv: string[]): { status: number | null; stderr: string; stdout: string } {
  return spawnSync('setpriv', ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', '--', ...argv], { encoding: 'utf8' });
}

async function attack<T>(instance: ApiInstance, path: string, query: Record<string, string | number> = {}): Promise<T> {
  const address = Object.values(instance.ports)[0]!;
  const qs = new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])));
  const res = await fetch(`http://${address}${path}?${qs}`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

async function deploy(api: ApiClient, ns: string, name: string, files: Record<string, string>, command: string, ports: boolean): Promise<ApiInstance> {
  const pkg = await uploadPackage(api, ns, tarGz(files));
  const r = await api.post<Job>('/jobs', {
    fqn: `job::${ns}::${name}`,
    num_instances: 1,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: command, start_command_timeout: 60 } },
    ...(ports ? { ports: [{ number: 0, optional: false }] } : {}),
    resources: { memory: 256 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    state: 'started',
  });
  if (r.status !== 200) throw new Error(`job ${name}: ${r.status} ${r.text}`);
  const [instance] = await runningInstances(api, r.body.uuid, 1, 90_000);
  return instance!;
}

const refused = (v: unknown) => typeof v === 'string' && v.startsWith('error:');

test('isolation: an instance cannot escape (shocker, host /proc, host writes, mounts, capabilities, other instances)', async (t: ExecutionContext) => {
  if (process.getuid?.() !== 0) {
    t.log('SKIPPED: the isolation attacks need the agent to run as root (it gives each instance a uid)');
    t.pass();
    return;
  }
  if (!bwrapWorks()) {
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error('bubblewrap (bwrap) is required: apt-get install bubblewrap');
    t.log('SKIPPED: bubblewrap is not installed');
    t.pass();
    return;
  }
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is required (the attacker is a Python program): apt-get install python3`);
  const cluster = await startCluster(t, [{ isolation: 'bwrap' }]);
  const { controller, agents } = cluster;
  const agent = agents[0]!;
  const mallory = await cluster.api.createUser('mallory', 'mallory-password-1');
  const alice = await cluster.api.createUser('alice', 'alice-password-1');

  const secret = `alice-secret-${unique()}`;
  const victim = await deploy(alice, '/sandbox/alice', unique('victim'), { 'app/secret.txt': secret }, 'exec sleep 100000', false);
  const attacker = await deploy(mallory, '/sandbox/mallory', unique('attacker'), { 'app/attack.py': ATTACK_PY }, `exec ${PYTHON} /app/attack.py`, true);

  const victimRec = recordOf(cluster, victim.uuid);
  const attackerRec = recordOf(cluster, attacker.uuid);
  t.truthy(victimRec.identity && attackerRec.identity, 'each instance has an identity in its record');
  const victimUid = victimRec.identity!.uid;
  const attackerUid = attackerRec.identity!.uid;
  t.true(attackerUid >= 2_000_000_000 && victimUid >= 2_000_000_000, 'from the agent\'s default range');
  t.not(attackerUid, victimUid, 'one uid per instance');
  const victimRoot = join(agent.dataDir, 'instances', victim.uuid, 'root');
  const victimPids = pidsOfUid(victimUid);
  t.true(victimPids.length >= 2, 'the victim runs as its uid on the host (bwrap and its command)');
  t.is(pidsOfUid(attackerUid).length >= 2, true);

  // 1. The shocker: open_by_handle_at with a valid handle of the controller's signing key.
  const keyFile = join(controller.dataDir, 'auth', 'token-signing-key.jwk');
  const handle = hostHandle(keyFile);
  t.regex(handle.opensOnHost, /"kty"/, 'the handle is valid: it opens the key on the host, as root');
  const shocker = await attack<Record<string, string>>(attacker, '/shocker', { handle: handle.handle, type: handle.type });
  t.log('shocker:', JSON.stringify(shocker));
  for (const [mountPoint, result] of Object.entries(shocker)) {
    t.true(refused(result), `open_by_handle_at through ${mountPoint}: ${result}`);
    t.false(result.includes('kty'));
  }
  t.is(shocker['/'], 'error:EPERM', 'the seccomp filter refuses open_by_handle_at');

  // 2. What the host shows: its processes, their environments, /sys, the data directories.
  const view = await attack<Record<string, unknown>>(attacker, '/host-view', {
    controller_pid: controller.child.pid!, agent_pid: agent.child.pid!, agent_dir: agent.dataDir, controller_dir: controller.dataDir,
  });
  t.log('host view:', JSON.stringify({ ...view, pid1_environ: '(omitted)' }));
  t.false(String(view['pid1_environ']).includes('PLATFORM_JOIN_TOKEN'), '/proc/1 is the sandbox\'s init, not the host\'s');
  t.false(String(view['pid1_environ']).includes('PLATFORM_ADMIN_PASSWORD'));
  t.regex(String(view['pid1_cmdline']), /^READ:\S*bwrap\0/, 'pid 1 is bwrap\'s init');
  t.true(refused(view['controller_environ']), `controller environ: ${String(view['controller_environ'])}`);
  t.true(refused(view['agent_environ']));
  t.true((view['pids'] as number[]).length <= 4, `only the sandbox's own processes: ${JSON.stringify(view['pids'])}`);
  t.is(view['sys'], 'error:ENOENT', 'no /sys');
  t.true(refused(view['cgroup_limit']), 'its cgroup limits are out of reach');
  t.false(view['agent_dir'], 'the agent\'s data directory is invisible');
  t.false(view['controller_dir'], 'the controller\'s data directory is invisible');
  t.true(refused(view['controller_key']));
  t.true(refused(view['root_home']));
  t.true(refused(view['shadow']), `/etc/shadow: ${String(view['shadow'])}`);

  // 3. Writing to host paths (a world-writable host directory included).
  const hostDir = mkdtempSync(join(tmpdir(), 'isolation-host-'));
  t.teardown(() => rmSync(hostDir, { recursive: true, force: true }));
  chmodSync(hostDir, 0o777);
  const writes = await attack<Record<string, string>>(attacker, '/host-writes', { host_dir: hostDir });
  t.log('writes:', JSON.stringify(writes));
  t.true(refused(writes['usr']) && refused(writes['etc']) && refused(writes['host_dir']), JSON.stringify(writes));
  t.false(existsSync('/usr/attack') || existsSync('/etc/attack') || existsSync(join(hostDir, 'attack')), 'nothing written on the host');
  t.is(writes['own_root'], 'WROTE', 'its own root is writable');
  const mine = statSync(join(agent.dataDir, 'instances', attacker.uuid, 'root', 'app', 'mine.txt'));
  t.is(mine.uid, attackerUid, 'a file it creates belongs to its uid on the host, not to root');

  // 4. Mounting, new namespaces, setns, a setuid mount binary.
  const mounts = await attack<Record<string, string | number>>(attacker, '/mounts');
  t.log('mounts:', JSON.stringify(mounts));
  for (const key of ['mount_tmpfs', 'bind_root', 'remount_usr_rw', 'umount_proc', 'unshare_user_mount', 'unshare_mount', 'setns']) {
    t.is(mounts[key], 'error:EPERM', `${key}: ${mounts[key]}`);
  }
  t.not(mounts['setuid_mount_binary'], 0, 'the setuid mount binary gains nothing');

  // 5. Capabilities: none, and none can be raised.
  const caps = await attack<Record<string, string>>(attacker, '/capabilities');
  t.log('capabilities:', JSON.stringify(caps));
  for (const key of ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb']) t.is(caps[key], '0000000000000000', key);
  t.is(caps['NoNewPrivs'], '1');
  t.is(caps['Seccomp'], '2', 'a seccomp filter is in force');
  t.regex(caps['Uid']!, /^0\s+0\s+0\s+0$/, 'root inside its user namespace (the spec\'s default user)');
  t.true(refused(caps['capset_raise']) && refused(caps['ambient_raise']) && refused(caps['setuid_other']) && refused(caps['chown_usr']));

  // 6. Another instance's files and processes.
  const other = await attack<Record<string, string>>(attacker, '/other-instance', {
    victim_pids: victimPids.join(','), victim_file: join(victimRoot, 'app', 'secret.txt'), victim_root: victimRoot,
  });
  t.log('other instance:', JSON.stringify(other));
  for (const [key, result] of Object.entries(other)) {
    t.true(refused(result), `${key}: ${result}`);
    t.false(result.includes(secret));
  }
  t.deepEqual(victimPids.filter((p) => existsSync(`/proc/${p}`)), victimPids, 'the victim still runs');
  // And were the paths visible, the uid alone would keep the attacker out:
  const cat = asUid(attackerUid, ['cat', join(victimRoot, 'app', 'secret.txt')]);
  t.not(cat.status, 0);
  t.regex(cat.stderr, /Permission denied/);
  const kill = asUid(attackerUid, ['kill', '-0', String(victimPids[0])]);
  t.not(kill.status, 0);
  t.regex(kill.stderr, /not permitted/i);
  t.is((statSync(victimRoot).mode & 0o777), 0o700, 'instance roots are 0700');
  t.is(statSync(victimRoot).uid, victimUid);

  // Cgroup limits still hold: the attacker's processes are in its groups, which root owns.
  if (attackerRec.cgroups.length > 0) {
    const procs = new Set(attackerRec.cgroups.flatMap((d) => readFileSync(join(d, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number)));
    for (const pid of pidsOfUid(attackerUid)) t.true(procs.has(pid), `process ${pid} of the attacker is in its cgroups`);
    const memory = attackerRec.cgroups.map((d) => join(d, 'memory.limit_in_bytes')).find((f) => existsSync(f)) ?? attackerRec.cgroups.map((d) => join(d, 'memory.max')).find((f) => existsSync(f));
    t.is(Number(readFileSync(memory!, 'utf8').trim()), 256 * 1024 * 1024);
    t.is(statSync(memory!).uid, 0, 'the limit files are root\'s');
    const write = asUid(attackerUid, ['sh', '-c', `echo -1 > ${memory}`]);
    t.not(write.status, 0, 'its uid cannot raise its own limit');
  } else {
    t.log('cgroups are not writable here: the limit checks are skipped');
  }
});
