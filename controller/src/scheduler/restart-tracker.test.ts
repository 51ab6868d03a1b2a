import test from 'ava';
import type { InstanceRecord } from '../model/instance.js';
import { testJob } from './cluster.test-fixture.js';
import { RESTART_BASE_DELAY_MS, RESTART_MAX_DELAY_MS, RestartTracker } from './restart-tracker.js';

const T0 = Date.UTC(2026, 0, 1);

function ended(extra: Partial<InstanceRecord> = {}): InstanceRecord {
  return {
    uuid: 'i1', job_uuid: 'j1', job_version_id: 1, run_hash: 'h', agent_uuid: 'a1', host: 'h', state: 'REMOVED',
    exited: true, exit_code: 1, failed: true, reason: 'exit code 1', ports: {},
    resources: { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 }, created_ms: T0, updated_ms: T0, ...extra,
  };
}

test('restart tracker: restart modes decide which ended instances are replaced', (t) => {
  const always = testJob({ restart: { restart_mode: 'always' } });
  const failure = testJob({ restart: { restart_mode: 'failure' } });
  const no = testJob({ restart: { restart_mode: 'no' } });
  const ok = ended({ failed: false, exit_code: 0 });
  t.true(new RestartTracker().ended(always, ok, T0).replace);
  t.false(new RestartTracker().ended(failure, ok, T0).replace);
  t.true(new RestartTracker().ended(failure, ended(), T0).replace);
  t.false(new RestartTracker().ended(no, ended(), T0).replace);
  // Stops by the controller are not restarts; a user's stop follows the mode "always" only.
  t.false(new RestartTracker().ended(always, ended({ stop: 'scale' }), T0).replace);
  t.true(new RestartTracker().ended(always, ended({ stop: 'user' }), T0).replace);
  t.false(new RestartTracker().ended(failure, ended({ stop: 'user' }), T0).replace);
  // Lost with its agent: replaced whatever the mode, at once.
  const lost = new RestartTracker();
  t.true(lost.ended(no, ended({ lost: true }), T0).replace);
  t.is(lost.notBefore, 0);
});

test('restart tracker: the delay doubles per consecutive restart up to the maximum, and a stable run resets it', (t) => {
  const job = testJob({ rollout: { flapping_minimum_restarts: 1000 } }); // no flapping: the delay alone
  const r = new RestartTracker(60_000);
  let now = T0;
  const delays: number[] = [];
  for (let n = 0; n < 9; n++) {
    r.ended(job, ended({ running_since_ms: now - 1000 }), now);
    delays.push(r.notBefore - now);
    now += 1000;
  }
  t.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 16_000, RESTART_MAX_DELAY_MS, RESTART_MAX_DELAY_MS, RESTART_MAX_DELAY_MS]);
  // An instance that ran for stableAfterMs before it ended starts the count again.
  r.ended(job, ended({ running_since_ms: now - 60_000 }), now);
  t.is(r.notBefore - now, RESTART_BASE_DELAY_MS);
});

test('restart tracker: more consecutive failures than maximum_attempts errors the job', (t) => {
  const job = testJob({ restart: { restart_mode: 'always', maximum_attempts: 2 } });
  const r = new RestartTracker();
  t.deepEqual(r.ended(job, ended(), T0), { replace: true });
  t.deepEqual(r.ended(job, ended(), T0 + 1000), { replace: true });
  const third = r.ended(job, ended({ reason: 'boom' }), T0 + 2000);
  t.false(third.replace);
  t.regex(third.errored ?? '', /failed 3 times in a row \(maximum_attempts 2\): boom/);
  t.false(r.flapping, 'maximum_attempts is not flapping');
});

test('restart tracker: flapping needs the minimum restarts within the window and the percentage of num_instances', (t) => {
  const rollout = { flapping_window: 60, flapping_minimum_restarts: 3, flapping_percent: 0.5 };
  const job = testJob({ num_instances: 4, rollout });
  const r = new RestartTracker();
  t.true(r.ended(job, ended(), T0).replace);
  t.true(r.ended(job, ended(), T0 + 10_000).replace);
  // The first restart leaves the 60 s window: two recent ones, not three.
  t.true(r.ended(job, ended(), T0 + 60_000).replace);
  t.false(r.flapping);
  const fourth = r.ended(job, ended(), T0 + 61_000);
  t.false(fourth.replace, '3 restarts in 60 s, 3/4 >= 50%');
  t.regex(fourth.errored ?? '', /^flapping: 3 restarts within 60 s/);
  t.true(r.flapping);
  r.reset();
  t.false(r.flapping);
  t.is(r.notBefore, 0);

  // Below the percentage: 3 restarts for 8 instances is 37.5% < 50%.
  const wide = testJob({ num_instances: 8, rollout });
  const w = new RestartTracker();
  for (let n = 0; n < 3; n++) t.true(w.ended(wide, ended(), T0 + n).replace);
  t.true(w.ended(wide, ended(), T0 + 3).errored !== undefined, 'the fourth makes 50%');
});
