import test from 'ava';
import { spawn } from 'node:child_process';
import { descendants } from './procfs.js';
import { eventually } from '../test-support/wait.js';

test('procfs: descendants lists a process tree below a pid (children and theirs), not the pid itself nor other processes', async (t) => {
  // sh -> (sleep, sh -> sleep): three descendants.
  const root = spawn('/bin/sh', ['-c', 'sleep 30 & /bin/sh -c "sleep 30 & wait" & wait'], { stdio: 'ignore' });
  t.teardown(() => {
    for (const pid of descendants(root.pid!)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    root.kill('SIGKILL');
  });
  const found = await eventually(() => {
    const d = descendants(root.pid!);
    return d.length === 3 ? d : undefined;
  }, 'the three descendants', 10_000);
  t.false(found.includes(root.pid!));
  t.false(found.includes(process.pid));
  t.deepEqual(descendants(2 ** 22 + 1), []);
});
