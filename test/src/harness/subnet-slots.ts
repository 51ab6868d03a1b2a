/**
 * Agent subnet pools for test controllers that run side by side on one host.
 *
 * Each controller hands its agents /24 blocks from its `--agent-subnet-pool`, starting at the
 * pool's first: two controllers with the default pool give their first agents the same block, and
 * two agents on one host with the same block put the same connected route on two bridges (one of
 * them then reaches the other's instances, or none). In production a host runs one agent of one
 * cluster; the tests run many clusters at once, so each controller gets a /20 of its own (16
 * agents) out of the default /12.
 *
 * Slots are claimed across the test workers (separate processes) by creating a file with O_EXCL
 * under the temporary directory, naming the claiming process. A claim is the process's until it
 * exits (it may restart its controllers on the same pool); a slot whose process is gone is free.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIR = join(tmpdir(), 'platform-test-agent-subnets');
// /20 blocks of 10.192.0.0/12 but the first: the default pool's first blocks stay to controllers
// that the harness does not start (npm start, the CLI's quick start).
const SLOTS = 255;
const mine: string[] = [];
let exitHook = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pool of a slot: 10.192.16.0/20 for slot 1, ... 10.207.240.0/20 for slot 255. */
export function slotPool(slot: number): string {
  return `10.${192 + (slot >> 4)}.${(slot & 15) << 4}.0/20`;
}

/** Claims a free slot for this process and answers its pool. */
export function claimAgentSubnetPool(): string {
  mkdirSync(DIR, { recursive: true });
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const file of mine) {
        try {
          unlinkSync(file);
        } catch {
          // removed already
        }
      }
    });
  }
  // Start at a point of our own so that workers starting together do not all race for slot 0.
  const first = (process.pid * 7 + mine.length) % SLOTS;
  const claim = (slot: number): boolean => {
    try {
      writeFileSync(join(DIR, `slot-${slot}`), String(process.pid), { flag: 'wx' });
      mine.push(join(DIR, `slot-${slot}`));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return false;
    }
  };
  for (let i = 0; i < SLOTS; i++) {
    const slot = 1 + ((first + i) % SLOTS);
    if (claim(slot)) return slotPool(slot);
  }
  // Every slot has a file: take back one whose process is gone (a worker that was killed).
  for (let i = 0; i < SLOTS; i++) {
    const slot = 1 + ((first + i) % SLOTS);
    const file = join(DIR, `slot-${slot}`);
    let owner = 0;
    try {
      owner = Number(readFileSync(file, 'utf8').trim());
    } catch {
      // removed meanwhile: free
    }
    if (Number.isInteger(owner) && owner > 0 && alive(owner)) continue;
    try {
      unlinkSync(file);
    } catch {
      // another worker took it back first
    }
    if (claim(slot)) return slotPool(slot);
  }
  throw new Error(`no free agent subnet pool among ${SLOTS} (${DIR}): too many test controllers at once`);
}
