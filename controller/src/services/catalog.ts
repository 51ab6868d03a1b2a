/**
 * ServiceCatalog: gateways, providers, services and bindings (cluster-api.md "Binding", POST
 * /bindings, /unbind, /unlink; stager-and-gateway-api.md, the service gateway API).
 *
 * Every operation takes a parsed request (service-model.ts), so that an endpoint and a manifest
 * deployer call the same code, and a ReferenceCheck for what the request names (policy).
 *
 * The gateway of a type is a job, called with GatewayClient at the addresses of its RUNNING
 * instances, each call bounded (`gatewayTimeoutMs`). The state headers a gateway returns are
 * stored with the object they belong to and sent back on every later call about it (a
 * provider's with its services and bindings, a service's with its bindings).
 *
 * Nothing half done:
 *   create    gateway call first; then one store batch (record, changed states, audit). Every
 *             create goes through #create, which deletes again what the gateway may have made
 *             that the cluster does not keep (orphan mitigation): an answer the client refuses
 *             (not JSON, no id, a state header that is not URL-safe Base64 or over 4 KB), a
 *             batch that fails or a job that refuses the binding (before the error reaches the
 *             client), and a create that timed out (by the id of its late answer, once it comes).
 *             What cannot be deleted is logged with the gateway and the id, and counted.
 *   delete    gateway call first (a 404 counts as gone already); then one store batch. Refused
 *             (409) while services use the provider, or bindings the service, unless forced;
 *             `force` also carries on past a gateway that fails (the provider is gone).
 *   bindings  the job's `bindings` map changes through its actor, in the same batch as the
 *             binding's record and audit items; the job's instances are then replaced because
 *             their environment changes (JobActor.changeBindings).
 * Changes of one service type (its gateway, providers, services and service bindings) run one
 * at a time (a lock per type); links change only their job, inside its actor.
 *
 * Everything is kept in memory as well (there are few of these objects), loaded at start and
 * written through, so that the environment of an instance is found synchronously.
 */
import {
  createOutcome,
  GatewayCallError,
  GatewayClient,
  GatewayRefusedError,
  tierOf,
  type CreateOutcome,
  type GatewayReply,
  type MethodMap,
  type States,
} from '@platform/gateway-sdk';
import { destinationRefusal, type DestinationPolicy } from '@platform/proto/common';
import type { ChangeContext, Deps } from '../context.js';
import { BadGatewayError, ConflictError, DuplicateError, InvalidRequestError, NotFoundError, UnavailableError } from '../errors.js';
import type { JobService } from '../jobs/job-service.js';
import { parseFqn } from '../model/fqn.js';
import { RUNNING_STATES, type InstanceRecord } from '../model/instance.js';
import type { Job, JobBinding } from '../model/job.js';
import { isOutboundBinding, OUTBOUND_SERVICE_FQN, OUTBOUND_SERVICE_TYPE, outboundParameterError } from '../model/outbound.js';
import type { ReferenceCheck, ReferenceLookup } from '../policy/references.js';
import { keys } from '../store/keys.js';
import type { BatchOp } from '../store/store.js';
import { formatTimestampNs } from '../util/clock.js';
import { sortedRecord } from '../util/json.js';
import { KeyedLock } from '../util/keyed-lock.js';
import {
  nameVariable,
  renderGateway,
  renderProvider,
  renderService,
  uuidVariable,
  type BindRequest,
  type GatewayRecord,
  type PromoteRequest,
  type ProviderRecord,
  type ProviderRequest,
  type ServiceBindingRecord,
  type ServiceRecord,
  type ServiceRequest,
  type UnbindRequest,
  type UnlinkRequest,
} from './service-model.js';

/** What a gateway makes. */
export type OrphanKind = 'provider' | 'service' | 'binding';
/**
 * What became of an object a gateway may have made that the cluster does not keep: deleted
 * again (or the gateway has none: 404), not deleted (the delete failed: left at the gateway),
 * unknown (the answer named no id, or none came: it cannot be deleted from here).
 */
export type OrphanOutcome = 'deleted' | 'not_deleted' | 'unknown';

export interface ServiceCatalogOptions {
  /** Bound of one call to a gateway, connection included. */
  gatewayTimeoutMs: number;
  /**
   * How much longer a create that timed out is waited for (the client has its 503 at the
   * timeout): what its late answer names is deleted again. 0: not waited for (counted unknown).
   */
  gatewayLateAnswerMs?: number;
  /** Told of each object a gateway may have made that the cluster does not keep (platform_gateway_orphans_total). */
  onOrphan?: (type: string, kind: OrphanKind, outcome: OrphanOutcome) => void;
  /** The instances of a job (the scheduler's instance table): where its gateway is called. */
  instancesOf: (job: string) => readonly InstanceRecord[];
  /** For the controller's own job changes (removing a new gateway's public routes). */
  trusted: ReferenceCheck;
  /**
   * What a gateway job reaches changed (gatewayEndpoints answers anew): resolves once the agents
   * holding its instances have opened it (networks/egress-feed.ts reach). Absent: nothing waits.
   */
  reach?: (job: string) => Promise<void>;
  /**
   * The rule the back-ends a provider names must pass (--allowed-destinations), judged before
   * the gateway is asked and before its job is opened to them: a provider is what a user makes
   * the platform reach. Its refusals of the platform's own sockets (the controllers' ports,
   * etcd's) also keep those out of what any job is opened to. Absent: nothing judged.
   */
  destinations?: DestinationPolicy;
}

/** How long a provider's back-end name may take to resolve for its check. */
const PROVIDER_CHECK_TIMEOUT_MS = 5_000;

/** Where an instance serves its job's port 0 (the gateway's $PORT), else its first port. */
function addressOf(i: InstanceRecord): string | undefined {
  return i.ports['0'] ?? Object.values(i.ports)[0];
}

const localName = (fqn: string) => parseFqn(fqn).localName!;

/** The ports of the schemes bound services' urls commonly use, for a url that names none. */
const SCHEME_PORTS: Record<string, string> = { postgres: '5432', postgresql: '5432', redis: '6379', rediss: '6379', mysql: '3306', http: '80', https: '443', amqp: '5672', mongodb: '27017', ldap: '389' };
const namespaceOf = (fqn: string) => parseFqn(fqn).namespace;

/** "host:port" of a url (a url without a port: its scheme's, when known); undefined when it names none. */
function urlEndpoint(text: string): string | undefined {
  try {
    const u = new URL(text);
    const port = u.port || SCHEME_PORTS[u.protocol.replace(/:$/, '')];
    const host = u.hostname.replace(/^\[|\]$/g, '');
    return host && port ? `${host === 'localhost' ? '127.0.0.1' : host}:${port}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The back-ends a provider's parameters name: "host:port" of every string parameter that is a
 * url with a host (the built-in gateways' `url`; the parameters of other gateways are theirs,
 * and a url among them is taken as one they connect to).
 */
export function providerEndpoints(params: Record<string, unknown>): string[] {
  return [...new Set(providerBackEnds(params).map((b) => b.endpoint))].sort();
}

/** The same, each with the parameter naming it. */
function providerBackEnds(params: Record<string, unknown>): { field: string; endpoint: string }[] {
  const out: { field: string; endpoint: string }[] = [];
  for (const [field, v] of Object.entries(params)) {
    if (typeof v !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) continue;
    const endpoint = urlEndpoint(v);
    if (endpoint) out.push({ field, endpoint });
  }
  return out;
}

/** `host:port` split (the host of an IPv6 endpoint is not bracketed in ours). */
function splitEndpoint(endpoint: string): { host: string; port: number } {
  const at = endpoint.lastIndexOf(':');
  return { host: endpoint.slice(0, at), port: Number(endpoint.slice(at + 1)) };
}

/** A gateway's refusal with 404: the object is gone already (a delete then counts as done). */
const isGone = (err: unknown) => err instanceof GatewayRefusedError && err.status === 404;

export class ServiceCatalog {
  readonly #gateways = new Map<string, GatewayRecord>();
  readonly #providers = new Map<string, ProviderRecord>();
  readonly #services = new Map<string, ServiceRecord>();
  readonly #bindings = new Map<string, ServiceBindingRecord>();
  /** One change at a time per service type. */
  readonly #locks = new KeyedLock();
  /** Waits for the late answers of creates that timed out (see #create); ended by stop(). */
  readonly #late = new Set<Promise<void>>();
  readonly #stopping = new AbortController();
  /** The parameters of providers being created, by type: their gateway reaches them already. */
  readonly #creating = new Map<string, Record<string, unknown>[]>();

  constructor(
    private readonly deps: Deps,
    private readonly jobs: JobService,
    private readonly options: ServiceCatalogOptions,
  ) {}

  async load(): Promise<void> {
    const read = async <T>(prefix: string, into: Map<string, T>, keyOf: (t: T) => string) => {
      for await (const [, value] of this.deps.store.iterate({ prefix })) {
        const record = JSON.parse(value) as T;
        into.set(keyOf(record), record);
      }
    };
    await read(keys.gatewayPrefix, this.#gateways, (g) => g.type);
    await read(keys.providerPrefix, this.#providers, (p) => p.uuid);
    await read(keys.servicePrefix, this.#services, (s) => s.uuid);
    await read(keys.serviceBindingPrefix, this.#bindings, (b) => b.uuid);
  }

  /**
   * The built-in outbound network service (model/outbound.ts), made at the first start and kept:
   * it has no gateway; binding a job to it opens what the binding's parameters say.
   */
  async ensureOutboundService(): Promise<ServiceRecord> {
    const existing = [...this.#services.values()].find((s) => s.fqn === OUTBOUND_SERVICE_FQN);
    if (existing) return existing;
    const record: ServiceRecord = {
      uuid: this.deps.ids.uuid(),
      fqn: OUTBOUND_SERVICE_FQN,
      name: 'outbound-network',
      type: OUTBOUND_SERVICE_TYPE,
      provider_fqn: '',
      provider_uuid: '',
      description: 'Outbound network access: bind a job with ipnet or domainname, portrange and protocol',
      parameters: {},
      gateway_id: '',
      created_at: this.#now(),
      created_by: 'platform',
    };
    await this.deps.store.batch([{ type: 'put', key: keys.service(record.uuid), value: JSON.stringify(record) }]);
    this.#services.set(record.uuid, record);
    this.deps.log.info('built-in outbound network service made', { service: record.uuid, fqn: record.fqn });
    return record;
  }

  #now(): string {
    return formatTimestampNs(this.deps.clock.nowNs());
  }

  // ---- lookups ------------------------------------------------------------------------------

  /** How bodies refer to providers and services (policy/references.ts): by uuid or FQN. */
  referenceLookup(type: 'provider' | 'service'): ReferenceLookup {
    const records = (): Iterable<{ uuid: string; fqn: string }> => (type === 'provider' ? this.#providers.values() : this.#services.values());
    return {
      byUuid: async (uuids) => new Map([...records()].filter((r) => uuids.includes(r.uuid)).map((r) => [r.uuid, r.fqn])),
      byFqn: async (fqns) => new Map([...records()].filter((r) => fqns.includes(r.fqn)).map((r) => [r.fqn, r.uuid])),
    };
  }

  gateways(): GatewayRecord[] {
    return [...this.#gateways.values()].sort((a, b) => (a.type < b.type ? -1 : 1));
  }
  gateway(type: string): GatewayRecord | undefined {
    return this.#gateways.get(type);
  }
  providers(): ProviderRecord[] {
    return [...this.#providers.values()].sort((a, b) => (a.fqn < b.fqn ? -1 : 1));
  }
  provider(uuid: string): ProviderRecord | undefined {
    return this.#providers.get(uuid);
  }
  services(): ServiceRecord[] {
    return [...this.#services.values()].sort((a, b) => (a.fqn < b.fqn ? -1 : 1));
  }
  service(uuid: string): ServiceRecord | undefined {
    return this.#services.get(uuid);
  }

  // ---- calling gateways ---------------------------------------------------------------------

  /** A client of `gateway`'s RUNNING instances; 503 when none runs. */
  #client(gateway: Pick<GatewayRecord, 'type' | 'job_uuid' | 'job_fqn'>): GatewayClient {
    const addresses = this.options
      .instancesOf(gateway.job_uuid)
      .filter((i) => RUNNING_STATES.has(i.state) && i.stop === undefined && i.run === undefined)
      .map(addressOf)
      .filter((a): a is string => !!a);
    if (addresses.length === 0) {
      throw new UnavailableError(`the ${gateway.type} gateway (${gateway.job_fqn}) has no running instance`, 2000, {
        details: { gateway: gateway.type, gateway_job: gateway.job_fqn, failure: 'not_running' },
      });
    }
    return new GatewayClient(
      addresses.map((a) => `http://${a}`),
      { timeoutMs: this.options.gatewayTimeoutMs, lateAnswerMs: this.options.gatewayLateAnswerMs ?? 0, signal: this.#stopping.signal },
    );
  }

  /**
   * Stops waiting for late answers (each is then logged and counted as unknown); for the
   * controller's stop, once no request is in flight.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.allSettled([...this.#late]);
  }

  /** Runs one gateway call; its failure becomes the APIError that names the gateway and what it said. */
  async #call<T>(gateway: Pick<GatewayRecord, 'type' | 'job_uuid' | 'job_fqn'>, what: string, fn: (client: GatewayClient) => Promise<T>): Promise<T> {
    const client = this.#client(gateway);
    try {
      return await fn(client);
    } catch (err) {
      throw gatewayFailure(gateway, what, err);
    }
  }

  /** The gateway of `type`, or 400 naming how to make one. */
  #gatewayOf(type: string): GatewayRecord {
    const g = this.#gateways.get(type);
    if (!g) throw new InvalidRequestError(`no gateway serves service type "${type}": promote a job to it first (POST /gateways)`, { details: { type } });
    return g;
  }

  // ---- gateways -----------------------------------------------------------------------------

  /** POST /gateways: reads the job's `GET /`, records it as the gateway of the type, removes its public routes. */
  async promote(req: PromoteRequest, ctx: ChangeContext, refs: ReferenceCheck): Promise<GatewayRecord> {
    const [ref] = await refs.resolve([{ type: 'job', fqn: req.jobFqn, permission: 'promote', field: 'job_fqn' }]);
    return this.#locks.run(req.type, async () => {
      const existing = this.#gateways.get(req.type);
      if (existing) throw new DuplicateError(`service type ${req.type} has a gateway already (${existing.job_fqn}); demote it first`, { details: { type: req.type, job_fqn: existing.job_fqn } });
      const other = [...this.#gateways.values()].find((g) => g.job_uuid === ref!.uuid);
      if (other) throw new ConflictError(`job ${req.jobFqn} is the gateway of service type ${other.type} already`, { details: { type: other.type } });
      const target = { type: req.type, job_uuid: ref!.uuid, job_fqn: ref!.fqn };
      const map: MethodMap = await this.#call(target, 'describe itself (GET /)', (c) => c.describe());
      const record: GatewayRecord = { ...target, tier: tierOf(map), method_map: map, created_at: this.#now(), created_by: ctx.principal };
      await this.deps.store.batch([
        { type: 'put', key: keys.gateway(record.type), value: JSON.stringify(record) },
        { type: 'put', key: keys.gatewayOfJob(record.job_uuid), value: record.type },
        this.deps.audit.entry(ctx, 'gateway.promote', record.job_fqn, { patches: [{ op: 'add', path: `gateway/${record.type}`, value: renderGateway(record) }] }),
      ]);
      this.#gateways.set(record.type, record);
      try {
        await this.#removeRoutes(record.job_uuid, ctx);
      } catch (err) {
        await this.deps.store.batch([{ type: 'del', key: keys.gateway(record.type) }, { type: 'del', key: keys.gatewayOfJob(record.job_uuid) }]);
        this.#gateways.delete(record.type);
        throw err;
      }
      this.deps.log.info('gateway promoted', { type: record.type, job: record.job_fqn, tier: record.tier, request_id: ctx.requestId });
      return record;
    });
  }

  /** A gateway's public routes expose credentials: promotion removes them (spec, deployment of a gateway). */
  async #removeRoutes(jobUuid: string, ctx: ChangeContext): Promise<void> {
    const job = await this.jobs.find(jobUuid);
    if (!job || !job.ports.some((p) => p.routes.length > 0)) return;
    const body = { ...this.jobs.inputOf(job), ports: job.ports.map((p) => ({ ...p, routes: [] })) };
    await this.jobs.update(jobUuid, body, ctx, this.options.trusted, { mode: 'patch' });
  }

  /** DELETE /gateways/{type}: refused (409) while services of the type exist, unless forced. */
  async demote(type: string, force: boolean, ctx: ChangeContext): Promise<void> {
    await this.#locks.run(type, async () => {
      const g = this.#gateways.get(type);
      if (!g) throw new NotFoundError(`no gateway serves service type ${type}`);
      const services = [...this.#services.values()].filter((s) => s.type === type);
      if (services.length > 0 && !force) {
        throw new ConflictError(`service type ${type} has ${services.length} service(s) (${services.map((s) => s.fqn).join(', ')}); delete them first, or demote with force=true`, {
          details: { services: services.map((s) => s.fqn) },
        });
      }
      await this.deps.store.batch([
        { type: 'del', key: keys.gateway(type) },
        { type: 'del', key: keys.gatewayOfJob(g.job_uuid) },
        this.deps.audit.entry(ctx, 'gateway.demote', g.job_fqn, { patches: [{ op: 'remove', path: `gateway/${type}`, value: renderGateway(g) }] }),
      ]);
      this.#gateways.delete(type);
      this.deps.log.info('gateway demoted', { type, job: g.job_fqn, request_id: ctx.requestId });
    });
  }

  // ---- providers ----------------------------------------------------------------------------

  async createProvider(req: ProviderRequest, ctx: ChangeContext, refs: ReferenceCheck): Promise<ProviderRecord> {
    if (req.backing_job_fqn) await refs.resolve([{ type: 'job', fqn: req.backing_job_fqn, permission: 'read', field: 'backing_job_fqn' }]);
    // Judged before the type's lock is taken: resolving a name may take its whole bound, and the
    // other changes of the type do not wait for it.
    await this.#judgeBackEnds(req.parameters ?? {});
    return this.#locks.run(req.type, async () => {
      const gateway = this.#gatewayOf(req.type);
      if (gateway.tier !== 3) throw new InvalidRequestError(`the ${req.type} gateway (${gateway.job_fqn}) is two-tier: it manages no providers; create services of type ${req.type} directly`);
      const taken = [...this.#providers.values()].find((p) => p.fqn === req.fqn);
      if (taken) throw new DuplicateError(`provider ${req.fqn} exists already (uuid ${taken.uuid})`);
      // The gateway reaches the back-end the provider names before it is asked to create it (it
      // may connect at once), and no longer when it is not created.
      const creating = this.#creating.get(req.type) ?? [];
      const params = req.parameters ?? {};
      this.#creating.set(req.type, [...creating, params]);
      const opened = providerEndpoints(params).length > 0;
      if (opened) await this.options.reach?.(gateway.job_uuid);
      const forget = () => {
        const left = (this.#creating.get(req.type) ?? []).filter((p) => p !== params);
        if (left.length > 0) this.#creating.set(req.type, left);
        else this.#creating.delete(req.type);
      };
      let record: ProviderRecord;
      try {
        record = await this.#create(
        gateway,
        'provider',
        ctx,
        (c) => c.createProvider({ type: req.type, ...(req.name ? { name: req.name } : {}), ...(req.description ? { description: req.description } : {}), params: req.parameters }),
        (c, id, answered) => c.deleteProvider(id, { provider: answered.provider }),
        async (reply) => {
          const record: ProviderRecord = {
            uuid: this.deps.ids.uuid(),
            fqn: req.fqn,
            name: req.name || reply.object.name || req.localName,
            type: req.type,
            description: req.description ?? '',
            parameters: req.parameters,
            backing_job_fqn: req.backing_job_fqn ?? '',
            backing_job_port: req.backing_job_port ?? '',
            rootcerts: req.rootcerts ?? '',
            gateway_id: reply.object.id,
            ...(reply.states.provider ? { state: reply.states.provider } : {}),
            created_at: this.#now(),
            created_by: ctx.principal,
          };
          await this.deps.store.batch([
            { type: 'put', key: keys.provider(record.uuid), value: JSON.stringify(record) },
            this.deps.audit.entry(ctx, 'provider.create', record.fqn, { patches: [{ op: 'add', path: 'provider', value: renderProvider(record) }] }),
          ]);
          return record;
        },
      );
      } catch (err) {
        // Not created: closed again.
        forget();
        if (opened) await this.options.reach?.(gateway.job_uuid);
        throw err;
      }
      // Created: still open, as one of its type's providers.
      this.#providers.set(record.uuid, record);
      forget();
      this.deps.log.info('provider created', { provider: record.uuid, fqn: record.fqn, type: record.type, request_id: ctx.requestId });
      return record;
    });
  }

  async deleteProvider(uuid: string, force: boolean, ctx: ChangeContext): Promise<void> {
    const found = this.#providers.get(uuid);
    if (!found) throw new NotFoundError(`provider ${uuid} not found`);
    await this.#locks.run(found.type, async () => {
      const p = this.#providers.get(uuid);
      if (!p) throw new NotFoundError(`provider ${uuid} not found`);
      const services = [...this.#services.values()].filter((s) => s.provider_uuid === uuid);
      if (services.length > 0 && !force) {
        throw new ConflictError(`provider ${p.fqn} has ${services.length} service(s) (${services.map((s) => s.fqn).join(', ')}); delete them first, or delete with force=true`, {
          details: { services: services.map((s) => s.fqn) },
        });
      }
      await this.#gatewayDelete(p.type, force, 'delete the provider', (c) => c.deleteProvider(p.gateway_id, states(p)));
      await this.deps.store.batch([
        { type: 'del', key: keys.provider(uuid) },
        this.deps.audit.entry(ctx, 'provider.delete', p.fqn, { patches: [{ op: 'remove', path: 'provider', value: renderProvider(p) }], ...(force ? { force: true } : {}) }),
      ]);
      this.#providers.delete(uuid);
      // Its back-end is closed to the gateway once the gateway has deleted it.
      const gateway = this.#gateways.get(p.type);
      if (gateway && providerEndpoints(p.parameters ?? {}).length > 0) await this.options.reach?.(gateway.job_uuid);
      this.deps.log.info('provider deleted', { provider: uuid, fqn: p.fqn, force, request_id: ctx.requestId });
    });
  }

  // ---- services -----------------------------------------------------------------------------

  async createService(req: ServiceRequest, ctx: ChangeContext, refs: ReferenceCheck): Promise<ServiceRecord> {
    let provider: ProviderRecord | undefined;
    if (req.provider_fqn) {
      const [ref] = await refs.resolve([{ type: 'provider', fqn: req.provider_fqn, permission: 'bind', field: 'provider_fqn' }]);
      provider = this.#providers.get(ref!.uuid);
      if (!provider) throw new InvalidRequestError(`provider_fqn: no provider ${req.provider_fqn}`);
      if (req.type && req.type !== provider.type) throw new InvalidRequestError(`type: "${req.type}" differs from the type of provider ${provider.fqn} ("${provider.type}")`);
    }
    const type = provider?.type ?? req.type!;
    return this.#locks.run(type, async () => {
      const gateway = this.#gatewayOf(type);
      if (gateway.tier === 3 && !provider) throw new InvalidRequestError(`provider_fqn: the ${type} gateway (${gateway.job_fqn}) is three-tier: a service is made on one of its providers`);
      if (provider && !this.#providers.has(provider.uuid)) throw new InvalidRequestError(`provider_fqn: no provider ${req.provider_fqn}`);
      const taken = [...this.#services.values()].find((s) => s.fqn === req.fqn);
      if (taken) throw new DuplicateError(`service ${req.fqn} exists already (uuid ${taken.uuid})`);
      const { record, providerNow } = await this.#create(
        gateway,
        'service',
        ctx,
        (c) =>
          c.createService(
            {
              ...(req.name ? { name: req.name } : {}),
              ...(req.description ? { description: req.description } : {}),
              ...(provider ? { provider_id: provider.gateway_id } : {}),
              params: req.parameters ?? {},
            },
            states(provider),
          ),
        // Forced: the service was just made for nothing but this; whatever holds it goes too.
        (c, id, answered) => c.deleteService(id, { provider: answered.provider ?? provider?.state, service: answered.service }, { force: true }),
        async (reply) => {
          const record: ServiceRecord = {
            uuid: this.deps.ids.uuid(),
            fqn: req.fqn,
            name: reply.object.name || req.name || req.localName,
            type,
            provider_fqn: provider?.fqn ?? '',
            provider_uuid: provider?.uuid ?? '',
            description: req.description ?? '',
            parameters: req.parameters ?? {},
            gateway_id: reply.object.id,
            ...(reply.states.service ? { state: reply.states.service } : {}),
            created_at: this.#now(),
            created_by: ctx.principal,
          };
          const providerNow = provider && reply.states.provider && reply.states.provider !== provider.state ? { ...provider, state: reply.states.provider } : undefined;
          await this.deps.store.batch([
            { type: 'put', key: keys.service(record.uuid), value: JSON.stringify(record) },
            ...(providerNow ? [{ type: 'put' as const, key: keys.provider(providerNow.uuid), value: JSON.stringify(providerNow) }] : []),
            this.deps.audit.entry(ctx, 'service.create', record.fqn, { patches: [{ op: 'add', path: 'service', value: renderService(record) }] }),
          ]);
          return { record, providerNow };
        },
      );
      this.#services.set(record.uuid, record);
      if (providerNow) this.#providers.set(providerNow.uuid, providerNow);
      this.deps.log.info('service created', { service: record.uuid, fqn: record.fqn, type, request_id: ctx.requestId });
      return record;
    });
  }

  /**
   * DELETE /services/{uuid}: refused (409) while jobs are bound to it, or when its provider is
   * gone, unless forced. Forced: the bindings are taken off their jobs (the gateway's forced
   * delete removes what is left of them at the back end) and gateway failures do not stop it.
   */
  async deleteService(uuid: string, force: boolean, ctx: ChangeContext): Promise<void> {
    const found = this.#services.get(uuid);
    if (!found) throw new NotFoundError(`service ${uuid} not found`);
    await this.#locks.run(found.type, async () => {
      const s = this.#services.get(uuid);
      if (!s) throw new NotFoundError(`service ${uuid} not found`);
      if (s.fqn === OUTBOUND_SERVICE_FQN) throw new ConflictError(`service ${s.fqn} is built in: it cannot be deleted (unbind jobs from it instead)`);
      const bound = [...this.#bindings.values()].filter((b) => b.service_uuid === uuid);
      if (bound.length > 0 && !force) {
        throw new ConflictError(`service ${s.fqn} is bound to ${bound.map((b) => b.job_fqn).join(', ')}; unbind them first, or delete with force=true`, {
          details: { jobs: bound.map((b) => b.job_fqn) },
        });
      }
      const provider = s.provider_uuid ? this.#providers.get(s.provider_uuid) : undefined;
      if (s.provider_uuid && !provider && !force) {
        throw new ConflictError(`the provider of service ${s.fqn} (${s.provider_fqn}) is gone; delete the service with force=true`, { details: { provider_fqn: s.provider_fqn } });
      }
      for (const b of bound) await this.#dropBinding(b, ctx, { force: true });
      await this.#gatewayDelete(s.type, force, 'delete the service', (c) => c.deleteService(s.gateway_id, { ...states(provider), service: s.state }, { force }));
      await this.deps.store.batch([
        { type: 'del', key: keys.service(uuid) },
        this.deps.audit.entry(ctx, 'service.delete', s.fqn, { patches: [{ op: 'remove', path: 'service', value: renderService(s) }], ...(force ? { force: true } : {}) }),
      ]);
      this.#services.delete(uuid);
      this.deps.log.info('service deleted', { service: uuid, fqn: s.fqn, force, request_id: ctx.requestId });
    });
  }

  // ---- bindings -----------------------------------------------------------------------------

  /** POST /bindings: a job-to-service binding, or a link to another job. Answers the Binding. */
  async bind(req: BindRequest, ctx: ChangeContext, refs: ReferenceCheck): Promise<JobBinding> {
    return req.serviceFqn ? this.#bindService(req, req.serviceFqn, ctx, refs) : this.#link(req, req.targetJobFqn!, ctx, refs);
  }

  async #bindService(req: BindRequest, serviceFqn: string, ctx: ChangeContext, refs: ReferenceCheck): Promise<JobBinding> {
    const [jobRef, serviceRef] = await refs.resolve([
      { type: 'job', fqn: req.jobFqn, permission: 'bind', field: 'job_fqn' },
      { type: 'service', fqn: serviceFqn, permission: 'bind', field: 'service_fqn' },
    ]);
    const first = this.#services.get(serviceRef!.uuid);
    if (!first) throw new InvalidRequestError(`service_fqn: no service ${serviceFqn}`);
    return this.#locks.run(first.type, async () => {
      const service = this.#services.get(serviceRef!.uuid);
      if (!service) throw new InvalidRequestError(`service_fqn: no service ${serviceFqn}`);
      const job = await this.jobs.find(jobRef!.uuid);
      if (!job) throw new InvalidRequestError(`job_fqn: no job ${req.jobFqn}`);
      if (service.fqn === OUTBOUND_SERVICE_FQN) return this.#bindOutbound(req, service, job, ctx);
      const uuid = this.deps.ids.uuid();
      const name = req.name ?? localName(service.fqn);
      const fqn = req.fqn ?? `binding::${namespaceOf(job.fqn)}::${uuid}`;
      const entry: JobBinding = {
        name,
        uuid,
        fqn,
        job_fqn: job.fqn,
        env_var: [nameVariable(name), uuidVariable(uuid)],
        parameters: req.parameters,
        service_fqn: service.fqn,
        ...(service.provider_fqn ? { provider_fqn: service.provider_fqn } : {}),
      };
      this.#checkFree(job, entry);
      const provider = service.provider_uuid ? this.#providers.get(service.provider_uuid) : undefined;
      if (service.provider_uuid && !provider) throw new ConflictError(`the provider of service ${service.fqn} (${service.provider_fqn}) is gone: nothing can be bound to it`);
      const gateway = this.#gatewayOf(service.type);
      const { serviceNow, providerNow } = await this.#create(
        gateway,
        'binding',
        ctx,
        (c) => c.createBinding({ name, service_id: service.gateway_id, params: req.parameters }, { ...states(provider), service: service.state }),
        (c, id, answered) => c.deleteBinding(id, { provider: answered.provider ?? provider?.state, service: answered.service ?? service.state, binding: answered.binding }),
        async (reply) => {
          const record: ServiceBindingRecord = {
            uuid,
            fqn,
            name,
            job_uuid: job.uuid,
            job_fqn: job.fqn,
            service_uuid: service.uuid,
            service_fqn: service.fqn,
            gateway_id: reply.object.id,
            ...(reply.states.binding ? { state: reply.states.binding } : {}),
            url: reply.object.url,
            protocol: reply.object.protocol,
            created_at: this.#now(),
            created_by: ctx.principal,
          };
          const serviceNow = reply.states.service && reply.states.service !== service.state ? { ...service, state: reply.states.service } : undefined;
          const providerNow = provider && reply.states.provider && reply.states.provider !== provider.state ? { ...provider, state: reply.states.provider } : undefined;
          await this.#recordBinding(job, entry, record, ctx, [
            ...(serviceNow ? [{ type: 'put' as const, key: keys.service(serviceNow.uuid), value: JSON.stringify(serviceNow) }] : []),
            ...(providerNow ? [{ type: 'put' as const, key: keys.provider(providerNow.uuid), value: JSON.stringify(providerNow) }] : []),
          ]);
          return { serviceNow, providerNow };
        },
      );
      if (serviceNow) this.#services.set(serviceNow.uuid, serviceNow);
      if (providerNow) this.#providers.set(providerNow.uuid, providerNow);
      this.deps.log.info('job bound to service', { job: job.fqn, service: service.fqn, binding: uuid, request_id: ctx.requestId });
      return entry;
    });
  }

  /**
   * A binding to the outbound network service: its parameters checked (400, nothing changed),
   * no gateway call, nothing in the environment; the job's instances are told what they may now
   * reach (networks/egress-feed.ts), without a restart (not part of the run shape).
   */
  async #bindOutbound(req: BindRequest, service: ServiceRecord, job: Job, ctx: ChangeContext): Promise<JobBinding> {
    const problem = outboundParameterError(req.parameters);
    if (problem) throw new InvalidRequestError(problem);
    const uuid = this.deps.ids.uuid();
    const name = req.name ?? localName(service.fqn);
    const fqn = req.fqn ?? `binding::${namespaceOf(job.fqn)}::${uuid}`;
    const entry: JobBinding = { name, uuid, fqn, job_fqn: job.fqn, env_var: [], parameters: req.parameters, service_fqn: service.fqn };
    this.#checkFree(job, entry);
    const record: ServiceBindingRecord = {
      uuid, fqn, name, job_uuid: job.uuid, job_fqn: job.fqn, service_uuid: service.uuid, service_fqn: service.fqn,
      gateway_id: '', url: '', protocol: {}, created_at: this.#now(), created_by: ctx.principal,
    };
    await this.#recordBinding(job, entry, record, ctx, []);
    this.deps.log.info('job bound to the outbound network service', { job: job.fqn, binding: uuid, parameters: req.parameters, request_id: ctx.requestId });
    return entry;
  }

  /**
   * Stores a new service binding: its record, the job's bindings (the name checked free again
   * inside the job's actor), `extra` ops (service or provider states the gateway changed) and the
   * two audit entries, in one batch. The record is known before the job changes (the job's new
   * instances are started from inside that change) and forgotten again if the change fails.
   */
  async #recordBinding(job: Job, entry: JobBinding, record: ServiceBindingRecord, ctx: ChangeContext, extra: BatchOp[]): Promise<void> {
    this.#bindings.set(record.uuid, record);
    try {
      await this.jobs.changeBindings(
        job.uuid,
        (current) => {
          this.#checkFree(current, entry);
          return {
            bindings: sortedRecord({ ...current.bindings, [record.fqn]: entry }),
            ops: [
              { type: 'put', key: keys.serviceBinding(record.uuid), value: JSON.stringify(record) },
              ...extra,
              this.deps.audit.entry(ctx, 'service.bind', record.service_fqn, { patches: [{ op: 'add', path: `service/bindings/${record.fqn}`, value: entry }] }),
              this.deps.audit.entry(ctx, 'job.addbinding', current.fqn, { patches: [{ op: 'add', path: `job/bindings/${record.fqn}`, value: entry }] }),
            ],
          };
        },
        ctx,
      );
    } catch (err) {
      this.#bindings.delete(record.uuid);
      throw err;
    }
  }

  async #link(req: BindRequest, targetFqn: string, ctx: ChangeContext, refs: ReferenceCheck): Promise<JobBinding> {
    const [jobRef, targetRef] = await refs.resolve([
      { type: 'job', fqn: req.jobFqn, permission: 'link', field: 'job_fqn' },
      { type: 'job', fqn: targetFqn, permission: 'link', field: 'target_job_fqn' },
    ]);
    if (jobRef!.uuid === targetRef!.uuid) throw new InvalidRequestError('target_job_fqn: a job cannot be linked to itself');
    const target = await this.jobs.find(targetRef!.uuid);
    if (!target) throw new InvalidRequestError(`target_job_fqn: no job ${targetFqn}`);
    if (!target.ports.some((p) => p.number === req.targetJobPort)) {
      throw new InvalidRequestError(`target_job_port: job ${target.fqn} has no port ${req.targetJobPort} (its ports: ${target.ports.map((p) => p.number).join(', ') || 'none'})`, {
        details: { ports: target.ports.map((p) => p.number) },
      });
    }
    const uuid = this.deps.ids.uuid();
    const name = req.name ?? localName(target.fqn);
    const fqn = req.fqn ?? `binding::${namespaceOf(req.jobFqn)}::${uuid}`;
    const entry: JobBinding = {
      name,
      uuid,
      fqn,
      job_fqn: jobRef!.fqn,
      env_var: [nameVariable(name), uuidVariable(uuid)],
      parameters: req.parameters,
      target_job_uuid: target.uuid,
      target_job_port: String(req.targetJobPort),
      ...(req.boundIp !== undefined ? { target_job_bound_ip: req.boundIp, target_job_bound_port: String(req.boundPort) } : {}),
    };
    await this.jobs.changeBindings(
      jobRef!.uuid,
      (current) => {
        this.#checkFree(current, entry);
        return {
          bindings: sortedRecord({ ...current.bindings, [fqn]: entry }),
          ops: [this.deps.audit.entry(ctx, 'job.addlink', current.fqn, { target_job_fqn: target.fqn, patches: [{ op: 'add', path: `job/bindings/${fqn}`, value: entry }] })],
        };
      },
      ctx,
    );
    this.deps.log.info('job linked', { job: jobRef!.fqn, target: target.fqn, port: req.targetJobPort, binding: uuid, request_id: ctx.requestId });
    return entry;
  }

  /** Refuses a binding whose FQN, name (its variable) or service the job has already (409). */
  #checkFree(job: Job, entry: JobBinding): void {
    for (const [key, b] of Object.entries(job.bindings)) {
      if (key === entry.fqn) throw new DuplicateError(`job ${job.fqn} has a binding ${entry.fqn} already`);
      if (b.name && nameVariable(b.name) === nameVariable(entry.name!)) {
        throw new DuplicateError(`job ${job.fqn} has a binding named ${b.name} already (variable ${nameVariable(b.name)}); choose another name`, { details: { name: b.name } });
      }
      if (entry.service_fqn && b.service_fqn === entry.service_fqn) throw new DuplicateError(`job ${job.fqn} is bound to ${entry.service_fqn} already (${key})`);
    }
  }

  /** POST /unbind. */
  async unbind(req: UnbindRequest, ctx: ChangeContext, refs: ReferenceCheck): Promise<void> {
    const [jobRef] = await refs.resolve([{ type: 'job', fqn: req.jobFqn, permission: 'bind', field: 'job' }]);
    const job = await this.jobs.find(jobRef!.uuid);
    const entry = job && Object.values(job.bindings).find((b) => b.service_fqn === req.serviceFqn);
    const record = entry?.uuid ? this.#bindings.get(entry.uuid) : undefined;
    if (!job || !entry || !record) throw new NotFoundError(`job ${req.jobFqn} is not bound to ${req.serviceFqn}`);
    const service = this.#services.get(record.service_uuid);
    await this.#locks.run(service?.type ?? '', async () => {
      if (!this.#bindings.has(record.uuid)) throw new NotFoundError(`job ${req.jobFqn} is not bound to ${req.serviceFqn}`);
      await this.#dropBinding(record, ctx, { force: req.force, callGateway: record.service_fqn !== OUTBOUND_SERVICE_FQN });
    });
  }

  /**
   * Takes a service binding off its job: the gateway deletes it first (`callGateway`; a 404 is
   * gone already; with `force` a failure is logged and passed over), then one batch removes
   * the job's entry, the record, and records service.unbind and job.removebinding.
   */
  async #dropBinding(record: ServiceBindingRecord, ctx: ChangeContext, options: { force: boolean; callGateway?: boolean }): Promise<void> {
    const service = this.#services.get(record.service_uuid);
    const provider = service?.provider_uuid ? this.#providers.get(service.provider_uuid) : undefined;
    if (options.callGateway) {
      await this.#gatewayDelete(service?.type ?? '', options.force, 'delete the binding', (c) =>
        c.deleteBinding(record.gateway_id, { ...states(provider), ...(service?.state ? { service: service.state } : {}), ...(record.state ? { binding: record.state } : {}) }),
      );
    }
    const audits = (jobFqn: string): BatchOp[] => [
      this.deps.audit.entry(ctx, 'service.unbind', record.service_fqn, { patches: [{ op: 'remove', path: `service/bindings/${record.fqn}`, value: { job_fqn: jobFqn, name: record.name } }] }),
      this.deps.audit.entry(ctx, 'job.removebinding', jobFqn, { patches: [{ op: 'remove', path: `job/bindings/${record.fqn}`, value: { name: record.name, service_fqn: record.service_fqn } }] }),
    ];
    try {
      await this.jobs.changeBindings(
        record.job_uuid,
        (current) => {
          const bindings = Object.fromEntries(Object.entries(current.bindings).filter(([, b]) => b.uuid !== record.uuid));
          return { bindings, ops: [{ type: 'del', key: keys.serviceBinding(record.uuid) }, ...audits(current.fqn)] };
        },
        ctx,
      );
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      // The job is gone (it cannot be deleted while bound, but a record may outlive it): the record goes alone.
      await this.deps.store.batch([{ type: 'del', key: keys.serviceBinding(record.uuid) }, ...audits(record.job_fqn)]);
    }
    this.#bindings.delete(record.uuid);
    this.deps.log.info('job unbound from service', { job: record.job_fqn, service: record.service_fqn, binding: record.uuid, request_id: ctx.requestId });
  }

  /** POST /unlink: removes from `from_job` its links to `to_job` (on `port` when given). */
  async unlink(req: UnlinkRequest, ctx: ChangeContext, refs: ReferenceCheck): Promise<void> {
    const [from, to] = await refs.resolve([
      { type: 'job', fqn: req.fromJobFqn, permission: 'link', field: 'from_job' },
      { type: 'job', fqn: req.toJobFqn, permission: 'read', field: 'to_job' },
    ]);
    const matches = (b: JobBinding) => b.target_job_uuid === to!.uuid && (req.port === undefined || b.target_job_port === String(req.port));
    const job = await this.jobs.find(from!.uuid);
    if (!job || !Object.values(job.bindings).some(matches)) {
      throw new NotFoundError(`job ${req.fromJobFqn} has no link to ${req.toJobFqn}${req.port === undefined ? '' : ` port ${req.port}`}`);
    }
    await this.jobs.changeBindings(
      from!.uuid,
      (current) => {
        const gone = Object.entries(current.bindings).filter(([, b]) => matches(b));
        if (gone.length === 0) throw new NotFoundError(`job ${req.fromJobFqn} has no link to ${req.toJobFqn}`);
        return {
          bindings: Object.fromEntries(Object.entries(current.bindings).filter(([, b]) => !matches(b))),
          ops: gone.map(([key, b]) => this.deps.audit.entry(ctx, 'job.removelink', current.fqn, { target_job_fqn: req.toJobFqn, patches: [{ op: 'remove', path: `job/bindings/${key}`, value: b }] })),
        };
      },
      ctx,
    );
    this.deps.log.info('job unlinked', { job: req.fromJobFqn, target: req.toJobFqn, request_id: ctx.requestId });
  }

  // ---- what a bound job gets ----------------------------------------------------------------

  /**
   * The environment of an instance of `job`: `<NAME>_URI` and `<UUID>_URI` of each binding.
   * A service binding's url with port 0 names the gateway job itself: host and port are
   * replaced by where a RUNNING instance of the gateway serves its $PORT.
   */
  environmentFor(job: Job): Record<string, string> {
    const env: Record<string, string> = {};
    for (const b of Object.values(job.bindings)) {
      if (isOutboundBinding(b)) continue;
      const url = b.service_fqn ? this.#serviceUrl(b) : undefined;
      if (url === undefined) continue;
      for (const name of b.env_var ?? []) env[name] = url;
    }
    return env;
  }

  /**
   * Where `job`'s bound services are served ("host:port" of their urls; a url without a port
   * has its scheme's), for agents that give instances networks of their own to let them reach.
   */
  endpointsFor(job: Job): string[] {
    const out = new Set<string>(this.gatewayEndpoints(job.uuid));
    const opened = (e: string) => this.#openable(e, job.fqn) && out.add(e);
    for (const b of Object.values(job.bindings)) {
      if (!b.service_fqn || isOutboundBinding(b)) continue;
      const url = this.#serviceUrl(b);
      if (!url) continue;
      // localhost as 127.0.0.1, so that the platform's sockets there are seen for what they are.
      const endpoint = urlEndpoint(url);
      if (endpoint) opened(endpoint);
    }
    return [...out].sort();
  }

  /**
   * What a gateway job reaches from a network of its own: the back-ends its type's providers
   * name ("host:port" of the urls in their parameters), those being created included.
   */
  gatewayEndpoints(job: string): string[] {
    const out = new Set<string>();
    for (const g of this.#gateways.values()) {
      if (g.job_uuid !== job) continue;
      for (const p of this.#providers.values()) if (p.type === g.type) for (const e of providerEndpoints(p.parameters ?? {})) if (this.#openable(e, g.job_fqn)) out.add(e);
      for (const params of this.#creating.get(g.type) ?? []) for (const e of providerEndpoints(params)) if (this.#openable(e, g.job_fqn)) out.add(e);
    }
    return [...out].sort();
  }

  /**
   * Refuses (400, naming the parameter) a provider whose back-end the destination rule refuses:
   * every address its name resolves to now is judged. A name that does not resolve here is left
   * to the gateway: agents open only addresses to a gateway's job (a name needs an outbound binding).
   */
  async #judgeBackEnds(params: Record<string, unknown>): Promise<void> {
    const rule = this.options.destinations;
    if (!rule) return;
    for (const { field, endpoint } of providerBackEnds(params)) {
      const { host, port } = splitEndpoint(endpoint);
      try {
        await rule.check(host, port, { timeoutMs: PROVIDER_CHECK_TIMEOUT_MS });
      } catch (err) {
        const refused = destinationRefusal(err);
        if (refused) throw new InvalidRequestError(`parameters.${field}: ${refused.message}`, { details: { address: refused.address, port: refused.port, refusal: refused.reason } });
      }
    }
  }

  /** Endpoints already warned of as never opened (one warning each). */
  readonly #neverOpened = new Set<string>();

  /**
   * Whether a job may be opened to `endpoint`: never to a socket of the platform itself (a
   * controller's API, gRPC or router port, an etcd member), whoever named it (a provider made
   * before the rule, a gateway's binding url). The rest was judged where a user named it.
   */
  #openable(endpoint: string, job: string): boolean {
    const rule = this.options.destinations;
    if (!rule) return true;
    const { host, port } = splitEndpoint(endpoint);
    if (rule.refusal(host, port) !== 'own-listener') return true;
    if (!this.#neverOpened.has(endpoint)) {
      this.#neverOpened.add(endpoint);
      this.deps.log.warn('a job is not opened to a socket of the platform itself', { endpoint, job });
    }
    return false;
  }

  #serviceUrl(b: JobBinding): string | undefined {
    const record = b.uuid ? this.#bindings.get(b.uuid) : undefined;
    if (!record) return undefined;
    const port0 = /^([a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?)(\[[^\]]*\]|[^:/?#]*):0(?=[/?#]|$)/i.exec(record.url);
    if (!port0) return record.url;
    const type = this.#services.get(record.service_uuid)?.type;
    const gateway = type === undefined ? undefined : this.#gateways.get(type);
    const address = gateway
      ? this.options
          .instancesOf(gateway.job_uuid)
          .filter((i) => RUNNING_STATES.has(i.state) && i.stop === undefined)
          .map(addressOf)
          .find((a) => a)
      : undefined;
    return address ? `${port0[1]}${address}${record.url.slice(port0[0].length)}` : record.url;
  }

  // ---- helpers ------------------------------------------------------------------------------

  /**
   * The one way an object is made at a gateway (orphan mitigation). `make` calls the gateway,
   * `keep` records what it answered. What the gateway may have made that the cluster does not
   * keep is deleted again with `undo` (given the id and the state headers of the answer, as
   * they came), before the error reaches the client:
   *   - an answer the client refuses (not JSON, no id, a state header that is not URL-safe
   *     Base64 or over 4 KB, a binding without url): by the id it names, when it names one;
   *   - `keep` failing (the store, a job that refuses the binding): by the id answered;
   *   - a create that timed out: the client has its 503 at once; the late answer is waited for
   *     (`gatewayLateAnswerMs`) and what it names is deleted then.
   * With no id to delete by (a body that is not JSON, no answer, a connection broken after the
   * request went out) nothing can be deleted from here: it is logged, for an operator to look
   * at the gateway. Each case is logged with the gateway and the id, and counted (onOrphan).
   */
  async #create<T extends { id: string }, R>(
    gateway: GatewayRecord,
    kind: OrphanKind,
    ctx: ChangeContext,
    make: (c: GatewayClient) => Promise<GatewayReply<T>>,
    undo: (c: GatewayClient, id: string, answered: States) => Promise<void>,
    keep: (reply: GatewayReply<T>) => Promise<R>,
  ): Promise<R> {
    const client = this.#client(gateway);
    let reply: GatewayReply<T>;
    try {
      reply = await make(client);
    } catch (err) {
      const outcome = createOutcome(err);
      let orphan: OrphanOutcome | 'pending' | undefined;
      if (outcome.made === 'later') {
        orphan = 'pending';
        const late = outcome.answer.then((o) => this.#mitigate(gateway, kind, o, undo, ctx)).then(() => undefined);
        this.#late.add(late);
        void late.finally(() => this.#late.delete(late));
      } else {
        orphan = await this.#mitigate(gateway, kind, outcome, undo, ctx);
      }
      throw gatewayFailure(gateway, `create the ${kind}`, err, orphan && { kind, outcome: orphan, ...(outcome.made === 'yes' && outcome.id ? { id: outcome.id } : {}) });
    }
    try {
      return await keep(reply);
    } catch (err) {
      await this.#mitigate(gateway, kind, { made: 'yes', id: reply.object.id, states: reply.states, why: `the cluster did not record it: ${(err as Error).message}` }, undo, ctx);
      throw err;
    }
  }

  /** Deletes again what a gateway may have made (see #create); logs and counts what became of it. Never throws. */
  async #mitigate(
    gateway: GatewayRecord,
    kind: OrphanKind,
    outcome: Exclude<CreateOutcome, { made: 'later' }>,
    undo: (c: GatewayClient, id: string, answered: States) => Promise<void>,
    ctx: ChangeContext,
  ): Promise<OrphanOutcome | undefined> {
    if (outcome.made === 'no') return undefined;
    const fields = { gateway: gateway.type, gateway_job: gateway.job_fqn, kind, reason: outcome.why, request_id: ctx.requestId };
    const counted = (result: OrphanOutcome) => {
      this.options.onOrphan?.(gateway.type, kind, result);
      return result;
    };
    if (outcome.id === undefined) {
      this.deps.log.error(
        outcome.made === 'yes'
          ? `the ${gateway.type} gateway answered that it made a ${kind}, in an answer that names no id: the cluster does not keep it and cannot delete it; look for it at the gateway`
          : `the ${gateway.type} gateway may have made a ${kind} (no answer came): the cluster does not keep it and cannot delete it; look for it at the gateway`,
        fields,
      );
      return counted('unknown');
    }
    const id = outcome.id;
    try {
      const client = this.#client(gateway);
      try {
        await undo(client, id, outcome.states);
      } catch (err) {
        if (!isGone(err)) throw err;
      }
      this.deps.log.warn(`the ${kind} the ${gateway.type} gateway made (id ${id}) was deleted again: the cluster does not keep it`, { ...fields, gateway_id: id });
      return counted('deleted');
    } catch (err) {
      this.deps.log.error(`the ${kind} the ${gateway.type} gateway made (id ${id}) could not be deleted again: it is orphaned at the gateway; delete it there`, {
        ...fields,
        gateway_id: id,
        err: (err as Error).message,
      });
      return counted('not_deleted');
    }
  }

  /** A delete at the gateway of `type`: gone already (404) is done; with `force`, failures (or no gateway) are logged and passed over. */
  async #gatewayDelete(type: string, force: boolean, what: string, fn: (c: GatewayClient) => Promise<void>): Promise<void> {
    const gateway = this.#gateways.get(type);
    if (!gateway) {
      if (force) return;
      throw new ConflictError(`no gateway serves service type "${type}" any more: promote one again, or force the change (the back end is then left as it is)`, { details: { type } });
    }
    try {
      await this.#call(gateway, what, async (c) => {
        try {
          await fn(c);
        } catch (err) {
          if (!isGone(err)) throw err;
        }
      });
    } catch (err) {
      if (!force) throw err;
      this.deps.log.warn(`forced: the gateway failed to ${what}; carrying on`, { gateway: type, err: (err as Error).message });
    }
  }
}

/** The state headers of a provider, for a call about it or what it holds. */
function states(provider: ProviderRecord | undefined): States {
  return provider?.state ? { provider: provider.state } : {};
}

/**
 * A failed gateway call as the client's APIError: which gateway (type, job, address), which
 * call, and what the gateway said (`error_details`); for a create, what became of what the
 * gateway may have made (`orphan`: deleted, not_deleted, unknown, pending; `orphan_id`). Unreachable and timed out: 503 (retry);
 * a 409 refusal: 409; other 4xx refusals: 400 (the request's parameters); 5xx and answers that
 * are not the gateway API: 502.
 */
export function gatewayFailure(
  gateway: Pick<GatewayRecord, 'type' | 'job_fqn'>,
  what: string,
  err: unknown,
  orphan?: { kind: OrphanKind; outcome: OrphanOutcome | 'pending'; id?: string },
): unknown {
  if (!(err instanceof GatewayCallError)) return err;
  const details: Record<string, unknown> = {
    gateway: gateway.type,
    gateway_job: gateway.job_fqn,
    gateway_address: err.gateway,
    call: `${err.method} ${err.path}`,
    failure: err.kind,
  };
  let said = err.message;
  if (err instanceof GatewayRefusedError) {
    details['gateway_status'] = err.status;
    details['gateway_message'] = err.body?.message ?? err.text.slice(0, 1000);
    if (err.body?.details) details['gateway_details'] = err.body.details;
    said = `it answered ${err.status}: ${String(details['gateway_message'])}`;
  }
  let message = `the ${gateway.type} gateway (${gateway.job_fqn}) failed to ${what}: ${said}`;
  if (orphan) {
    details['orphan'] = orphan.outcome;
    if (orphan.id !== undefined) details['orphan_id'] = orphan.id;
    const it = orphan.id === undefined ? `the ${orphan.kind} it may have made` : `the ${orphan.kind} it made (id ${orphan.id})`;
    message += {
      deleted: `; ${it} was deleted again`,
      not_deleted: `; ${it} could not be deleted again and is left at the gateway`,
      unknown: `; ${it} cannot be deleted from here (no id): look for it at the gateway`,
      pending: `; if it answers later, ${it} is deleted again`,
    }[orphan.outcome];
  }
  const options = { cause: err, details };
  switch (err.kind) {
    case 'unreachable':
    case 'timeout':
      return new UnavailableError(message, 2000, options);
    case 'malformed':
      return new BadGatewayError(message, options);
    case 'refused': {
      const status = (err as GatewayRefusedError).status;
      if (status === 409) return new ConflictError(message, options);
      if (status >= 400 && status < 500 && status !== 401 && status !== 403) return new InvalidRequestError(message, options);
      return new BadGatewayError(message, options);
    }
  }
}
