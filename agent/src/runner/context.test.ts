import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecord, RecordFile, type InstanceRecord } from './context.js';
import { normalizeSpec } from './spec.js';

function record(state: InstanceRecord['state'], pid?: number): InstanceRecord {
  return {
    version: 1, spec: normalizeSpec({ instanceUuid: 'rec-1', jobUuid: 'job-1', jobVersionId: 1 }), state, createdMs: 1, stateTimeMs: 2,
    cgroups: [], ports: {}, allocatedPorts: [], stopRequested: false, exited: false, exitCode: 0, failed: false, reason: '',
    ...(pid !== undefined ? { pid, pidStart: 7 } : {}),
  };
}

function tempDir(t: { teardown(f: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'record-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function file(dir: string, write: (f: RecordFile) => void): RecordFile {
  const f = new RecordFile(dir, (err) => {
    throw err;
  });
  write(f);
  return f;
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n !== 'instance.json');

test('records: a write replaces instance.json (mode 0600) and leaves no other file; readRecord reads it back', (t) => {
  const dir = tempDir(t);
  file(dir, (f) => {
    f.writeNow(record('SETUP'));
    f.writeNow(record('STARTING', 4242));
  });
  t.is(readRecord(dir)?.state, 'STARTING');
  t.is(readRecord(dir)?.pid, 4242);
  t.is(statSync(join(dir, 'instance.json')).mode & 0o777, 0o600);
  t.deepEqual(temps(dir), []);
});

test('records: a write from the thread pool is in place once settled; one begun before a write at once and done after it is dropped', async (t) => {
  const dir = tempDir(t);
  const f = file(dir, (f) => f.writeSoon(record('NEW')));
  await f.settled();
  t.is(readRecord(dir)?.state, 'NEW');
  f.writeSoon(record('STARTING'));
  f.writeNow(record('STARTING', 77));
  await f.settled();
  t.is(readRecord(dir)?.pid, 77);
  t.deepEqual(temps(dir), []);
});

test('records: an agent killed between removing the old record and renaming the new one leaves the new one, which readRecord reads; the next run numbers its writes after it', (t) => {
  const dir = tempDir(t);
  // What a write leaves at that point: the new record under its own name, no instance.json (and
  // an older write dropped half-way).
  writeFileSync(join(dir, 'instance.json.2.tmp'), JSON.stringify(record('SETUP')));
  writeFileSync(join(dir, 'instance.json.3.tmp'), JSON.stringify(record('STARTING', 99)));
  writeFileSync(join(dir, 'instance.json.4.tmp'), JSON.stringify(record('RUNNING', 99)).slice(0, 30));
  t.is(readRecord(dir)?.pid, 99);
  t.is(readRecord(dir)?.state, 'STARTING');
  // The restarted agent's first write is number 5, and instance.json is its record from then on.
  file(dir, (f) => f.writeNow(record('RUNNING', 99)));
  t.true(existsSync(join(dir, 'instance.json.5.tmp')) === false);
  t.is(JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')).state, 'RUNNING');
  t.is(readRecord(dir)?.state, 'RUNNING');
});

test('records: an agent killed while writing the new record leaves the old one, which is read (not the torn new one)', (t) => {
  const dir = tempDir(t);
  file(dir, (f) => f.writeNow(record('RUNNING', 5)));
  writeFileSync(join(dir, 'instance.json.2.tmp'), JSON.stringify(record('STOPPING', 5)).slice(0, 40));
  t.is(readRecord(dir)?.state, 'RUNNING');
  // Neither whole: none.
  rmSync(join(dir, 'instance.json'));
  t.is(readRecord(dir), undefined);
});
