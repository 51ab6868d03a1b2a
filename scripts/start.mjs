// `npm start`: runs a local cluster with defaults — a controller (and, once agents
// exist, one local agent) — prints the API URL and how to log in, and stops
// everything on Ctrl-C. Logs of each process are passed through, prefixed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.PLATFORM_DATA_DIR ?? join(root, '.data', 'controller');

const controller = spawn(
  process.execPath,
  [join(root, 'controller', 'dist', 'bin', 'platform-controller.js'), '--data-dir', dataDir],
  // Its own process group: Ctrl-C reaches only this script, which passes it on once.
  // (Both getting it would count as two signals, and the controller exits at once on the second.)
  { stdio: ['ignore', 'pipe', 'inherit'], env: process.env, detached: true },
);
const children = [controller];

createInterface({ input: controller.stdout }).on('line', (line) => {
  console.log(`[controller] ${line}`);
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
    console.log(`Platform API: ${entry.api}`);
    console.log(`Administrator: admin, ${login}`);
    console.log(`Get a token: curl -s -X POST -u admin:<password> ${entry.api}/v1/oauth2/token`);
    console.log('Agents: not part of this release yet; the controller runs alone.');
    console.log('Press Ctrl-C to stop.');
    console.log('');
  }
});

let stopping = false;
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

controller.on('exit', (code, signal) => {
  if (!stopping) console.error(`controller exited (${code ?? signal}); stopping`);
  stop('SIGTERM');
  process.exitCode = code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1);
});
