/**
 * Clients of the original platform: every served request of its 2016 Swagger file, sent as the
 * clients generated from that file sent it (`Accept: application/json`, `Content-Type:
 * application/json`, the bodies their models produce), answers `application/json` with fields
 * that match the file's schemas wherever the file and the specification agree.
 *
 * How it stays true as endpoints are added: ROWS names, for each request, the operation of the
 * file it belongs to. Every operation of the file without a row is probed, and must answer the
 * "not served" 404 (or be a path that the specification dropped): an operation that starts
 * being served fails here until it gets a row. Where the file is wrong against the
 * specification, CORRECTIONS (per definition) and a row's `answer` (per operation) say so and
 * why; docs/api.md ("Clients of the original platform") lists the same.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import type { ApiErrorBody, Job } from '@platform/controller';
import { HTTP_APP, tarGz, uploadPackage } from '../harness/apps.js';
import { gatewayAppArchive, gatewayAppJob } from '../harness/gateway-app.js';
import { AgentProcess } from '../harness/agent-process.js';
import { FAST_AGENT_TIMING, testIsolation } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { digestOf, unique } from '../harness/fixtures.js';
import type { ApiClient, Reply } from '../harness/http.js';
import { adaptSchema, loadSwagger2016, operations, SwaggerValidator, type OperationKey, type Schema } from '../harness/swagger-2016.js';
import { eventually } from '../harness/wait.js';

/**
 * Where the file is wrong against the specification, the definition as the specification has
 * it. Each entry is one line of docs/api.md's list.
 */
const CORRECTIONS: Record<string, (d: Schema) => Schema> = {
  // The file: the job's uuid typed boolean, the score an integer, and instance_state_count a map
  // of state -> InstanceState (an object of counts); the spec: the job uuid (a string), a ratio
  // between 0 and 1, and a map of instance state -> integer.
  JobHealth: (d) =>
    withProps(d, {
      uuid: { type: 'string' },
      score: { type: 'number', minimum: 0, maximum: 1 },
      instance_state_count: { type: 'object', additionalProperties: { type: 'integer' } },
    }),
  // The file: the instance's state an InstanceState (an object of counts), its instance manager
  // `instance_manager`; the spec: the state's name (a string), `instance_manager_uuid`.
  Instances: (d) => withProps(d, { state: { type: 'string' }, instance_manager: undefined, instance_manager_uuid: { type: 'string' } }),
  // The file: the pipeline a bare uuid string; the spec: `staging_pipeline {uuid}`.
  Package: (d) => withProps(d, { staging_pipeline: { type: 'object', properties: { uuid: { type: 'string' } }, required: ['uuid'] } }),
  // The file models `processes` as a map of {app: ProcessObject}, one level too deep; the spec:
  // a map of process name -> Process, whose fields are the file's ProcessObject.
  Process: () => adaptSchema(swagger.definitions['ProcessObject']) as Schema,
  // The file: an entry's size a number; the spec: a number for files, "-" for directories.
  FileListing: (d) => withProps(d, { size: { type: ['number', 'string'] } }),
  // The file: version_id a string; ours an integer like every version_id of the spec (Job, Package).
  StagingPipeline: (d) => withProps(d, { version_id: { type: 'integer', format: 'int64' } }),
  // The file: task times int64 UNIX nanoseconds, which the spec keeps; today's times (about
  // 1.8e18) are over 2^53, so a JSON reader in JavaScript (this check too) holds them as
  // doubles, not safe integers. The values are integers all the same.
  Task: (d) => withProps(d, { time_started: { type: 'integer' }, time_completed: { type: 'integer' } }),
  TaskEvent: (d) => withProps(d, { time: { type: 'integer' } }),
  // The file: the service's created_at a number (UNIX time); the spec: timestamps are ISO 8601 strings.
  Service: (d) => withProps(d, { created_at: { type: 'string', format: 'date-time' } }),
  // The file: `payload`, a string; the spec: `audit_payload`, an object (patches or a claim).
  AuditLogItem: (d) => withProps(d, { payload: undefined, audit_payload: { type: 'object' } }),
};

/** Fields of the specification that the file does not know; its clients ignore them. */
const SPEC_FIELDS_NOT_IN_THE_FILE: Record<string, readonly string[]> = {
  Job: ['udp_ports', 'rolling_mode_paused', 'scheduling_tags', 'drains', 'monitoring', 'autoscaling', 'aggregate_network_routes', 'sticky_session_cookies'],
  RolloutConfig: ['rolling_mode', 'failure_threshold'],
  APIError: ['error_details'],
  Package: ['templates', 'stager_job_fqns'],
  StagingPipeline: ['auto_id'],
  InstanceManager: ['uptime'],
};

/** Fields that this platform answers beyond the specification (docs/api.md documents each). */
const FIELDS_OF_OURS: Record<string, readonly string[]> = {
  Instances: ['ports', 'reason', 'running_since'],
  Job: ['secrets', 'app_token'],
  JobHealth: ['message'],
  InstanceManager: ['status', 'address', 'isolation', 'cgroups', 'version'],
  // behaviour notes: a Provider's parameters; created_by/created_at as every resource has them.
  Provider: ['parameters', 'created_at', 'created_by'],
  // The service's name, as POST /services takes it (ServiceRequestObject).
  Service: ['name'],
};

const EXTRA_FIELDS: Record<string, readonly string[]> = {};
for (const table of [SPEC_FIELDS_NOT_IN_THE_FILE, FIELDS_OF_OURS]) {
  for (const [def, fields] of Object.entries(table)) EXTRA_FIELDS[def] = [...(EXTRA_FIELDS[def] ?? []), ...fields];
}

function withProps(d: Schema, props: Record<string, Schema | undefined>): Schema {
  const properties = { ...(d['properties'] as Schema) };
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) delete properties[k];
    else properties[k] = v;
  }
  return { ...d, properties };
}

const swagger = loadSwagger2016();
const validator = new SwaggerValidator(swagger, { corrections: CORRECTIONS, extraFields: EXTRA_FIELDS });

/** The headers of every request of the generated clients (Ruby and Node alike). */
const CLIENT_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };
const PLAIN_JSON = 'application/json; charset=utf-8';

interface Fixture {
  controller: ControllerProcess;
  agent: AgentProcess;
  /** Logged in as the administrator, sending the 2016 clients' headers. */
  api: ApiClient;
  ns: string;
  ids: Record<string, string>;
  archive: Buffer;
  running: () => Promise<{ uuid: string }>;
}

interface Sent {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  /** The operation of the file this request is an instance of. */
  op: OperationKey;
  /** What the 2016 client sent (path with /v1, as the file's basePath says). */
  send: (fx: Fixture) => Sent | Promise<Sent>;
  status?: number;
  /**
   * What the answer is when the file's operation names no schema, or names the wrong one:
   * a definition (`Job`, `Job[]`), `json` (JSON the file does not describe), `empty`, `bytes`.
   */
  answer?: string;
  /** Why `answer` overrides the file's schema, when it does. */
  why?: string;
  after?: (fx: Fixture, reply: Reply) => void | Promise<void>;
}

const rawBytes = (fx: Fixture) => fx.archive;

/** GET /jobs/routes/{endpoint} names the job routed there. */
function assertRouteMap(body: unknown, endpoint: string, job: string): void {
  const uuids = (body as Record<string, string[]>)[endpoint];
  if (!uuids?.includes(job)) throw new Error(`route map ${JSON.stringify(body)} lacks ${endpoint} -> ${job}`);
}

/** The rows run in order: later ones use what earlier ones created (fx.ids). */
const ROWS: Row[] = [
  { op: 'get /info', send: () => ({ method: 'GET', path: '/v1/info' }) },
  { op: 'get /version', send: () => ({ method: 'GET', path: '/v1/version' }) },
  { op: 'get /apc/version', send: () => ({ method: 'GET', path: '/v1/apc/version' }) },
  // The 2016 name of GET /cli/download/{platform}: the client's archive (a gzip tar unless Accept names application/zip).
  { op: 'get /apc/download/{platform}', send: () => ({ method: 'GET', path: '/v1/apc/download/linux' }), answer: 'bytes' },
  { op: 'get /runtimes', send: () => ({ method: 'GET', path: '/v1/runtimes' }) },
  {
    op: 'get /stagingpipelines',
    send: () => ({ method: 'GET', path: '/v1/stagingpipelines?fqn=stagpipe::/platform::bash' }),
    after: (fx, r) => void (fx.ids['bashPipeline'] = (r.body as { uuid: string }[])[0]!.uuid),
  },
  {
    op: 'post /packages',
    send: (fx) => ({
      method: 'POST',
      path: '/v1/packages',
      body: {
        fqn: `package::${fx.ns}::app`,
        name: 'app',
        resources: [{ length: fx.archive.length, digest: digestOf(fx.archive, 'sha1') }],
        provides: [{ type: 'runtime', name: 'compat-rt' }],
        environment: { GREETING: 'hello' },
        tags: { origin: '2016' },
      },
    }),
    after: (fx, r) => void (fx.ids['package'] = (r.body as { uuid: string }).uuid),
  },
  {
    op: 'put /packages/resources/{uuid}',
    send: (fx) => ({ method: 'PUT', path: `/v1/packages/resources/${fx.ids['package']}`, body: rawBytes(fx), headers: { 'content-type': 'application/octet-stream' } }),
    answer: 'json',
  },
  {
    // The file's form of the body: `resource` (deprecated, singular) with `sha1`, the pipeline as a bare uuid.
    op: 'post /packages',
    send: (fx) => ({
      method: 'POST',
      path: '/v1/packages',
      body: {
        fqn: `package::${fx.ns}::staged`,
        resource: { length: fx.archive.length, sha1: createHash('sha1').update(fx.archive).digest('hex') },
        staging_pipeline: fx.ids['bashPipeline'],
      },
    }),
    after: (fx, r) => {
      const pkg = r.body as { uuid: string; resources: { uuid: string }[] };
      fx.ids['staged'] = pkg.uuid;
      fx.ids['stagedResource'] = pkg.resources[0]!.uuid;
    },
  },
  {
    op: 'put /packages/{package_uuid}/resources/{resource_uuid}',
    send: (fx) => ({
      method: 'PUT',
      path: `/v1/packages/${fx.ids['staged']}/resources/${fx.ids['stagedResource']}`,
      body: rawBytes(fx),
      headers: { 'content-type': 'application/octet-stream', 'content-digest': digestOf(fx.archive, 'sha1') },
    }),
    answer: 'json',
  },
  { op: 'get /packages/{uuid}', send: (fx) => ({ method: 'GET', path: `/v1/packages/${fx.ids['package']}` }) },
  { op: 'get /packages', send: (fx) => ({ method: 'GET', path: `/v1/packages?fqn=package::${fx.ns}&matchPartialFQN=true&tag=origin` }) },
  { op: 'get /packages', send: (fx) => ({ method: 'GET', path: `/v1/packages?ids=${fx.ids['package']},${fx.ids['staged']}&provides_type=runtime&provides_name=compat-rt` }) },
  {
    op: 'put /packages/{uuid}',
    send: async (fx) => {
      const current = await fx.api.get(`/v1/packages/${fx.ids['package']}`);
      const body = validator.throughModel({ $ref: '#/definitions/Package' }, current.body) as Record<string, unknown>;
      return { method: 'PUT', path: `/v1/packages/${fx.ids['package']}`, body: { ...body, tags: { ...(body['tags'] as object), reviewed: 'yes' } } };
    },
    answer: 'Package',
    why: 'the file names no schema for the answer; the spec: the updated Package',
  },
  { op: 'get /packages/resources/{uuid}', send: (fx) => ({ method: 'GET', path: `/v1/packages/resources/${fx.ids['package']}` }), answer: 'bytes' },
  {
    op: 'post /packages/dependencies',
    send: (fx) => ({ method: 'POST', path: '/v1/packages/dependencies', body: { job_target: fx.ns, dependencies: [{ type: 'runtime', name: 'compat-rt' }] } }),
  },
  {
    op: 'post /jobs',
    send: (fx) => ({
      method: 'POST',
      path: '/v1/jobs',
      body: {
        fqn: `job::${fx.ns}::web`,
        name: 'web',
        num_instances: 1,
        packages: [{ uuid: fx.ids['package'] }],
        processes: { app: { start_command: 'node /app/server.js', start_command_timeout: 30, stop_timeout: 5, environment: { MODE: 'compat' } } },
        ports: [{ number: 0, optional: false }],
        resources: { cpu: 0, memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024, network: 5_000_000, netmax: 0 },
        restart: { restart_mode: 'always', maximum_attempts: 0 },
        rollout: { force_stop_old_instances_after: 120, flapping_minimum_restarts: 3, flapping_percent: 0.5, flapping_window: 300, errored_state_window: 0 },
        tags: { app: '', tier: 'web' },
        state: 'started',
      },
    }),
    after: (fx, r) => void (fx.ids['job'] = (r.body as Job).uuid),
  },
  { op: 'get /jobs/{uuid}', send: (fx) => ({ method: 'GET', path: `/v1/jobs/${fx.ids['job']}` }) },
  {
    // A registry nobody listens on: the task starts (and ends errored), which is what is checked here.
    op: 'post /jobs/docker',
    send: (fx) => ({ method: 'POST', path: '/v1/jobs/docker', body: { image_url: '127.0.0.1:9/compat/app:v1', job_fqn: `job::${fx.ns}::docker`, start: false } }),
    answer: 'CreateDockerJobResponse',
    why: 'the file says 201; the asynchronous creates answer 200 with the task location, like every create here',
    after: (fx, r) => void (fx.ids['task'] = new URL((r.body as { location: string }).location).pathname.split('/').pop()!),
  },
  { op: 'get /tasks/{uuid}', send: (fx) => ({ method: 'GET', path: `/v1/tasks/${fx.ids['task']}` }) },
  { op: 'get /jobs', send: (fx) => ({ method: 'GET', path: `/v1/jobs?fqn=job::${fx.ns}&matchPartialFQN=true&tag=app,tier=web&health=true&count=10&page=1` }) },
  { op: 'get /jobs', send: (fx) => ({ method: 'GET', path: `/v1/jobs?ids=${fx.ids['job']}&name=web&package_id=${fx.ids['package']}` }) },
  {
    op: 'get /jobs/{uuid}/instances',
    send: async (fx) => {
      fx.ids['instance'] = (await fx.running()).uuid;
      return { method: 'GET', path: `/v1/jobs/${fx.ids['job']}/instances` };
    },
    answer: 'Instances[]',
    why: 'the file names no schema for the answer; its Instances definition is the spec\'s Instance',
  },
  {
    op: 'get /jobs/health',
    send: (fx) => ({ method: 'GET', path: `/v1/jobs/health?ids=${fx.ids['job']}` }),
    answer: 'JobHealth[]',
    why: 'the file: one JobHealth; the spec: an array of JobHealth, one per job asked for',
  },
  { op: 'get /instance_managers', send: () => ({ method: 'GET', path: '/v1/instance_managers' }) },
  {
    op: 'get /metrics/jobs',
    send: (fx) => ({ method: 'GET', path: `/v1/metrics/jobs?metric=${encodeURIComponent(`job::${fx.ns},cpu.mean:avg-1h,-6h,now`)}&metric=${encodeURIComponent('job::/nowhere::x,cpu.sum')}` }),
  },
  { op: 'get /metrics/instance_managers', send: () => ({ method: 'GET', path: `/v1/metrics/instance_managers?metric=${encodeURIComponent('*,cpu:max-10min,-1h')}` }) },
  { op: 'get /instance_managers/{uuid}', send: (fx) => ({ method: 'GET', path: `/v1/instance_managers/${fx.agent.uuid}` }) },
  {
    op: 'get /instance_managers/{uuid}/instances',
    send: (fx) => ({ method: 'GET', path: `/v1/instance_managers/${fx.agent.uuid}/instances` }),
    answer: 'json',
    why: 'the file: an array of Instances (a job\'s instance); the spec: an array of InstanceStatus, which the file does not define',
  },
  { op: 'get /jobs/{uuid}/files/{path}', send: (fx) => ({ method: 'GET', path: `/v1/jobs/${fx.ids['job']}/files/app` }) },
  // The instance root: directories among the entries.
  { op: 'get /jobs/{uuid}/files/{path}', send: (fx) => ({ method: 'GET', path: `/v1/jobs/${fx.ids['job']}/files/` }) },
  {
    op: 'post /jobs/{uuid}/logs/drains',
    send: (fx) => ({ method: 'POST', path: `/v1/jobs/${fx.ids['job']}/logs/drains`, body: { url: 'syslog://127.0.0.1:6514', conf: { protocol: 'udp' } } }),
  },
  {
    op: 'get /jobs/{uuid}/logs/drains',
    send: (fx) => ({ method: 'GET', path: `/v1/jobs/${fx.ids['job']}/logs/drains` }),
    answer: 'json',
    why: 'the file: one Drain; the spec: an array of Drain',
  },
  {
    op: 'delete /jobs/{uuid}/logs/drains/{drain_uuid}',
    send: async (fx) => {
      const list = await fx.api.get<{ uuid: string }[]>(`/v1/jobs/${fx.ids['job']}/logs/drains`);
      return { method: 'DELETE', path: `/v1/jobs/${fx.ids['job']}/logs/drains/${list.body[0]!.uuid}` };
    },
    answer: 'json',
    why: 'the file: the deleted Drain; the spec: the updated Job',
  },
  { op: 'get /jobs/{uuid}/logs', send: (fx) => ({ method: 'GET', path: `/v1/jobs/${fx.ids['job']}/logs?lines=10` }), answer: 'bytes' },
  {
    op: 'put /jobs/{uuid}',
    send: async (fx) => {
      const current = await fx.api.get(`/v1/jobs/${fx.ids['job']}`);
      const body = validator.throughModel({ $ref: '#/definitions/Job' }, current.body) as Record<string, unknown>;
      return { method: 'PUT', path: `/v1/jobs/${fx.ids['job']}`, body: { ...body, tags: { ...(body['tags'] as object), reviewed: 'yes' } } };
    },
  },
  {
    // Deploy workflow step 12: an HTTP route added to the port entry, the whole job PUT back.
    op: 'put /jobs/{uuid}',
    send: async (fx) => {
      const current = await fx.api.get(`/v1/jobs/${fx.ids['job']}`);
      const body = validator.throughModel({ $ref: '#/definitions/Job' }, current.body) as Record<string, unknown>;
      const route = { type: 'http', endpoint: `web-${fx.ns.split('/').pop()}.compat.test`, weight: 0 };
      fx.ids['route'] = route.endpoint;
      return { method: 'PUT', path: `/v1/jobs/${fx.ids['job']}`, body: { ...body, ports: [{ number: 0, optional: false, routes: [route] }] } };
    },
  },
  { op: 'get /jobs/routes', send: () => ({ method: 'GET', path: '/v1/jobs/routes' }) },
  {
    op: 'get /jobs/routes/{endpoint}',
    send: (fx) => ({ method: 'GET', path: `/v1/jobs/routes/${Buffer.from(fx.ids['route']!).toString('base64url')}` }),
    after: (fx, r) => void assertRouteMap(r.body, fx.ids['route']!, fx.ids['job']!),
  },
  { op: 'get /audit', send: (fx) => ({ method: 'GET', path: `/v1/audit?fqn=job::${fx.ns}&start_time=0&end_time=${Math.ceil(Date.now() / 1000) + 60}&event_type=job.create` }) },
  {
    op: 'get /audit_logs',
    send: (fx) => ({ method: 'GET', path: `/v1/audit_logs?fqn=package::${fx.ns}` }),
    answer: 'AuditLogItem[]',
    why: 'the file describes /audit_logs with an older request-log item (action, method, t...); the 2016 name answers what GET /audit answers',
  },
  {
    op: 'post /stagingpipelines',
    send: (fx) => ({ method: 'POST', path: '/v1/stagingpipelines', body: { fqn: `stagpipe::${fx.ns}::pipe`, name: 'pipe', stagers: [{ uuid: fx.ids['job'] }] } }),
    answer: 'StagingPipeline',
    why: 'the file names no schema for the answer; the spec: the StagingPipeline',
    after: (fx, r) => void (fx.ids['pipeline'] = (r.body as { uuid: string }).uuid),
  },
  {
    op: 'get /stagingpipelines/{uuid}',
    send: (fx) => ({ method: 'GET', path: `/v1/stagingpipelines/${fx.ids['pipeline']}` }),
    answer: 'StagingPipeline',
    why: 'the file names no schema for the answer',
  },
  {
    op: 'put /stagingpipelines/{uuid}',
    send: async (fx) => {
      const current = await fx.api.get(`/v1/stagingpipelines/${fx.ids['pipeline']}`);
      return { method: 'PUT', path: `/v1/stagingpipelines/${fx.ids['pipeline']}`, body: validator.throughModel({ $ref: '#/definitions/StagingPipeline' }, current.body) };
    },
    answer: 'StagingPipeline',
    why: 'the file has no body parameter (its clients cannot send one) and no answer schema; the spec\'s clients send the pipeline',
  },
  { op: 'delete /stagingpipelines/{uuid}', send: (fx) => ({ method: 'DELETE', path: `/v1/stagingpipelines/${fx.ids['pipeline']}` }), answer: 'empty' },
  {
    op: 'delete /jobs/{uuid}/instances/{instance_uuid}',
    send: (fx) => ({ method: 'DELETE', path: `/v1/jobs/${fx.ids['job']}/instances/${fx.ids['instance']}` }),
    answer: 'empty',
  },
  {
    // A gateway first (a job promoted: not an operation of the file), then a provider on it.
    op: 'post /providers',
    send: async (fx) => {
      const pkg = await uploadPackage(fx.api, fx.ns, gatewayAppArchive());
      const job = (await fx.api.post<Job>('/v1/jobs', { ...gatewayAppJob(`job::${fx.ns}::gateway`, pkg.uuid), state: 'started' })).body;
      fx.ids['gatewayJob'] = job.fqn;
      await eventually(async () => (await fx.api.get<{ state: string }[]>(`/v1/jobs/${job.uuid}/instances`)).body.some((i) => i.state === 'RUNNING'), { timeoutMs: 60_000, what: 'the gateway running' });
      fx.ids['type'] = `compat-${unique()}`.toLowerCase();
      const promoted = await fx.api.post('/v1/gateways', { job_fqn: job.fqn, type: fx.ids['type'] });
      if (promoted.status !== 200) throw new Error(`promotion failed: ${promoted.text}`);
      return { method: 'POST', path: '/v1/providers', body: { fqn: `provider::${fx.ns}::db`, type: fx.ids['type'], name: 'db', description: 'compat', parameters: { url: 'scripted://admin:pw@db:5432' } } };
    },
    answer: 'Provider',
    why: 'the file: an array of Provider; the spec: the provider created',
    after: (fx, r) => void (fx.ids['provider'] = (r.body as { uuid: string }).uuid),
  },
  { op: 'get /providers', send: () => ({ method: 'GET', path: '/v1/providers' }) },
  {
    op: 'post /services',
    send: (fx) => ({ method: 'POST', path: '/v1/services', body: { fqn: `service::${fx.ns}::db`, provider_fqn: `provider::${fx.ns}::db`, description: 'compat', parameters: { db: '1' } } }),
    after: (fx, r) => void (fx.ids['service'] = (r.body as { uuid: string }).uuid),
  },
  { op: 'get /services', send: () => ({ method: 'GET', path: '/v1/services' }) },
  {
    op: 'post /bindings',
    send: (fx) => ({ method: 'POST', path: '/v1/bindings', body: { name: 'db', job_fqn: `job::${fx.ns}::web`, service_fqn: `service::${fx.ns}::db` } }),
  },
  { op: 'post /unbind', send: (fx) => ({ method: 'POST', path: '/v1/unbind', body: { job: `job::${fx.ns}::web`, service: `service::${fx.ns}::db` } }), answer: 'empty' },
  {
    // A job link: the web job to the gateway job's port 0.
    op: 'post /bindings',
    send: (fx) => ({ method: 'POST', path: '/v1/bindings', body: { name: 'gw', job_fqn: `job::${fx.ns}::web`, target_job_fqn: fx.ids['gatewayJob'], target_job_port: '0' } }),
  },
  { op: 'post /unlink', send: (fx) => ({ method: 'POST', path: '/v1/unlink', body: { from_job: `job::${fx.ns}::web`, to_job: fx.ids['gatewayJob'], port: 0 } }), answer: 'empty' },
  { op: 'delete /services/{uuid}', send: (fx) => ({ method: 'DELETE', path: `/v1/services/${fx.ids['service']}` }), answer: 'empty' },
  { op: 'delete /providers/{uuid}', send: (fx) => ({ method: 'DELETE', path: `/v1/providers/${fx.ids['provider']}` }), answer: 'empty' },
  { op: 'delete /jobs/{uuid}', send: (fx) => ({ method: 'DELETE', path: `/v1/jobs/${fx.ids['job']}` }), answer: 'empty' },
  { op: 'get /jobs/{uuid}', send: (fx) => ({ method: 'GET', path: `/v1/jobs/${fx.ids['job']}` }), status: 404 },
  { op: 'delete /jobs/{uuid}', send: (fx) => ({ method: 'DELETE', path: `/v1/jobs/${fx.ids['job']}` }), status: 404 },
  { op: 'delete /packages/{uuid}', send: (fx) => ({ method: 'DELETE', path: `/v1/packages/${fx.ids['staged']}` }), answer: 'empty' },
];

let fx: Fixture | undefined;

test.before(async (t) => {
  // The registry and the drain the requests name are on loopback (nothing answers there): listed.
  const controller = await ControllerProcess.start({ env: FAST_AGENT_TIMING, allowedRegistries: ['127.0.0.1:9'], allowedDestinations: ['127.0.0.1:6514'] });
  const admin = await controller.admin();
  try {
    const agent = await AgentProcess.start(controller, admin, { isolation: testIsolation(t) });
    const api = admin.withHeaders({ ...admin.defaultHeaders, ...CLIENT_HEADERS });
    let running: Promise<{ uuid: string }> | undefined;
    const fixture: Fixture = {
      controller,
      agent,
      api,
      ns: `/compat/${unique()}`,
      ids: {},
      archive: tarGz({ 'app/server.js': HTTP_APP }),
      running: () =>
        (running ??= eventually(
          async () => {
            const list = (await admin.get<{ uuid: string; state: string }[]>(`/jobs/${fixture.ids['job']}/instances`)).body;
            return list.find((i) => i.state === 'RUNNING');
          },
          { timeoutMs: 60_000, what: 'the compat job running' },
        )),
    };
    fx = fixture;
  } catch (err) {
    await controller.dispose();
    throw err;
  }
});

test.after.always(async () => {
  await fx?.agent.dispose();
  await fx?.controller.dispose();
});

/** The schema the answer must match: the row's, else the file's for the operation and status. */
function answerSchema(row: Row, status: number): Schema | 'json' | 'empty' | 'bytes' | undefined {
  if (row.answer === 'json' || row.answer === 'empty' || row.answer === 'bytes') return row.answer;
  if (row.answer) return validator.named(row.answer);
  return validator.responseSchema(row.op, status);
}

async function send(api: ApiClient, s: Sent): Promise<Reply> {
  const headers = { ...api.defaultHeaders, ...s.headers };
  return api.withHeaders(headers).request(s.method, s.path, s.body === undefined ? {} : { body: s.body instanceof Buffer ? new Uint8Array(s.body) : s.body });
}

for (const [i, row] of ROWS.entries()) {
  test.serial(`compat 2016: ${String(i + 1).padStart(2, '0')} ${row.op}${row.status ? ` (${row.status})` : ''}`, async (t) => {
    const f = fx!;
    const sent = await row.send(f);
    const reply = await send(f.api, sent);
    const status = row.status ?? 200;
    t.is(reply.status, status, `${sent.method} ${sent.path}: ${reply.text.slice(0, 500)}`);
    if (reply.status !== status) return;
    await row.after?.(f, reply);
    const expected = answerSchema(row, status);
    const type = reply.headers.get('content-type');
    if (expected === 'empty') {
      t.is(reply.text, '');
    } else if (expected === 'bytes') {
      t.false(/json|vnd\.platform/.test(type ?? ''), `${type}`);
      t.true(reply.text.length > 0);
    } else {
      // A JSON answer, error bodies included: the type the 2016 clients accept.
      t.is(type, PLAIN_JSON, `${sent.method} ${sent.path}`);
      if (expected !== 'json' && expected !== undefined) {
        const problems = validator.validate(expected, reply.body);
        t.deepEqual(problems, [], `${sent.method} ${sent.path} against the file's ${row.answer ?? `${row.op} ${status}`}: ${JSON.stringify(reply.body).slice(0, 1500)}`);
      }
      if (status >= 400) t.is((reply.body as ApiErrorBody).code, status);
    }
  });
}

/** Operations of the file whose path the specification removed or never had; they answer 404 as any unknown path. */
const NOT_IN_THE_SPEC = new Set<OperationKey>([
  'get /logs/{channel}', // spec, Versioning 7: removed
  'get /jobs/{uuid}/compliance',
  'get /jobs/{uuid}/tunnel',
  'get /jobs/{uuid}/tunnel/{instance_id}',
  'post /job/{uuid}/instances/{instance_uuid}/snapshot', // the file's typo of /jobs/...
  'get /metrics/cluster',
  'get /metrics/route/counters',
  'get /metrics/route/timers',
  'get /namespace/default',
  'get /rules',
  'post /rules',
  'get /rules/{uuid}',
  'delete /rules/{uuid}',
  'get /tags',
]);

test.serial('compat 2016: every other operation of the file is one the platform does not serve yet, and answers so', async (t) => {
  const f = fx!;
  const covered = new Set(ROWS.map((r) => r.op));
  const uuid = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
  for (const op of operations(swagger)) {
    if (covered.has(op)) continue;
    const [method, template] = op.split(' ') as [string, string];
    const path = `/v1${template.replace(/\{platform\}/, 'linux_amd64').replace(/\{endpoint\}/, 'ZXhhbXBsZS5jb20').replace(/\{[a-z_]+\}/g, uuid)}`;
    const reply = await send(f.api, { method: method.toUpperCase(), path, ...(method === 'post' ? { body: {} } : {}) });
    const body = reply.body as ApiErrorBody & { error_details?: Record<string, unknown> };
    const notServed = reply.status === 404 && typeof body.error_details?.['not_served'] === 'string';
    const unknown = reply.status === 404 && /^no endpoint /.test(body.message);
    if (NOT_IN_THE_SPEC.has(op)) t.true(notServed || unknown, `${op}: ${reply.status} ${reply.text.slice(0, 300)}`);
    else t.true(notServed, `${op} answers ${reply.status} ${reply.text.slice(0, 300)}: when it is served, give it a row in ROWS (compat-2016.test.ts)`);
    t.is(reply.headers.get('content-type'), PLAIN_JSON, op);
  }
  for (const op of covered) t.true(operations(swagger).includes(op), `${op} is not an operation of the file`);
});

test('compat 2016: the adapted schemas catch a renamed field, a wrong type, a bad date; the model round trip drops what it does not know', (t) => {
  const job = validator.named('Job');
  const uuid = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
  t.deepEqual(validator.validate(job, { fqn: 'job::/a::b', uuid, created_at: '2026-11-21T22:11:52.715622317Z', processes: { app: { start_command: 'x' } } }), []);
  t.deepEqual(validator.validate(job, { fqn: 'job::/a::b', num_instance: 1 }), ['(the body): field "num_instance" is not in the Swagger definition']);
  t.deepEqual(validator.validate(job, { fqn: 'job::/a::b', num_instances: '1' }), ['/num_instances: must be integer']);
  t.deepEqual(validator.validate(job, { fqn: 'job::/a::b', created_at: 'yesterday' }), ['/created_at: must match format "date-time"']);
  t.deepEqual(validator.validate(job, { fqn: 'job::/a::b', rollout: { flapping_window: 1.5 } }), ['/rollout/flapping_window: must be integer', '/rollout/flapping_window: must match format "int32"']);
  t.deepEqual(validator.validate(job, { fqn: 'job::/a::b', processes: { app: { app: { start_command: 'x' } } } }), ['/processes/app: field "app" is not in the Swagger definition']);
  t.deepEqual(validator.validate(validator.named('JobHealth[]'), [{ uuid, score: 0.5, flapping: false, instance_state_count: { RUNNING: 1 } }]), []);
  t.deepEqual(
    validator.throughModel({ $ref: '#/definitions/Job' }, { fqn: 'job::/a::b', udp_ports: [], num_instances: '2', created_at: '2026-11-21T22:11:52.715622317Z', network_ref: null }),
    { fqn: 'job::/a::b', num_instances: 2, created_at: '2026-11-21T22:11:52.715Z' },
  );
});
