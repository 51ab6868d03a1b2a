// The controller's floor plan, enforced (docs/architecture.md, "Floor plan", draws it).
// `npm run lint:deps` (part of `npm test`) fails on an import cycle, a cycle between
// folders, or an import that runs up the plan. Bottom to top:
//
//   foundation  model/ util/ telemetry/ errors.ts        shared vocabulary and tools
//   storage     store/ blobs/
//   context     context.ts                                 Deps and ChangeContext
//   actors      actors/
//   cluster     agents/, then scheduler/ (placement, reconciler, restart tracker, instance table)
//   api         api/                                       HTTP conventions only: no domain
//   domains     jobs/ packages/ staging/ instances/ auth/ policy/ audit/ logs/ cluster/
//               services/ networks/ router/ metrics/ tasks/ images/ manifests/ console/ quotas/ secrets/
//                                                          may use each other without cycles
//   top         controller.ts (composition), node.ts (one of several on etcd), index.ts (entry), bin/
//
// A new folder must be given its place here first (rule "not-in-plan").
const SRC = '^controller/src/';
const FOUNDATION = `${SRC}(?:(?:model|util|telemetry)/|errors\\.ts$)`;
const STORAGE = `${SRC}(?:store|blobs)/`;
const CONTEXT = `${SRC}context\\.ts$`;
const ACTORS = `${SRC}actors/`;
const AGENTS = `${SRC}agents/`;
const SCHEDULER = `${SRC}scheduler/`;
const API = `${SRC}api/`;
const DOMAINS = `${SRC}(?:jobs|packages|staging|instances|auth|policy|audit|logs|cluster|services|networks|router|metrics|tasks|images|manifests|console|quotas|secrets)/`;
const TOP = `${SRC}(?:controller\\.ts$|node\\.ts$|index\\.ts$|bin/)`;
const TESTS = '\\.test\\.ts$';

/** A layer may import only the layers listed (itself included); packages outside src are not concerned. */
function layer(name, from, allowed) {
  return {
    name: `layer-${name}`,
    comment: `${name} imports only ${allowed.map(([n]) => n).join(', ')} (an import up the plan)`,
    severity: 'error',
    from: { path: from, pathNot: TESTS },
    to: { path: SRC, pathNot: [...allowed.map(([, p]) => p), TOP] },
  };
}

const foundation = ['foundation', FOUNDATION];
const storage = ['store/blobs', STORAGE];
const context = ['context', CONTEXT];
const actors = ['actors', ACTORS];
const agents = ['agents', AGENTS];
const scheduler = ['scheduler', SCHEDULER];
const api = ['api', API];
const domains = ['domains', DOMAINS];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'modules import each other in a circle',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment: 'two folders import each other (directly or through others): one of them is in the wrong place',
      severity: 'error',
      scope: 'folder',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'not-in-plan',
      comment: 'a controller module outside the folders of the plan: give it a layer in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: SRC, pathNot: [FOUNDATION, STORAGE, CONTEXT, ACTORS, AGENTS, SCHEDULER, API, DOMAINS, TOP] },
      to: {},
    },
    layer('foundation', FOUNDATION, [foundation]),
    layer('store/blobs', STORAGE, [foundation, storage]),
    layer('context', CONTEXT, [foundation, storage]),
    layer('actors', ACTORS, [foundation, storage, context, actors]),
    layer('agents', AGENTS, [foundation, storage, context, actors, agents]),
    layer('scheduler', SCHEDULER, [foundation, storage, context, actors, agents, scheduler]),
    layer('api', API, [foundation, context, api]),
    layer('domains', DOMAINS, [foundation, storage, context, actors, agents, scheduler, api, domains]),
    {
      name: 'layer-top',
      comment: 'nothing below imports the composition (controller.ts), the entry (index.ts) or the binaries',
      severity: 'error',
      from: { path: SRC, pathNot: [TOP, TESTS] },
      to: { path: TOP },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests are left out: nothing imports a test, and a test may reach any layer it checks.
    exclude: { path: ['(?:^|/)dist/', '(?:^|/)generated/', '\\.test\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
