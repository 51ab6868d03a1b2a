// `npm start`: runs a local cluster with defaults — a controller and one local agent —
// prints the console's and the API's URLs and how to log in, and stops both on Ctrl-C, on
// SIGINT or SIGTERM to this script, and when the npm process that runs it ends
// (`kill -INT <pid of npm start>`). Setup has only transpiled the code the cluster runs; the type
// check (tsc -b) and then the command-line client's downloads are built in the background
// meanwhile, and it says when the downloads are ready.
//
// Log lines of both processes: on a terminal, one readable line each (time, level, component,
// message, then the fields), through pino's own pretty printer; as the processes write them
// (one JSON object a line) when the output is not a terminal, or when asked with
// `--log-format json` (`npm start -- --log-format json`) or PLATFORM_LOG_FORMAT=json
// (`pretty` forces the other way).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { setPriority } from 'node:os';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const logFormat = chooseLogFormat();
const pretty = logFormat === 'pretty' ? await prettyPrinter() : undefined;
const dataDir = process.env.PLATFORM_DATA_DIR ?? join(root, '.data', 'controller');
const agentDataDir = process.env.PLATFORM_AGENT_DATA_DIR ?? defaultAgentDataDir();

/**
 * `.data/agent` in the repository, unless the agent runs as root and the repository is where
 * the instances' own uids cannot go (a clone under /root, mode 0700): they must reach their
 * roots below the agent's data directory. Then a directory of this clone's own in /var/tmp.
 */
function defaultAgentDataDir() {
  const inRepo = join(root, '.data', 'agent');
  if (process.getuid?.() !== 0 || searchableByOthers(root)) return inRepo;
  const id = createHash('sha256').update(root).digest('hex').slice(0, 12);
  return join('/var/tmp', `platform-agent-${id}`);
}

function chooseLogFormat() {
  const i = process.argv.findIndex((a) => a === '--log-format' || a.startsWith('--log-format='));
  const asked = i < 0 ? process.env.PLATFORM_LOG_FORMAT : process.argv[i].includes('=') ? process.argv[i].split('=')[1] : process.argv[i + 1];
  if (asked === 'json' || asked === 'pretty') return asked;
  if (asked) {
    console.error(`start: unknown log format "${asked}" (json or pretty)`);
    process.exit(2);
  }
  return process.stdout.isTTY ? 'pretty' : 'json';
}

/** pino-pretty's formatter for one line of JSON: `12:00:01.234 INFO controller: message  key=value`. */
async function prettyPrinter() {
  const { prettyFactory } = await import('pino-pretty');
  return prettyFactory({
    colorize: process.stdout.isTTY === true && !process.env.NO_COLOR,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,component',
    messageFormat: '{component}: {msg}',
    singleLine: true,
  });
}

/** Passes one line of a child's output on, in the chosen format. */
function emit(source, line) {
  if (!pretty) {
    console.log(line);
    return;
  }
  if (!line.startsWith('{')) {
    console.log(`[${source}] ${line}`);
    return;
  }
  try {
    process.stdout.write(pretty(line));
  } catch {
    console.log(`[${source}] ${line}`);
  }
}

/** Whether users other than the owner may pass through every directory from / down to `dir`. */
function searchableByOthers(dir) {
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (d === parse(d).root) return true;
  }
}

// The controller's Node flags and environment (NAME=value before `node`), as its launcher's first line gives them.
const launcherLine = readFileSync(join(root, 'controller', 'bin', 'platform-controller.js'), 'utf8').split('\n')[0].split(' ');
const controllerFlags = launcherLine.filter((w) => w.startsWith('--'));
const controllerEnv = Object.fromEntries(launcherLine.filter((w) => /^[A-Z_][A-Z0-9_]*=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
const controller = spawn(
  process.execPath,
  [...controllerFlags, join(root, 'controller', 'dist', 'bin', 'platform-controller.js'), '--data-dir', dataDir],
  // Its own process group: Ctrl-C reaches only this script, which passes it on once.
  // (Both getting it would count as two signals, and the controller exits at once on the second.)
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...controllerEnv }, detached: true },
);
const children = [controller];
// A local development cluster stops its applications with it; an operator's agent
// keeps them running across its own restarts (see docs/operators.md).
const AGENT_EXIT_ARGS = ['--stop-instances-on-exit'];

createInterface({ input: controller.stdout }).on('line', (line) => {
  emit('controller', line);
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return;
  }
  if (entry.msg === 'controller ready') {
    const passwordFile = join(dataDir, 'admin-password');
    const login = process.env.PLATFORM_ADMIN_PASSWORD
      ? 'the password in PLATFORM_ADMIN_PASSWORD'
      : existsSync(passwordFile)
        ? `password ${readFileSync(passwordFile, 'utf8').trim()} (kept in ${passwordFile})`
        : 'the password set when this data directory was first used';
    console.log('');
    if (entry.console) console.log(`Console: ${entry.console} (sign in as admin)`);
    console.log(`Platform API: ${entry.api}`);
    if (entry.router) console.log(`Router: http://${entry.router} (apps at http://<route host>:${entry.router.split(':').pop()}/; default routes end in .localhost)`);
    console.log(`Administrator: admin, ${login}`);
    console.log(`Log in: npx platform login ${entry.api} --user admin${entry.router ? ` && npx platform target --router ${entry.router}` : ''}`);
    console.log('Deploy an app: npx platform app deploy cli/examples/hello');
    console.log(`Get a token for curl: curl -s -X POST -u admin:<password> ${entry.api}/v1/oauth2/token`);
    console.log(`Agent: one local instance manager (data in ${agentDataDir}), joining at ${entry.grpc}`);
    console.log(downloads.done ? downloadsLine(entry.api) : 'Command-line client downloads: being built in the background (said below when ready).');
    console.log('Press Ctrl-C to stop.');
    console.log('');
    api = entry.api;
    startAgent(entry.grpc);
  }
});

/** The local agent, once the controller listens; it joins with the controller's join secret. */
function startAgent(grpc) {
  if (stopping) return;
  const joinToken = process.env.PLATFORM_JOIN_TOKEN ?? readFileSync(join(dataDir, 'join-token'), 'utf8').trim();
  const agent = spawn(
    process.execPath,
    [join(root, 'agent', 'dist', 'bin', 'platform-agent.js'), '--controller', grpc, '--data-dir', agentDataDir, ...AGENT_EXIT_ARGS],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PLATFORM_JOIN_TOKEN: joinToken }, detached: true },
  );
  children.push(agent);
  createInterface({ input: agent.stdout }).on('line', (line) => emit('agent', line));
  agent.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`agent exited (${code ?? signal}); stopping`);
    stop('SIGTERM');
  });
}

/**
 * In the background, at a low priority beside the starting cluster: the full `tsc -b` (setup
 * only transpiled what the cluster runs; this type-checks, writes the declarations and the tests,
 * and says so when the sources have type errors), then the command-line client's archives
 * (GET /cli/download/{platform}), which the controller serves once their manifest is written.
 */
let api;
const downloads = { done: false };
const downloadsLine = (base) => `Command-line client downloads ready: ${base}/v1/cli/download/<platform> (linux, osx, ...)`;
function background(args, done) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  try {
    setPriority(child.pid, 19);
  } catch {
    // Not permitted here: it runs at the normal priority.
  }
  const lines = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  child.on('exit', (code, signal) => {
    if (!stopping) done(code, signal, lines);
  });
}
background([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], (code, signal, lines) => {
  if (code !== 0) {
    const errors = lines.filter((l) => l.includes('error TS'));
    console.error(`Type check (tsc -b) failed (${errors.length} errors; npm run typecheck shows them all):\n${(errors.length > 0 ? errors : lines).slice(0, 10).join('\n')}`);
  }
  background([join(root, 'cli', 'scripts', 'build-downloads.mjs')], (code, signal, lines) => {
    if (code === 0) {
      downloads.done = true;
      if (api) console.log(downloadsLine(api));
    } else {
      console.error(`Command-line client downloads could not be built (${code ?? signal}); npm run build:downloads tells why:\n${lines.slice(-10).join('\n')}`);
    }
  });
});

let stopping = false;
/** Passes a stop on to the children; a second one (a second Ctrl-C) kills them. */
function stop(signal) {
  if (stopping) {
    for (const child of children) child.kill('SIGKILL');
    return;
  }
  stopping = true;
  for (const child of children) child.kill(signal);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

// `kill -INT <pid of npm start>` (what scripts and service managers do) reaches npm only: npm exits
// without passing the signal on, and this script would run on with the cluster. So under npm,
// watch npm's process and stop the cluster when it is gone, as for Ctrl-C.
const npm = npmAncestor();
if (npm !== undefined) {
  const watch = setInterval(() => {
    if (alive(npm)) return;
    clearInterval(watch);
    if (!stopping) {
      console.error(`npm (pid ${npm}) has exited; stopping the cluster`);
      stop('SIGINT');
    }
  }, 200);
  watch.unref();
  // Keeps the watch going while the children run (their pipes would keep us alive anyway).
  controller.on('exit', () => clearInterval(watch));
}

/** The pid of the npm process that runs this script (through `sh -c`), or undefined. */
function npmAncestor() {
  if (!process.env.npm_lifecycle_event) return undefined;
  let pid = process.ppid;
  for (let depth = 0; depth < 3 && pid > 1; depth++) {
    const cmdline = readProc(pid, 'cmdline').split('\0').join(' ');
    if (/(^|[/\s])npm(-cli\.js)?(\s|$)/.test(cmdline)) return pid;
    const stat = readProc(pid, 'stat');
    // Fields after the command (which may hold spaces): state, then ppid.
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return undefined;
}

function readProc(pid, file) {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

controller.on('exit', (code, signal) => {
  // Once stopping, a child that exits must not escalate: the other one is still stopping cleanly.
  if (!stopping) {
    console.error(`controller exited (${code ?? signal}); stopping`);
    stop('SIGTERM');
  }
  process.exitCode = code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1);
});
