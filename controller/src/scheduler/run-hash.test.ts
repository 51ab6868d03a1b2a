import test from 'ava';
import type { Job, JobBinding } from '../model/job.js';
import { parseJobInput } from '../model/job.js';
import { OUTBOUND_SERVICE_FQN } from '../model/outbound.js';
import { runHash } from './reconciler.js';

const newUuid = () => '00000000-0000-4000-8000-000000000001';

test('run hash: a binding to the outbound network service does not change the run shape (its instances follow it live); another binding does', (t) => {
  const job = { ...parseJobInput({ fqn: 'job::/a::web', processes: { app: { start_command: 'x' } } }, newUuid).spec, bindings: {} } as unknown as Job;
  const binding = (fqn: string, service: string): JobBinding => ({ name: 'n', uuid: fqn, fqn, job_fqn: job.fqn, env_var: [], parameters: { ipnet: '10.0.0.0/8' }, service_fqn: service });
  const plain = runHash(job);
  const outbound = runHash({ ...job, bindings: { 'binding::/a::o': binding('binding::/a::o', OUTBOUND_SERVICE_FQN) } });
  const service = runHash({ ...job, bindings: { 'binding::/a::s': binding('binding::/a::s', 'service::/a::db') } });
  t.is(outbound, plain);
  t.not(service, plain);
});
