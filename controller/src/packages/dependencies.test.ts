import test from 'ava';
import { versionLevels } from '../staging/builtins/host-probe.js';
import { MemoryStore } from '../store/memory-store.js';
import { DependencyResolver, nameSatisfies } from './dependencies.js';
import { providesIndexOps } from './package-actor.js';
import type { Package, PackageRecord, Requirement } from '../model/package.js';

let counter = 0;
function pkg(fqn: string, provides: Requirement[], dependencies: Requirement[] = [], extra: Partial<Package> = {}): PackageRecord {
  counter++;
  return {
    package: {
      uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
      fqn,
      name: fqn.split('::')[2]!,
      state: 'ready',
      resources: [],
      dependencies,
      provides,
      environment: {},
      templates: [],
      tags: {},
      staging_pipeline_fqn: '',
      stager_job_fqns: [],
      error_message: '',
      version_id: 1,
      created_at: '',
      updated_at: '',
      created_by: '',
      updated_by: '',
      ...extra,
    },
    uploaded: [],
  };
}

async function resolverWith(records: PackageRecord[]) {
  const store = new MemoryStore();
  await store.batch(records.flatMap((r) => providesIndexOps(undefined, r.package)));
  const byId = new Map(records.map((r) => [r.package.uuid, r]));
  return new DependencyResolver(store, async (ids) => ids.map((id) => byId.get(id)).filter((r): r is PackageRecord => r !== undefined));
}

/** A runtime package as the built-ins register it: every version level, on os.linux. */
const runtime = (name: string, version: string) =>
  pkg(`package::/platform/runtimes::${name}-${version}`, versionLevels(name, version).map((n) => ({ type: 'runtime' as const, name: n })), [{ type: 'os', name: 'linux' }]);

test('dependencies: general names match more specific ones, not other names', (t) => {
  t.true(nameSatisfies('node-20.20.2', 'node'));
  t.true(nameSatisfies('node-20.20.2', 'node-20'));
  t.true(nameSatisfies('node', 'node'));
  t.false(nameSatisfies('nodejs', 'node'));
  t.false(nameSatisfies('node-20', 'node-20.20'));
});

test('dependencies: install order puts dependencies first; the newest runtime wins; exact names first', async (t) => {
  const os = pkg('package::/platform/os::linux', [{ type: 'os', name: 'linux' }]);
  const node18 = runtime('node', '18.19.0');
  const node20 = runtime('node', '20.20.2');
  const app = pkg('package::/apps::web', [], [{ type: 'runtime', name: 'node' }]);
  const r = await resolverWith([os, node18, node20, app]);
  t.deepEqual((await r.resolveInstallOrder([app.package.uuid])).map((x) => x.package.fqn), [os.package.fqn, node20.package.fqn, app.package.fqn]);
  const pinned = pkg('package::/apps::old', [], [{ type: 'runtime', name: 'node-18' }]);
  const r2 = await resolverWith([os, node18, node20, pinned]);
  t.deepEqual((await r2.resolveInstallOrder([pinned.package.uuid])).map((x) => x.package.fqn)[1], node18.package.fqn);
  // A package providing only the exact name satisfies the general requirement too.
  const only = pkg('package::/x::py', [{ type: 'runtime', name: 'python-3.11.7' }], []);
  const r3 = await resolverWith([only]);
  t.deepEqual((await r3.resolveRequirements([{ type: 'runtime', name: 'python' }])).map((x) => x.package.fqn), ['package::/x::py']);
});

test('dependencies: a requirement met by a package already chosen is not met again; packages by name and fqn', async (t) => {
  const os = pkg('package::/platform/os::linux', [{ type: 'os', name: 'linux' }]);
  const nginx = pkg('package::/tools::nginx', [], [{ type: 'os', name: 'linux' }]);
  const app = pkg('package::/apps::site', [], [{ type: 'package', name: 'nginx' }, { type: 'os', name: 'linux' }]);
  const r = await resolverWith([os, nginx, app]);
  const order = await r.resolveInstallOrder([app.package.uuid]);
  t.deepEqual(order.map((x) => x.package.fqn), [os.package.fqn, nginx.package.fqn, app.package.fqn]);
  t.deepEqual((await r.resolveRequirements([{ type: 'package', name: 'package::/tools::nginx' }])).map((x) => x.package.fqn), [os.package.fqn, nginx.package.fqn]);
});

test('dependencies: the unsatisfiable message of the notes; best effort skips; packages not ready are no candidates', async (t) => {
  const staging = pkg('package::/tools::nginx', [], [], { state: 'staging' });
  const r = await resolverWith([staging]);
  const err = await t.throwsAsync(r.resolveRequirements([{ type: 'package', name: 'nginx' }]));
  t.is(err.message, 'Failed to update package dependencies: Failed to resolve packages: no packages satisfy dependency "package.nginx"');
  const app = pkg('package::/apps::a', [], [{ type: 'package', name: 'nginx' }]);
  const r2 = await resolverWith([staging, app]);
  t.deepEqual((await r2.resolveInstallOrder([app.package.uuid], { bestEffort: true })).map((x) => x.package.fqn), ['package::/apps::a']);
});

test('dependencies: the requester namespace is preferred among equal candidates; a cycle ends', async (t) => {
  const a = pkg('package::/team::tool', [{ type: 'package', name: 'tool' }], [{ type: 'package', name: 'b' }]);
  const b = pkg('package::/team::b', [], [{ type: 'package', name: 'tool' }]);
  const other = pkg('package::/other::tool', [{ type: 'package', name: 'tool' }]);
  const r = await resolverWith([a, b, other]);
  const order = await r.resolveRequirements([{ type: 'package', name: 'tool' }], '/team');
  t.deepEqual(order.map((x) => x.package.fqn), ['package::/team::b', 'package::/team::tool']);
});
