import test from 'ava';
import type { Job } from '@platform/controller';
import { unique } from '../harness/fixtures.js';
import { useController } from '../harness/suite.js';

const suite = useController(test);

test('concurrency: 100 concurrent PUTs to one job all land, one version each, in order', async (t) => {
  const api = suite.api();
  const job = (await api.post<Job>('/jobs', { fqn: `job::/conc::${unique()}`, num_instances: 0 })).body;
  const puts = Array.from({ length: 100 }, (_, i) =>
    api.put<Job>(`/jobs/${job.uuid}`, { ...job, num_instances: i + 1, tags: { writer: String(i) } }),
  );
  const replies = await Promise.all(puts);
  for (const r of replies) t.is(r.status, 200);
  // Each PUT was applied on its own: the versions handed out are exactly 2..101,
  // and each reply shows the content of its own request at its version.
  const versions = replies.map((r) => r.body.version_id).sort((a, b) => a - b);
  t.deepEqual(versions, Array.from({ length: 100 }, (_, i) => i + 2));
  replies.forEach((r, i) => {
    t.is(r.body.num_instances, i + 1);
    t.is(r.body.tags['writer'], String(i));
  });
  const final = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  t.is(final.version_id, 101);
  const last = replies.find((r) => r.body.version_id === 101)!;
  t.deepEqual(final, last.body);
  // updated_at strictly increases with version_id.
  const byVersion = replies.map((r) => r.body).sort((a, b) => a.version_id - b.version_id);
  for (let i = 1; i < byVersion.length; i++) t.true(byVersion[i]!.updated_at > byVersion[i - 1]!.updated_at);
});

test('concurrency: concurrent creates of one FQN yield exactly one job', async (t) => {
  const api = suite.api();
  const fqn = `job::/conc::${unique()}`;
  const replies = await Promise.all(Array.from({ length: 20 }, () => api.post<Job>('/jobs', { fqn })));
  t.is(replies.filter((r) => r.status === 200).length, 1);
  t.is(replies.filter((r) => r.status === 409).length, 19);
  t.is((await api.get<Job[]>(`/jobs?fqn=${fqn}`)).body.length, 1);
});

test('concurrency: identical concurrent PUTs change the job once', async (t) => {
  const api = suite.api();
  const job = (await api.post<Job>('/jobs', { fqn: `job::/conc::${unique()}` })).body;
  const replies = await Promise.all(Array.from({ length: 30 }, () => api.put<Job>(`/jobs/${job.uuid}`, { ...job, num_instances: 7 })));
  t.true(replies.every((r) => r.status === 200 && r.body.version_id === 2));
});
