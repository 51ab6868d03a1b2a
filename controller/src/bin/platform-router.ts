#!/usr/bin/env node
/**
 * platform-router: a router on its own, for edge hosts and scale. It follows the controller's
 * route table over gRPC (the agents' address, with the cluster's join secret) and serves the
 * same routes as the router inside the controller. Flags override environment variables, which
 * override defaults. Signals are handled here and nowhere else (stopOnSignals): SIGTERM or SIGINT
 * stops gracefully (requests in flight finish, for up to 10 s); a second one exits at once.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { CONTROLLER_VERSION } from '../cluster/version.js';
import { commonFlags, defaultMetricsOptions, exitOnUncaughtException, FdSink, JsonLogger, parseHostPort, stopOnSignals } from '@platform/proto/common';
import { controllerList } from '@platform/proto';
import { Router, type RouterTlsOptions } from '../router/proxy/router.js';
import { httpLimitsFromEnv, type HttpLimits } from '../util/http-limits.js';
import { RequestReporter } from '../router/proxy/request-reporter.js';
import { TableFollower } from '../router/proxy/table-follower.js';
import { randomIds } from '../util/ids.js';

const USAGE = `Usage: platform-router --controller HOST:PORT [options]

Options (environment variable in brackets):
  --controller HOST:PORT  the controller's gRPC address, the one agents use (PLATFORM_CONTROLLER);
                          several, comma-separated, for controllers sharing etcd
  --listen HOST:PORT      HTTP listener (PLATFORM_ROUTER_LISTEN, default 127.0.0.1:8000)
  --tls-cert FILE         PEM certificate chain for HTTPS; repeat with --tls-key for several,
                          chosen by SNI host name (PLATFORM_ROUTER_TLS_CERT, comma-separated)
  --tls-key FILE          PEM private key of the certificate in the same position
                          (PLATFORM_ROUTER_TLS_KEY, comma-separated)
  --tls-listen HOST:PORT  HTTPS listener, with certificates (PLATFORM_ROUTER_TLS_LISTEN,
                          default 127.0.0.1:8443)
  --metrics-listen HOST:PORT  Prometheus /metrics (PLATFORM_ROUTER_METRICS_LISTEN; off by default)
  --name NAME             shown in the controller's log (PLATFORM_ROUTER_NAME, default the hostname)
  --log-level LEVEL       debug, info, warn, error or silent (PLATFORM_LOG_LEVEL, default info)
  --version               print the version
  --help                  print this help

The cluster's join secret (the controller's DATA_DIR/join-token) is read from
PLATFORM_JOIN_TOKEN.

Requests: PLATFORM_HTTP_HEADERS_TIMEOUT_MS (the request line and headers, default 20000),
PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS (a body still arriving gets no byte for this long: 408, default
30000; 0: unbounded), PLATFORM_HTTP_REQUEST_TIMEOUT_MS (the whole request, default 3600000; 0:
unbounded), PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS (an idle keep-alive connection, default 65000).
`;

function fail(message: string): never {
  process.stderr.write(`platform-router: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        controller: { type: 'string' },
        listen: { type: 'string' },
        'tls-listen': { type: 'string' },
        'tls-cert': { type: 'string', multiple: true },
        'tls-key': { type: 'string', multiple: true },
        'metrics-listen': { type: 'string' },
        name: { type: 'string' },
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
  const logLevel = commonFlags(args, { usage: USAGE, version: CONTROLLER_VERSION, fail });
  if (logLevel === undefined) return;
  const env = process.env;
  const controller = args.controller ?? env['PLATFORM_CONTROLLER'];
  if (!controller) fail('--controller (PLATFORM_CONTROLLER) is required: the controller gRPC address');
  const secret = env['PLATFORM_JOIN_TOKEN'];
  if (!secret) fail('PLATFORM_JOIN_TOKEN is required: the cluster join secret');
  let listen, metricsListen, tls: RouterTlsOptions | undefined;
  let httpLimits: Partial<HttpLimits> = {};
  try {
    httpLimits = httpLimitsFromEnv(env);
    // Several: the controllers sharing etcd (a standby sends the router on to the active one).
    for (const address of controllerList(controller)) parseHostPort(address, '--controller');
    listen = parseHostPort(args.listen ?? env['PLATFORM_ROUTER_LISTEN'] ?? '127.0.0.1:8000', '--listen');
    const metrics = args['metrics-listen'] ?? env['PLATFORM_ROUTER_METRICS_LISTEN'];
    metricsListen = metrics ? parseHostPort(metrics, '--metrics-listen') : undefined;
    const certs = args['tls-cert'] ?? (env['PLATFORM_ROUTER_TLS_CERT'] ? env['PLATFORM_ROUTER_TLS_CERT'].split(',') : []);
    const keys = args['tls-key'] ?? (env['PLATFORM_ROUTER_TLS_KEY'] ? env['PLATFORM_ROUTER_TLS_KEY'].split(',') : []);
    const tlsListen = args['tls-listen'] ?? env['PLATFORM_ROUTER_TLS_LISTEN'];
    if (certs.length !== keys.length) fail(`${certs.length} --tls-cert for ${keys.length} --tls-key: give them in pairs`);
    if (tlsListen && certs.length === 0) fail('--tls-listen needs a certificate: --tls-cert and --tls-key');
    if (certs.length > 0) {
      tls = {
        listen: parseHostPort(tlsListen ?? '127.0.0.1:8443', '--tls-listen'),
        certificates: certs.map((c, i) => ({ cert: readFileSync(c, 'utf8'), key: readFileSync(keys[i]!, 'utf8') })),
      };
    }
  } catch (err) {
    fail((err as Error).message);
  }
  const log = new JsonLogger(new FdSink(1), logLevel, { component: 'router', pid: process.pid });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, ...defaultMetricsOptions('platform_router_') });
  const routerName = args.name ?? env['PLATFORM_ROUTER_NAME'] ?? hostname();
  const follower = new TableFollower({ controller, joinSecret: secret, routerName, log });

  let router: Router;
  let metricsServer: http.Server | undefined;
  try {
    router = await Router.start({ listen, ...(tls ? { tls } : {}), feed: follower.feed, registry, log, requestId: randomIds.requestId, httpLimits });
    if (metricsListen) {
      const server = http.createServer((req, res) => {
        if (req.url !== '/metrics') {
          res.writeHead(404).end();
          return;
        }
        registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
          () => res.writeHead(500).end(),
        );
      });
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(metricsListen.port, metricsListen.host, () => resolve()));
      metricsServer = server;
    }
  } catch (err) {
    log.error('router failed to start', { err });
    log.flush();
    follower.stop();
    process.exitCode = 1;
    return;
  }
  // Requests per job go to the controller about once a second, for metric queries and autoscaling.
  const reporter = new RequestReporter({ controller, joinSecret: secret, routerName, source: router.requests, log });
  log.info('router ready', {
    http: router.address,
    ...(router.tlsAddress ? { https: router.tlsAddress } : {}),
    ...(metricsServer ? { metrics: `${metricsListen!.host}:${(metricsServer.address() as { port: number }).port}` } : {}),
    controller,
    version: CONTROLLER_VERSION,
  });

  stopOnSignals({
    log,
    stop: async () => {
      metricsServer?.close();
      await router.stop(10_000);
      await reporter.stop();
      log.info('router stopped');
    },
  });
}

exitOnUncaughtException('platform-router');

await main();
