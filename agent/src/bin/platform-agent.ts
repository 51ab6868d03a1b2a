#!/usr/bin/env node
/**
 * platform-agent: the operator's entry point. Flags override environment variables, which
 * override defaults. Signals are handled here and nowhere else: SIGTERM or SIGINT stops the
 * agent gracefully (instances keep running unless --stop-instances-on-exit); a second one exits
 * at once.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Agent, AGENT_VERSION } from '../agent.js';
import { isIsolationDriver } from '../isolation/driver.js';
import { commonFlags, exitOnUncaughtException, FdSink, JsonLogger, parseAllowList, parseHostPort, stopOnSignals, type AllowEntry, type HostPort } from '@platform/proto/common';
import { DEFAULT_INSTANCE_UIDS, parseUidRange, type UidRange } from '../isolation/identity.js';

/** Namespaces of networks of their own kept made ahead by default: none (each instance's is then named for it, pln-<agent>-<instance uuid>). */
const DEFAULT_NETWORK_POOL = 0;

const USAGE = `Usage: platform-agent [options]

Options (environment variable in brackets):
  --controller HOST:PORT[,HOST:PORT...]  the controller's gRPC address (PLATFORM_CONTROLLER, default
                           127.0.0.1:7070); several for controllers sharing etcd: a standby sends
                           the agent on to the active one
  --data-dir DIR           uuid, package cache, instances (PLATFORM_AGENT_DATA_DIR, default .data/agent)
  --tags A,B               scheduling tags of this host (PLATFORM_AGENT_TAGS)
  --datacenter NAME        (PLATFORM_AGENT_DATACENTER)
  --isolation DRIVER       bwrap or process (PLATFORM_AGENT_ISOLATION; default bwrap when it works here)
  --address ADDR           host address at which instance ports are reachable
                           (PLATFORM_AGENT_ADDRESS, default 127.0.0.1)
  --metrics-listen H:P     where /metrics is served (PLATFORM_AGENT_METRICS_LISTEN, default
                           127.0.0.1:0 = a free port, logged)
  --join-token-file FILE   read the join secret from FILE (else PLATFORM_JOIN_TOKEN)
  --no-cgroups             do not set cgroup limits even where the host allows it
  --cache-max-bytes N      bound of the package archive cache (PLATFORM_AGENT_CACHE_MAX_BYTES,
                           default 4294967296 = 4 GiB); least recently used archives are evicted
  --disk-check-ms N        how often each instance's disk use is measured against its disk
                           resource (PLATFORM_AGENT_DISK_CHECK_MS, default 2000)
  --usage-interval-ms N    how often instances and the host are measured for usage reports and
                           /metrics (PLATFORM_AGENT_USAGE_INTERVAL_MS, default 10000)
  --usage-buffer N         usage samples kept while the controller cannot be reached; older ones
                           are dropped and counted (PLATFORM_AGENT_USAGE_BUFFER, default 360)
  --instance-uids F-L      host uids given to instances, one each, when the agent runs as root
                           (PLATFORM_AGENT_INSTANCE_UIDS, default ${DEFAULT_INSTANCE_UIDS}); no other
                           user or program on the host may use them
  --allow-root-instances   process driver only: run instances as root when the agent is root
                           (PLATFORM_AGENT_ALLOW_ROOT_INSTANCES=1); for trusted hosts: the process
                           driver has no namespaces and no seccomp, a root instance owns the host
  --stop-instances-on-exit stop every instance when the agent stops (default: they keep running
                           and a restarted agent re-attaches)
  --allowed-destinations LIST  host names, addresses and CIDR blocks, each with an optional
                           :PORT (IPv6 in brackets), that log drains may reach although they are
                           loopback, link-local, unspecified, this agent's or the controller's
                           (PLATFORM_ALLOWED_DESTINATIONS; comma-separated; default none)
  --refuse-private-destinations  refuse private addresses (10/8, 172.16/12, 192.168/16,
                           100.64/10, fc00::/7) to drains too, unless listed
                           (PLATFORM_REFUSE_PRIVATE_DESTINATIONS=true)
  --instance-networks[=on|off]
                           bwrap instances not on a virtual network get a network namespace of
                           their own on the agent's bridge, an address from the agent's subnet
                           (given by the controller), their ports forwarded, outbound traffic
                           refused but for what the platform gives them and the job's bindings
                           to the outbound network service. On by default where the host allows
                           it (root, iproute2, nftables, nsenter; tc for netmax); =off (or
                           PLATFORM_AGENT_INSTANCE_NETWORKS=off) leaves instances on the host's
                           network, where they reach whatever the host reaches
  --network-pool N         namespaces of those networks kept made ahead (eth0 on the agent's
                           bridge with an address, lo, the default route), handed to starting
                           instances and made again while none is starting
                           (PLATFORM_AGENT_NETWORK_POOL, default ${DEFAULT_NETWORK_POOL}; 0: none)
  --resolver HOST:PORT     the DNS server for those instances' resolver and the domain names of
                           outbound bindings (PLATFORM_AGENT_RESOLVER, default: /etc/resolv.conf's);
                           names are resolved again every PLATFORM_AGENT_EGRESS_RESOLVE_MS (30000)
  --instance-bandwidth N   bits per second the instances on networks of their own share here (a
                           little under the uplink's speed; PLATFORM_AGENT_INSTANCE_BANDWIDTH):
                           their \`network\` floors divide it (tc HTB on the agent's bridge), each
                           guaranteed its floor, capped at its netmax. Without it floors are not
                           enforced (system tag network-floor:none)
  --log-level LEVEL        debug, info, warn, error or silent (PLATFORM_LOG_LEVEL, default info)
  --version                print the version
  --help                   print this help
`;

function fail(message: string): never {
  process.stderr.write(`platform-agent: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** host:port with a port 0..65535; ":P" means 0.0.0.0. A bad one is a usage error. */
function hostPort(value: string, flag: string): HostPort {
  try {
    return parseHostPort(value, flag);
  } catch (err) {
    fail((err as Error).message);
  }
}

/** on/off of --instance-networks (undefined: not said, the default: on where the host allows it). */
function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined || value === '' || value === 'auto') return undefined;
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  fail(`${flag}: "${value}" is not on or off`);
}

async function main(): Promise<void> {
  // --instance-networks alone (the opt-in of older releases) or with =on/=off: parseArgs takes a
  // boolean flag without a value only.
  const argv = process.argv.slice(2);
  let instanceNetworksText: string | undefined;
  const rest = argv.filter((a) => {
    const m = /^--instance-networks(?:=(.*))?$/.exec(a);
    if (!m) return true;
    instanceNetworksText = m[1] ?? 'on';
    return false;
  });
  let args;
  try {
    args = parseArgs({
      args: rest,
      options: {
        controller: { type: 'string' },
        'data-dir': { type: 'string' },
        tags: { type: 'string' },
        datacenter: { type: 'string' },
        isolation: { type: 'string' },
        address: { type: 'string' },
        'metrics-listen': { type: 'string' },
        'join-token-file': { type: 'string' },
        'no-cgroups': { type: 'boolean' },
        'cache-max-bytes': { type: 'string' },
        'disk-check-ms': { type: 'string' },
        'usage-interval-ms': { type: 'string' },
        'usage-buffer': { type: 'string' },
        'instance-uids': { type: 'string' },
        'allow-root-instances': { type: 'boolean' },
        'stop-instances-on-exit': { type: 'boolean' },
        'allowed-destinations': { type: 'string' },
        'refuse-private-destinations': { type: 'boolean' },
        resolver: { type: 'string' },
        'instance-bandwidth': { type: 'string' },
        'network-pool': { type: 'string' },
        'log-level': { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    fail((err as Error).message);
  }
  const logLevel = commonFlags(args, { usage: USAGE, version: AGENT_VERSION, fail });
  if (logLevel === undefined) return;
  const env = process.env;
  const instanceNetworks = onOff(instanceNetworksText ?? env['PLATFORM_AGENT_INSTANCE_NETWORKS'], instanceNetworksText !== undefined ? '--instance-networks' : 'PLATFORM_AGENT_INSTANCE_NETWORKS');
  const controller = args.controller ?? env['PLATFORM_CONTROLLER'] ?? '127.0.0.1:7070';
  // Several: the controllers of a cluster on etcd, dialed one at a time (a standby sends the agent on to the active one).
  for (const address of controller.split(',')) hostPort(address.trim(), '--controller');
  const metricsListen = hostPort(args['metrics-listen'] ?? env['PLATFORM_AGENT_METRICS_LISTEN'] ?? '127.0.0.1:0', '--metrics-listen');
  const isolation = args.isolation ?? env['PLATFORM_AGENT_ISOLATION'];
  if (isolation !== undefined && !isIsolationDriver(isolation)) fail(`--isolation: "${isolation}" is not bwrap or process`);
  let instanceUids: UidRange;
  try {
    instanceUids = parseUidRange(args['instance-uids'] ?? env['PLATFORM_AGENT_INSTANCE_UIDS'] ?? DEFAULT_INSTANCE_UIDS);
  } catch (err) {
    fail(`--instance-uids: ${(err as Error).message}`);
  }
  const allowRootInstances = !!args['allow-root-instances'] || env['PLATFORM_AGENT_ALLOW_ROOT_INSTANCES'] === '1';
  let joinToken = env['PLATFORM_JOIN_TOKEN'] ?? '';
  if (args['join-token-file']) {
    try {
      joinToken = readFileSync(args['join-token-file'], 'utf8').trim();
    } catch (err) {
      fail(`--join-token-file: ${(err as Error).message}`);
    }
  }
  if (!joinToken) fail('the join secret is missing: set PLATFORM_JOIN_TOKEN or --join-token-file');
  const positive = (value: string | undefined, flag: string): number | undefined => {
    if (value === undefined || value === '') return undefined;
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n <= 0) fail(`${flag}: "${value}" is not a positive whole number`);
    return n;
  };
  const cacheMaxBytes = positive(args['cache-max-bytes'] ?? env['PLATFORM_AGENT_CACHE_MAX_BYTES'], '--cache-max-bytes');
  const diskCheckMs = positive(args['disk-check-ms'] ?? env['PLATFORM_AGENT_DISK_CHECK_MS'], '--disk-check-ms');
  const usageIntervalMs = positive(args['usage-interval-ms'] ?? env['PLATFORM_AGENT_USAGE_INTERVAL_MS'], '--usage-interval-ms');
  const instanceBandwidth = positive(args['instance-bandwidth'] ?? env['PLATFORM_AGENT_INSTANCE_BANDWIDTH'], '--instance-bandwidth');
  const usageBuffer = positive(args['usage-buffer'] ?? env['PLATFORM_AGENT_USAGE_BUFFER'], '--usage-buffer');
  let allowedDestinations: AllowEntry[];
  try {
    allowedDestinations = parseAllowList(args['allowed-destinations'] ?? env['PLATFORM_ALLOWED_DESTINATIONS'] ?? '');
  } catch (err) {
    fail(`--allowed-destinations (PLATFORM_ALLOWED_DESTINATIONS): ${(err as Error).message}`);
  }
  const refusePrivateText = env['PLATFORM_REFUSE_PRIVATE_DESTINATIONS'] ?? '';
  if (!['', 'true', 'false'].includes(refusePrivateText)) fail(`PLATFORM_REFUSE_PRIVATE_DESTINATIONS="${refusePrivateText}" is not true or false`);
  const resolverText = args.resolver ?? env['PLATFORM_AGENT_RESOLVER'];
  const resolver = resolverText ? hostPort(resolverText, '--resolver') : undefined;
  const egressResolveMs = positive(env['PLATFORM_AGENT_EGRESS_RESOLVE_MS'], 'PLATFORM_AGENT_EGRESS_RESOLVE_MS');
  const poolText = args['network-pool'] ?? env['PLATFORM_AGENT_NETWORK_POOL'] ?? String(DEFAULT_NETWORK_POOL);
  if (!/^\d{1,4}$/.test(poolText)) fail(`--network-pool (PLATFORM_AGENT_NETWORK_POOL): "${poolText}" is not a whole number from 0 to 9999`);
  const networkPool = Number(poolText);
  const tags = (args.tags ?? env['PLATFORM_AGENT_TAGS'] ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const log = new JsonLogger(new FdSink(1), logLevel, { component: 'agent', pid: process.pid });

  let agent: Agent;
  try {
    agent = await Agent.start({
      controller,
      dataDir: args['data-dir'] ?? env['PLATFORM_AGENT_DATA_DIR'] ?? '.data/agent',
      joinToken,
      tags,
      datacenter: args.datacenter ?? env['PLATFORM_AGENT_DATACENTER'] ?? '',
      ...(isolation ? { isolation } : {}),
      address: args.address ?? env['PLATFORM_AGENT_ADDRESS'] ?? '127.0.0.1',
      metricsListen,
      cgroups: !args['no-cgroups'],
      instanceUids,
      allowRootInstances,
      stopInstancesOnExit: !!args['stop-instances-on-exit'],
      instanceNetworks,
      networkPool,
      ...(resolver ? { resolver: `${resolver.host}:${resolver.port}` } : {}),
      ...(egressResolveMs !== undefined ? { egressResolveMs } : {}),
      ...(cacheMaxBytes !== undefined ? { cacheMaxBytes } : {}),
      ...(diskCheckMs !== undefined ? { diskCheckMs } : {}),
      ...(usageIntervalMs !== undefined ? { usageIntervalMs } : {}),
      ...(usageBuffer !== undefined ? { usageBuffer } : {}),
      ...(instanceBandwidth !== undefined ? { instanceBandwidth } : {}),
      defaultMetrics: true,
      allowedDestinations,
      refusePrivateDestinations: !!args['refuse-private-destinations'] || refusePrivateText === 'true',
      log,
    });
  } catch (err) {
    log.error('agent failed to start', { err });
    log.flush();
    process.exitCode = 1;
    return;
  }

  stopOnSignals({ log, stop: () => agent.stop() });
}

exitOnUncaughtException('platform-agent');

await main();
