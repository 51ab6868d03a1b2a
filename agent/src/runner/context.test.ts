import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecord, writeRecord, type InstanceRecord } from './context.js';
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

test('records: writeRecord replaces instance.json (mode 0600) and leaves no temporary file; readRecord reads it back', (t) => {
  const dir = tempDir(t);
  writeRecord(dir, record('SETUP'));
  writeRecord(dir, record('STARTING', 4242));
  t.is(readRecord(dir)?.state, 'STARTING');
  t.is(readRecord(dir)?.pid, 4242);
  t.is(statSync(join(dir, 'instance.json')).mode & 0o777, 0o600);
  t.false(existsSync(join(dir, 'instance.json.tmp')));
});

test('records: an agent killed between removing the old record and renaming the new one leaves the new one, which readRecord reads', (t) => {
  const dir = tempDir(t);
  // What writeRecord leaves at that point: the new record under its temporary name, no instance.json.
  writeFileSync(join(dir, 'instance.json.tmp'), JSON.stringify(record('STARTING', 99)));
  t.is(readRecord(dir)?.pid, 99);
  // And the next write puts it in place.
  writeRecord(dir, record('RUNNING', 99));
  t.is(JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')).state, 'RUNNING');
  t.false(existsSync(join(dir, 'instance.json.tmp')));
});

test('records: an agent killed while writing the new record leaves the old one, which is read (not the torn new one)', (t) => {
  const dir = tempDir(t);
  writeRecord(dir, record('RUNNING', 5));
  writeFileSync(join(dir, 'instance.json.tmp'), JSON.stringify(record('STOPPING', 5)).slice(0, 40));
  t.is(readRecord(dir)?.state, 'RUNNING');
  // Neither whole: none.
  rmSync(join(dir, 'instance.json'));
  t.is(readRecord(dir), undefined);
});
