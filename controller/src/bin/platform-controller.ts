#!/usr/bin/env node
/**
 * platform-controller: the operator's entry point. Flags override environment
 * variables, which override defaults. Signals are handled here and nowhere else:
 * SIGTERM or SIGINT stops gracefully; a second one exits at once.
 */
import { parseArgs } from 'node:util';
import { parseHostPort } from '../cluster/host-port.js';
import { CONTROLLER_VERSION } from '../cluster/version.js';
import { Controller } from '../controller.js';
import { FdSink, isLogLevel, JsonLogger } from '../log/logger.js';

const USAGE = `Usage: platform-controller [options]

Options (environment variable in brackets):
  --data-dir DIR          state and package archives (PLATFORM_DATA_DIR, default .data/controller)
  --listen HOST:PORT      REST API and auth hosts (PLATFORM_LISTEN, default 127.0.0.1:8080)
  --grpc-listen HOST:PORT where agents connect (PLATFORM_GRPC_LISTEN, default 127.0.0.1:7070)
  --domain DOMAIN         cluster domain for api.DOMAIN and *auth.DOMAIN (PLATFORM_DOMAIN)
  --log-level LEVEL       debug, info, warn, error or silent (PLATFORM_LOG_LEVEL, default info)
  --no-sync               acknowledge writes once in the write-ahead log, without fsync
                          (PLATFORM_SYNC=false); survives a crash of the process, not of the host
  --version               print the version
  --help                  print this help

First start: the administrator "admin" gets PLATFORM_ADMIN_PASSWORD, or a generated
password that is printed once and kept in DATA_DIR/admin-password.
Also read from the environment: PLATFORM_ADMIN_EMAIL, PLATFORM_CLUSTER_NAME,
PLATFORM_ACTOR_IDLE_MS, PLATFORM_MAX_PACKAGE_BYTES, PLATFORM_BUILD_ID.
Staging: PLATFORM_STAGER_TIMEOUT_MS (default 600000), PLATFORM_STAGER_BASE_URL (base of
STAGER_URL as stagers reach the API), PLATFORM_STAGER_LAUNCHER=local (run stagers as child
processes of this host, for development), PLATFORM_BUILTINS=false (no built-in packages).
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

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        'data-dir': { type: 'string' },
        listen: { type: 'string' },
        'grpc-listen': { type: 'string' },
        domain: { type: 'string' },
        'log-level': { type: 'string' },
        'no-sync': { type: 'boolean' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    fail((err as Error).message);
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.version) {
    process.stdout.write(`${CONTROLLER_VERSION}\n`);
    return;
  }
  const env = process.env;
  const logLevel = args['log-level'] ?? env['PLATFORM_LOG_LEVEL'] ?? 'info';
  if (!isLogLevel(logLevel)) fail(`log level "${logLevel}" is not one of debug, info, warn, error, silent`);
  let listen, grpcListen;
  try {
    listen = parseHostPort(args.listen ?? env['PLATFORM_LISTEN'] ?? '127.0.0.1:8080', '--listen');
    grpcListen = parseHostPort(args['grpc-listen'] ?? env['PLATFORM_GRPC_LISTEN'] ?? '127.0.0.1:7070', '--grpc-listen');
  } catch (err) {
    fail((err as Error).message);
  }
  const sync = args['no-sync'] ? false : env['PLATFORM_SYNC'] !== 'false';
  const log = new JsonLogger(new FdSink(1), logLevel, { component: 'controller', pid: process.pid });
  const actorIdleMs = envInt('PLATFORM_ACTOR_IDLE_MS');
  const maxPackageBytes = envInt('PLATFORM_MAX_PACKAGE_BYTES');
  const stagerTimeoutMs = envInt('PLATFORM_STAGER_TIMEOUT_MS');
  const stagerLauncher = env['PLATFORM_STAGER_LAUNCHER'] ?? '';
  if (stagerLauncher !== '' && stagerLauncher !== 'local') fail(`PLATFORM_STAGER_LAUNCHER="${stagerLauncher}" is not "local"`);

  let controller: Controller;
  try {
    controller = await Controller.start({
      dataDir: args['data-dir'] ?? env['PLATFORM_DATA_DIR'] ?? '.data/controller',
      listen,
      grpcListen,
      domain: args.domain ?? env['PLATFORM_DOMAIN'] ?? '',
      ...(env['PLATFORM_ADMIN_PASSWORD'] ? { adminPassword: env['PLATFORM_ADMIN_PASSWORD'] } : {}),
      adminEmail: env['PLATFORM_ADMIN_EMAIL'] ?? '',
      clusterName: env['PLATFORM_CLUSTER_NAME'] ?? 'platform',
      buildId: env['PLATFORM_BUILD_ID'] ?? 'dev',
      logLevel,
      sync,
      log,
      ...(actorIdleMs === undefined ? {} : { actorIdleMs }),
      ...(maxPackageBytes === undefined ? {} : { maxPackageBytes }),
      ...(stagerTimeoutMs === undefined ? {} : { stagerTimeoutMs }),
      ...(env['PLATFORM_STAGER_BASE_URL'] ? { stagerBaseUrl: env['PLATFORM_STAGER_BASE_URL'] } : {}),
      ...(stagerLauncher === 'local' ? { stagerLauncher: 'local' as const } : {}),
      builtins: env['PLATFORM_BUILTINS'] !== 'false',
    });
  } catch (err) {
    log.error('controller failed to start', { err });
    log.flush();
    process.exitCode = 1;
    return;
  }

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      log.warn('second signal: exiting at once', { signal });
      log.flush();
      process.exit(130);
    }
    log.info('signal received: stopping', { signal });
    controller.stop().then(
      () => {
        log.flush();
        process.exit(0);
      },
      (err: unknown) => {
        log.error('stop failed', { err });
        log.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

process.on('uncaughtException', (err) => {
  process.stderr.write(`platform-controller: uncaught exception: ${err.stack ?? String(err)}\n`);
  process.exit(70);
});

await main();
