/**
 * Step `root`: the instance's own host uid (when the agent gives each instance one), the ids its
 * process has inside (the job's user and group, from the root's /etc files, or the host's when
 * they are bound), and the root handed to that uid: everything the packages put there belongs to
 * the instance, and no one else may look. Released once the processes are gone: whatever still
 * runs as the uid is killed, the root is removed, and only then is the uid free again (nothing
 * of it may be left, files included).
 */
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chownTree, killAllOfUid, resolveInsideIds } from '../../isolation/identity.js';
import { SetupError, type InstanceStep } from '../context.js';

export const rootStep: InstanceStep = {
  name: 'root',
  prepare(ctx) {
    const { deps, rec, spec, root } = ctx;
    if (!deps.identities) return;
    if (!rec.identity) {
      const uid = deps.identities.allocate();
      rec.identity = { uid, gid: uid };
      // Saved (from the thread pool, and at the latest with the pid after the spawn): an agent
      // restarted once a process runs as the uid reserves it again; before, nothing runs as it.
      ctx.persist();
    }
    const host = rec.identity;
    const launch = rec.launch!;
    let inside = { uid: host.uid, gid: host.gid };
    if (deps.driver.name === 'bwrap') {
      // The instance sees the host's /etc/passwd when it is bound (os package, default dirs); never
      // over its own root (a container image): its user names the image's /etc/passwd entry.
      const seesHostEtc = !launch.ownRoot && (launch.hostPaths.length === 0 || launch.hostPaths.some((p) => p === '/etc' || p === '/etc/passwd'));
      try {
        inside = resolveInsideIds(spec.process.user, spec.process.group, {
          passwd: [join(root, 'etc', 'passwd'), ...(seesHostEtc ? ['/etc/passwd'] : [])],
          group: [join(root, 'etc', 'group'), ...(seesHostEtc ? ['/etc/group'] : [])],
        });
      } catch (err) {
        throw new SetupError((err as Error).message);
      }
    } else if (spec.process.user || spec.process.group) {
      ctx.log.warn('the process driver cannot run a job as its user/group: the instance runs as its own uid', { user: spec.process.user, group: spec.process.group, uid: host.uid });
    }
    launch.identity = { host, inside };
    chownTree(root, host);
    chmodSync(root, 0o700);
  },
  restore(ctx) {
    if (ctx.rec.identity) ctx.deps.identities?.reserve(ctx.rec.identity.uid);
  },
  release(ctx) {
    const id = ctx.rec.identity;
    if (!id) return;
    // Whatever still runs as the instance's uid (it left the group, and no cgroups hold it).
    if (id.uid !== 0) killAllOfUid(id.uid);
    rmSync(ctx.root, { recursive: true, force: true, maxRetries: 3 });
    ctx.deps.identities?.release(id.uid);
  },
};
