#!/usr/bin/env node
/**
 * platform-controller: the operator's entry point. Flags override environment
 * variables, which override defaults. Signals are handled here and nowhere else:
 * SIGTERM or SIGINT stops gracefully; a second one exits at once.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { resolveLdapOptions, type LdapOptions } from '../auth/ldap.js';
import { parseIdpFile, parseIdpFlag, type IdpOptions } from '../auth/idp.js';
import { CONTROLLER_VERSION } from '../cluster/version.js';
import { Controller, type ControllerOptions } from '../controller.js';
import type { ControllerNode } from '../node.js';
import type { EtcdStoreOptions } from '../store/etcd-store.js';
import { parseStoreUrl } from '../store/store-url.js';
import { httpLimitsFromEnv, type HttpLimits } from '../util/http-limits.js';
import { commonFlags, exitOnUncaughtException, cidrsOverlap, FdSink, Ipv4Error, JsonLogger, parseAllowList, parseCidr, parseHostPort, stopOnSignals, type AllowEntry } from '@platform/proto/common';
import { DEFAULT_SUBNET_POOL, DEFAULT_SUBNET_PREFIX } from '../networks/network-catalog.js';
import { DEFAULT_INSTANCE_SUBNET_POOL, DEFAULT_INSTANCE_SUBNET_PREFIX } from '../agents/agent-directory.js';
import { parseDurationSeconds } from '../policy/parser.js';
import { parseRetention, type Resolution } from '../metrics/series.js';

const USAGE = `Usage: platform-controller [options]

Options (environment variable in brackets):
  --data-dir DIR          state and package archives (PLATFORM_DATA_DIR, default .data/controller)
  --store URL             where the cluster's records live (PLATFORM_STORE): rocksdb (the default,
                          in the data directory) or etcd://HOST:PORT[,HOST:PORT...] (etcds:// for
                          TLS); metric series and log lines stay in the data directory either way.
                          With etcd: PLATFORM_ETCD_USER and PLATFORM_ETCD_PASSWORD (or
                          PLATFORM_ETCD_PASSWORD_FILE), PLATFORM_ETCD_CA, PLATFORM_ETCD_CERT and
                          PLATFORM_ETCD_KEY (files), PLATFORM_ETCD_PREFIX (default /platform/),
                          PLATFORM_ETCD_MAX_TXN_OPS and PLATFORM_ETCD_MAX_REQUEST_BYTES (etcd's own
                          bounds when not its defaults), PLATFORM_ETCD_LEASE_TTL (seconds, default 5:
                          how long a dead active controller holds the lead)
  PLATFORM_BLOB_DIR       package archives and image layers (default DATA_DIR/blobs); controllers
                          sharing etcd share it too (a mount all of them reach)
  --listen HOST:PORT      REST API and auth hosts (PLATFORM_LISTEN, default 127.0.0.1:8080)
  --grpc-listen HOST:PORT where agents connect (PLATFORM_GRPC_LISTEN, default 127.0.0.1:7070)
  --domain DOMAIN         cluster domain for api.DOMAIN and *auth.DOMAIN, and of default
                          routes NAME-XXXXXX.DOMAIN (PLATFORM_DOMAIN; routes: localhost when unset)
  --router-listen HOST:PORT  the embedded router's HTTP listener (PLATFORM_ROUTER_LISTEN,
                          default 127.0.0.1:8000; none runs no router in this process)
  --router-tcp-ports FROM-TO  the ports tcp://auto routes take (PLATFORM_ROUTER_TCP_PORTS,
                          default 30000-30999)
  --router-advertise-address IP  the address clients reach the routers at, named in the
                          endpoints tcp://auto makes (PLATFORM_ROUTER_ADVERTISE_ADDRESS; default
                          the --router-listen address, 127.0.0.1 when that is 0.0.0.0 or none)
  --router-tls-cert FILE  a PEM certificate chain for the router's HTTPS listener; repeat with
                          --router-tls-key for several (chosen by SNI host name)
                          (PLATFORM_ROUTER_TLS_CERT, PLATFORM_ROUTER_TLS_KEY: comma-separated)
  --router-tls-key FILE   the PEM private key of the certificate in the same position
  --router-tls-listen HOST:PORT  the router's HTTPS listener, with certificates
                          (PLATFORM_ROUTER_TLS_LISTEN, default 127.0.0.1:8443)
  --network-subnet-pool CIDR  the IPv4 block virtual networks get their subnets from
                          (PLATFORM_NETWORK_SUBNET_POOL, default 10.224.0.0/12)
  --network-subnet-size N the prefix length of each network's subnet from the pool
                          (PLATFORM_NETWORK_SUBNET_SIZE, default 24: 253 instances a network)
  --agent-subnet-pool CIDR  the IPv4 block agents get their instance subnets from, a /24
                          each, kept per agent (PLATFORM_AGENT_SUBNET_POOL, default
                          10.192.0.0/12); must not overlap the network subnet pool
  --log-level LEVEL       debug, info, warn, error or silent (PLATFORM_LOG_LEVEL, default info)
  --no-sync               acknowledge writes once in the write-ahead log, without fsync
                          (PLATFORM_SYNC=false); survives a crash of the process, not of the host
  --metrics-retention R   resolutions and retention of instance usage series, finest first:
                          <bucket>:<kept>,... (PLATFORM_METRICS_RETENTION, default
                          10s:24h,1m:7d,1h:365d; the finest bucket is 10s)
  --audit-retention D     delete audit items older than D: "90d", "12h", "30m", "3600s";
                          0 keeps them for ever (PLATFORM_AUDIT_RETENTION, default 90d)
  --ldap-url URL          LDAP directory for ldapauth.DOMAIN, ldap:// or ldaps:// (PLATFORM_LDAP_URL);
                          see docs/operators.md for the PLATFORM_LDAP_* settings
  --allowed-registries LIST  host names, addresses and CIDR blocks, each with an optional :PORT
                          (IPv6 in brackets), that image pulls may reach although they are
                          loopback, link-local, unspecified or this controller's own
                          (PLATFORM_ALLOWED_REGISTRIES; comma-separated; default none)
  --allowed-destinations LIST  the same for log drains, autoscaling http_metric urls,
                          service providers' urls and identity providers (--idp); etcd's
                          members are refused like this controller's ports
                          (PLATFORM_ALLOWED_DESTINATIONS; agents take it too, for their drains)
  --refuse-private-destinations  refuse private addresses (10/8, 172.16/12, 192.168/16,
                          100.64/10, fc00::/7) to pulls, drains, http_metric urls and providers, unless
                          listed (PLATFORM_REFUSE_PRIVATE_DESTINATIONS=true)
  --idp SPEC              an OpenID Connect provider users log in with (device flow), repeatable:
                          name=NAME,issuer=URL,client-id=ID,client-secret-file=FILE[,scopes=S S]
                          [,display-name=TEXT][,timeout-ms=N]
  --idp-file FILE         more providers, a JSON array (PLATFORM_IDP_FILE); see docs/operators.md
  --version               print the version
  --help                  print this help

First start: the administrator "admin" gets PLATFORM_ADMIN_PASSWORD, or a generated
password that is printed once and kept in DATA_DIR/admin-password.
Also read from the environment: PLATFORM_ADMIN_EMAIL, PLATFORM_CLUSTER_NAME,
PLATFORM_ACTOR_IDLE_MS, PLATFORM_MAX_PACKAGE_BYTES, PLATFORM_BUILD_ID,
PLATFORM_JOIN_TOKEN (the secret agents present; default: made on first start and
kept in DATA_DIR/join-token), PLATFORM_HEARTBEAT_INTERVAL_MS (default 2000),
PLATFORM_AGENT_LOST_AFTER_MS (default 10000), PLATFORM_STORE_INLINE_COMMIT_MS (with fsync, the
store commits on the main thread while a commit averages at most this many ms, on its writer
thread when the disk is slower; default 5, 0: always the writer thread),
PLATFORM_IMAGE_ARCHIVE_COMPRESSION (how packages made from container images are
compressed: huffman, the default, or stored),
PLATFORM_IMAGE_LAYER_CACHE_BYTES (image layers kept for later pulls; default 10 GiB).
LDAP, with --ldap-url: PLATFORM_LDAP_BIND_DN_TEMPLATE (direct bind, "uid={user},ou=people,...")
or PLATFORM_LDAP_SEARCH_BASE with PLATFORM_LDAP_SEARCH_FILTER (default "(uid={user})"),
PLATFORM_LDAP_BIND_DN and PLATFORM_LDAP_BIND_PASSWORD or PLATFORM_LDAP_BIND_PASSWORD_FILE
(search then bind), PLATFORM_LDAP_START_TLS=true, PLATFORM_LDAP_CA_FILE, PLATFORM_LDAP_TIMEOUT_MS.
Staging: PLATFORM_STAGER_TIMEOUT_MS (default 600000), PLATFORM_STAGER_BASE_URL (base of
STAGER_URL as stagers reach the API), PLATFORM_STAGER_LAUNCHER=agents (default), none
(packages wait in staging) or local (stagers as child processes of this host, for
development), PLATFORM_BUILTINS=false (no built-in packages).
App tokens: PLATFORM_APP_TOKEN_TTL_SECONDS, how long the token of a job with app_token
lives, 10 to 86400 (default 900; renewed at half of it).
Secrets: PLATFORM_SECRETS_KEY_FILE, a file holding the 32-byte key secrets are encrypted
with at rest, as base64 or hex (default: made on first start, kept in DATA_DIR/secrets.key).
Command-line client downloads (GET /cli/download/{platform}): PLATFORM_CLI_DOWNLOADS, the
directory of the built archives (default: cli/downloads of this repository).
Requests: PLATFORM_HTTP_HEADERS_TIMEOUT_MS (the request line and headers, default 20000),
PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS (a body still arriving gets no byte for this long: 408, default
30000; 0: unbounded), PLATFORM_HTTP_REQUEST_TIMEOUT_MS (the whole request, default 3600000; 0:
unbounded), PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS (an idle keep-alive connection, default 65000);
on the API and the embedded router.
Services: PLATFORM_GATEWAY_TIMEOUT_MS (bound of one call to a service gateway, default 30000),
PLATFORM_GATEWAY_LATE_ANSWER_MS (how much longer a create that timed out is waited for, so
that what the gateway made is deleted again, default 600000; 0: not waited for).
Memory: the launcher (controller/bin/platform-controller.js, npx platform-controller) runs
Node with --initial-old-space-size=128 --heap-growing-percent=50 and MALLOC_ARENA_MAX=2;
give them when running this file with node directly (docs/operators.md).
`;

function fail(message: string): never {
  process.stderr.write(`platform-controller: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function envInt(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v)) fail(`${name}="${v}" is not a whole number`);
  return Number(v);
}

/** LDAP settings from the environment, checked now so that a mistake stops the start with a clear message. */
function ldapOptions(url: string): LdapOptions | undefined {
  const env = process.env;
  const setting = (name: string) => env[`PLATFORM_LDAP_${name}`] || undefined;
  if (url === '') {
    const stray = Object.keys(env).filter((k) => k.startsWith('PLATFORM_LDAP_') && env[k]);
    if (stray.length > 0) fail(`${stray.join(', ')} set without --ldap-url (PLATFORM_LDAP_URL)`);
    return undefined;
  }
  let bindPassword = setting('BIND_PASSWORD');
  const passwordFile = setting('BIND_PASSWORD_FILE');
  if (passwordFile !== undefined) {
    if (bindPassword !== undefined) fail('set PLATFORM_LDAP_BIND_PASSWORD or PLATFORM_LDAP_BIND_PASSWORD_FILE, not both');
    try {
      bindPassword = readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      fail(`cannot read PLATFORM_LDAP_BIND_PASSWORD_FILE ${passwordFile}: ${(err as Error).message}`);
    }
  }
  const startTls = setting('START_TLS');
  if (startTls !== undefined && startTls !== 'true' && startTls !== 'false') fail(`PLATFORM_LDAP_START_TLS="${startTls}" is not true or false`);
  const timeoutMs = envInt('PLATFORM_LDAP_TIMEOUT_MS');
  const caFile = setting('CA_FILE');
  if (caFile !== undefined) {
    try {
      readFileSync(caFile);
    } catch (err) {
      fail(`cannot read PLATFORM_LDAP_CA_FILE ${caFile}: ${(err as Error).message}`);
    }
  }
  const options: LdapOptions = {
    url,
    bindDnTemplate: setting('BIND_DN_TEMPLATE'),
    searchBase: setting('SEARCH_BASE'),
    searchFilter: setting('SEARCH_FILTER'),
    bindDn: setting('BIND_DN'),
    bindPassword: bindPassword || undefined,
    startTls: startTls === 'true',
    caFile,
    timeoutMs,
  };
  try {
    resolveLdapOptions(options);
  } catch (err) {
    fail((err as Error).message);
  }
  return options;
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        'data-dir': { type: 'string' },
        store: { type: 'string' },
        listen: { type: 'string' },
        'grpc-listen': { type: 'string' },
        'router-listen': { type: 'string' },
        'router-tls-listen': { type: 'string' },
        'router-tcp-ports': { type: 'string' },
        'router-advertise-address': { type: 'string' },
        'router-tls-cert': { type: 'string', multiple: true },
        'router-tls-key': { type: 'string', multiple: true },
        domain: { type: 'string' },
        'log-level': { type: 'string' },
        'no-sync': { type: 'boolean' },
        'ldap-url': { type: 'string' },
        'allowed-registries': { type: 'string' },
        'allowed-destinations': { type: 'string' },
        'refuse-private-destinations': { type: 'boolean' },
        idp: { type: 'string', multiple: true },
        'idp-file': { type: 'string' },
        'audit-retention': { type: 'string' },
        'metrics-retention': { type: 'string' },
        'network-subnet-pool': { type: 'string' },
        'agent-subnet-pool': { type: 'string' },
        'network-subnet-size': { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    fail((err as Error).message);
  }
  const logLevel = commonFlags(args, { usage: USAGE, version: CONTROLLER_VERSION, fail });
  if (logLevel === undefined) return;
  const env = process.env;
  let listen, grpcListen, routerListen;
  const tcpRange = args['router-tcp-ports'] ?? env['PLATFORM_ROUTER_TCP_PORTS'] ?? '30000-30999';
  const range = /^(\d{1,5})-(\d{1,5})$/.exec(tcpRange);
  if (!range || Number(range[1]) < 1 || Number(range[2]) > 65535 || Number(range[1]) > Number(range[2])) {
    fail(`--router-tcp-ports "${tcpRange}" is not FROM-TO with 1 <= FROM <= TO <= 65535`);
  }
  const routerTcpPorts = { from: Number(range[1]), to: Number(range[2]) };
  const advertise = (args['router-advertise-address'] ?? env['PLATFORM_ROUTER_ADVERTISE_ADDRESS'] ?? '').replace(/^\[(.*)\]$/, '$1');
  if (advertise !== '' && (isIP(advertise) === 0 || ['0.0.0.0', '::'].includes(advertise))) {
    fail(`--router-advertise-address "${advertise}" is not an IP address that clients can reach (tcp:// endpoints name an IP)`);
  }
  let routerTls: { listen: { host: string; port: number }; certificates: { cert: string; key: string }[] } | undefined;
  try {
    listen = parseHostPort(args.listen ?? env['PLATFORM_LISTEN'] ?? '127.0.0.1:8080', '--listen');
    grpcListen = parseHostPort(args['grpc-listen'] ?? env['PLATFORM_GRPC_LISTEN'] ?? '127.0.0.1:7070', '--grpc-listen');
    const router = args['router-listen'] ?? env['PLATFORM_ROUTER_LISTEN'] ?? '127.0.0.1:8000';
    routerListen = router === 'none' ? ('none' as const) : parseHostPort(router, '--router-listen');
    const certs = args['router-tls-cert'] ?? (env['PLATFORM_ROUTER_TLS_CERT'] ? env['PLATFORM_ROUTER_TLS_CERT'].split(',') : []);
    const tlsKeys = args['router-tls-key'] ?? (env['PLATFORM_ROUTER_TLS_KEY'] ? env['PLATFORM_ROUTER_TLS_KEY'].split(',') : []);
    const tlsListen = args['router-tls-listen'] ?? env['PLATFORM_ROUTER_TLS_LISTEN'];
    if (certs.length !== tlsKeys.length) fail(`${certs.length} --router-tls-cert for ${tlsKeys.length} --router-tls-key: give them in pairs`);
    if (tlsListen && certs.length === 0) fail('--router-tls-listen needs a certificate: --router-tls-cert and --router-tls-key');
    if (certs.length > 0) {
      if (routerListen === 'none') fail('--router-tls-cert with --router-listen none: the embedded router is off');
      const read = (file: string, what: string) => {
        try {
          return readFileSync(file, 'utf8');
        } catch (err) {
          return fail(`cannot read ${what} ${file}: ${(err as Error).message}`);
        }
      };
      routerTls = {
        listen: parseHostPort(tlsListen ?? '127.0.0.1:8443', '--router-tls-listen'),
        certificates: certs.map((c, i) => ({ cert: read(c, '--router-tls-cert'), key: read(tlsKeys[i]!, '--router-tls-key') })),
      };
    }
  } catch (err) {
    fail((err as Error).message);
  }
  const sync = args['no-sync'] ? false : env['PLATFORM_SYNC'] !== 'false';
  const log = new JsonLogger(new FdSink(1), logLevel, { component: 'controller', pid: process.pid });
  const actorIdleMs = envInt('PLATFORM_ACTOR_IDLE_MS');
  const inlineCommitMs = envInt('PLATFORM_STORE_INLINE_COMMIT_MS');
  const maxPackageBytes = envInt('PLATFORM_MAX_PACKAGE_BYTES');
  const imageArchiveCompression = env['PLATFORM_IMAGE_ARCHIVE_COMPRESSION'] || undefined;
  if (imageArchiveCompression !== undefined && imageArchiveCompression !== 'huffman' && imageArchiveCompression !== 'stored') {
    fail(`PLATFORM_IMAGE_ARCHIVE_COMPRESSION="${imageArchiveCompression}" is neither huffman nor stored`);
  }
  const imageLayerCacheBytes = envInt('PLATFORM_IMAGE_LAYER_CACHE_BYTES');
  const heartbeatIntervalMs = envInt('PLATFORM_HEARTBEAT_INTERVAL_MS');
  const agentLostAfterMs = envInt('PLATFORM_AGENT_LOST_AFTER_MS');
  const ldap = ldapOptions(args['ldap-url'] ?? env['PLATFORM_LDAP_URL'] ?? '');
  const appTokenTtl = envInt('PLATFORM_APP_TOKEN_TTL_SECONDS');
  if (appTokenTtl !== undefined && (appTokenTtl < 10 || appTokenTtl > 86_400)) fail(`PLATFORM_APP_TOKEN_TTL_SECONDS=${appTokenTtl} is not 10 to 86400`);
  const identityProviders: IdpOptions[] = [];
  const read = (path: string) => readFileSync(path, 'utf8');
  try {
    for (const spec of args.idp ?? []) identityProviders.push(parseIdpFlag(spec, read));
    const idpFile = args['idp-file'] ?? env['PLATFORM_IDP_FILE'];
    if (idpFile) identityProviders.push(...parseIdpFile(read(idpFile), read, idpFile));
  } catch (err) {
    fail((err as Error).message);
  }
  const stagerTimeoutMs = envInt('PLATFORM_STAGER_TIMEOUT_MS');
  const gatewayTimeoutMs = envInt('PLATFORM_GATEWAY_TIMEOUT_MS');
  const gatewayLateAnswerMs = envInt('PLATFORM_GATEWAY_LATE_ANSWER_MS');
  let httpLimits: Partial<HttpLimits> = {};
  try {
    httpLimits = httpLimitsFromEnv(env);
  } catch (err) {
    fail((err as Error).message);
  }
  const metricsRetentionText = args['metrics-retention'] ?? env['PLATFORM_METRICS_RETENTION'] ?? '';
  let metricsRetention: Resolution[] | undefined;
  try {
    metricsRetention = metricsRetentionText === '' ? undefined : parseRetention(metricsRetentionText);
  } catch (err) {
    fail(`--metrics-retention "${metricsRetentionText}": ${(err as Error).message}`);
  }
  const retentionText = args['audit-retention'] ?? env['PLATFORM_AUDIT_RETENTION'] ?? '';
  const auditRetentionSeconds = retentionText === '' ? undefined : parseDurationSeconds(retentionText);
  if (auditRetentionSeconds === undefined && retentionText !== '') {
    fail(`--audit-retention "${retentionText}" is not a duration such as 90d, 12h, 30m or 3600s (0 keeps audit items for ever)`);
  }
  const networkSubnetPool = args['network-subnet-pool'] ?? env['PLATFORM_NETWORK_SUBNET_POOL'] ?? DEFAULT_SUBNET_POOL;
  const sizeText = args['network-subnet-size'] ?? env['PLATFORM_NETWORK_SUBNET_SIZE'] ?? String(DEFAULT_SUBNET_PREFIX);
  try {
    const pool = parseCidr(networkSubnetPool);
    if (!/^\d{1,2}$/.test(sizeText) || Number(sizeText) < pool.prefix || Number(sizeText) > 29) {
      fail(`--network-subnet-size "${sizeText}" is not a prefix length from /${pool.prefix} (the pool's) to /29`);
    }
  } catch (err) {
    if (!(err instanceof Ipv4Error)) throw err;
    fail(`--network-subnet-pool "${networkSubnetPool}": ${err.message}`);
  }
  const allowList = (value: string | undefined, flag: string, variable: string): AllowEntry[] => {
    const text = value ?? env[variable] ?? '';
    try {
      return parseAllowList(text);
    } catch (err) {
      return fail(`--${flag} (${variable}): ${(err as Error).message}`);
    }
  };
  const allowedRegistries = allowList(args['allowed-registries'], 'allowed-registries', 'PLATFORM_ALLOWED_REGISTRIES');
  const allowedDestinations = allowList(args['allowed-destinations'], 'allowed-destinations', 'PLATFORM_ALLOWED_DESTINATIONS');
  const refusePrivateText = env['PLATFORM_REFUSE_PRIVATE_DESTINATIONS'] ?? '';
  if (!['', 'true', 'false'].includes(refusePrivateText)) fail(`PLATFORM_REFUSE_PRIVATE_DESTINATIONS="${refusePrivateText}" is not true or false`);
  const refusePrivateDestinations = !!args['refuse-private-destinations'] || refusePrivateText === 'true';
  const agentSubnetPool = args['agent-subnet-pool'] ?? env['PLATFORM_AGENT_SUBNET_POOL'] ?? DEFAULT_INSTANCE_SUBNET_POOL;
  try {
    const pool = parseCidr(agentSubnetPool);
    if (pool.prefix > DEFAULT_INSTANCE_SUBNET_PREFIX) fail(`--agent-subnet-pool "${agentSubnetPool}" is smaller than one agent's /${DEFAULT_INSTANCE_SUBNET_PREFIX}`);
    if (cidrsOverlap(pool, parseCidr(networkSubnetPool))) fail(`--agent-subnet-pool "${agentSubnetPool}" overlaps the network subnet pool ${networkSubnetPool}`);
  } catch (err) {
    if (!(err instanceof Ipv4Error)) throw err;
    fail(`--agent-subnet-pool "${agentSubnetPool}": ${err.message}`);
  }
  const stagerLauncher = env['PLATFORM_STAGER_LAUNCHER'] ?? '';
  if (stagerLauncher !== '' && stagerLauncher !== 'local' && stagerLauncher !== 'agents' && stagerLauncher !== 'none') {
    fail(`PLATFORM_STAGER_LAUNCHER="${stagerLauncher}" is not one of agents, local, none`);
  }

  let etcd: EtcdStoreOptions | undefined;
  try {
    etcd = parseStoreUrl(args.store ?? env['PLATFORM_STORE'] ?? '', env);
  } catch (err) {
    fail((err as Error).message);
  }
  const leaseTtlSeconds = envInt('PLATFORM_ETCD_LEASE_TTL');
  if (leaseTtlSeconds !== undefined && leaseTtlSeconds < 2) fail(`PLATFORM_ETCD_LEASE_TTL="${leaseTtlSeconds}" is below 2 seconds`);

  let controller: { stop(): Promise<void> };
  try {
    // With etcd, one of several: it stands by, leads when elected, and stands by again when it loses the lead.
    // The node, and through it etcd's client, is loaded only then: loading them takes a few
    // tenths of a second of CPU that a controller on RocksDB need not spend.
    const start = async (options: ControllerOptions): Promise<Controller | ControllerNode> =>
      etcd ? (await import('../node.js')).ControllerNode.start(options) : Controller.start(options);
    controller = await start({
      ...(etcd ? { etcd } : {}),
      ...(env['PLATFORM_BLOB_DIR'] ? { blobDir: env['PLATFORM_BLOB_DIR'] } : {}),
      ...(leaseTtlSeconds === undefined ? {} : { leaseTtlSeconds }),
      dataDir: args['data-dir'] ?? env['PLATFORM_DATA_DIR'] ?? '.data/controller',
      listen,
      grpcListen,
      routerListen,
      routerTcpPorts,
      ...(advertise ? { routerAdvertiseAddress: advertise } : {}),
      ...(routerTls ? { routerTls } : {}),
      domain: args.domain ?? env['PLATFORM_DOMAIN'] ?? '',
      ...(env['PLATFORM_ADMIN_PASSWORD'] ? { adminPassword: env['PLATFORM_ADMIN_PASSWORD'] } : {}),
      adminEmail: env['PLATFORM_ADMIN_EMAIL'] ?? '',
      clusterName: env['PLATFORM_CLUSTER_NAME'] ?? 'platform',
      buildId: env['PLATFORM_BUILD_ID'] ?? 'dev',
      ...(env['PLATFORM_CLI_DOWNLOADS'] ? { cliDownloadsDir: env['PLATFORM_CLI_DOWNLOADS'] } : {}),
      logLevel,
      sync,
      log,
      ...(actorIdleMs === undefined ? {} : { actorIdleMs }),
      ...(inlineCommitMs === undefined ? {} : { inlineCommitMs }),
      ...(maxPackageBytes === undefined ? {} : { maxPackageBytes }),
      ...(imageArchiveCompression === undefined ? {} : { imageArchiveCompression }),
      ...(imageLayerCacheBytes === undefined ? {} : { imageLayerCacheBytes }),
      ...(auditRetentionSeconds === undefined ? {} : { auditRetentionSeconds }),
      ...(metricsRetention === undefined ? {} : { metricsRetention }),
      ...(heartbeatIntervalMs === undefined ? {} : { heartbeatIntervalMs }),
      ...(agentLostAfterMs === undefined ? {} : { agentLostAfterMs }),
      ...(env['PLATFORM_JOIN_TOKEN'] ? { joinToken: env['PLATFORM_JOIN_TOKEN'] } : {}),
      ...(ldap === undefined ? {} : { ldap }),
      ...(env['PLATFORM_SECRETS_KEY_FILE'] ? { secretsKeyFile: env['PLATFORM_SECRETS_KEY_FILE'] } : {}),
      ...(identityProviders.length ? { identityProviders } : {}),
      ...(appTokenTtl !== undefined ? { appTokenTtlSeconds: appTokenTtl } : {}),
      ...(stagerTimeoutMs === undefined ? {} : { stagerTimeoutMs }),
      ...(gatewayTimeoutMs === undefined ? {} : { gatewayTimeoutMs }),
      ...(gatewayLateAnswerMs === undefined ? {} : { gatewayLateAnswerMs }),
      httpLimits,
      ...(env['PLATFORM_STAGER_BASE_URL'] ? { stagerBaseUrl: env['PLATFORM_STAGER_BASE_URL'] } : {}),
      ...(stagerLauncher === 'local' || stagerLauncher === 'none' ? { stagerLauncher } : {}),
      builtins: env['PLATFORM_BUILTINS'] !== 'false',
      networkSubnetPool,
      agentSubnetPool,
      networkSubnetSize: Number(sizeText),
      allowedRegistries,
      allowedDestinations,
      refusePrivateDestinations,
    });
  } catch (err) {
    log.error('controller failed to start', { err });
    log.flush();
    process.exitCode = 1;
    return;
  }

  stopOnSignals({ log, stop: () => controller.stop() });
}

exitOnUncaughtException('platform-controller');

await main();
