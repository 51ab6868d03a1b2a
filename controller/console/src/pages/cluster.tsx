/** The cluster: instance managers with their resources and instances; services, providers, gateways and bindings; networks; routes. */
import { useState } from 'preact/hooks';
import type { Instance, Job } from '@platform/cli';
import { formatBytes, formatDuration, formatTime, localName } from '../lib/format.js';
import { ActionButton, ErrorBox, Section, StateBadge, Table, useLoad, usePermissions, useSession } from '../ui.js';

type Resources = { cpu?: number; memory?: number; disk?: number; network?: number };
type Manager = {
  uuid: string;
  hostname: string;
  datacenter?: string;
  status: string;
  num_instances: number;
  uptime?: number;
  isolation?: string;
  version?: string;
  tags?: string[] | Record<string, string>;
  ResourcesTotal?: Resources;
  ResourcesProvisioned?: Resources;
};

function resourceText(used: Resources | undefined, total: Resources | undefined) {
  return (
    <div class="small">
      <div>
        CPU {used?.cpu ?? 0} / {total?.cpu ?? '?'} ms/s
      </div>
      <div>
        memory {formatBytes(used?.memory ?? 0)} / {formatBytes(total?.memory ?? 0)}
      </div>
      <div>
        disk {formatBytes(used?.disk ?? 0)} / {formatBytes(total?.disk ?? 0)}
      </div>
    </div>
  );
}

export function AgentsPage() {
  const session = useSession();
  const managers = useLoad(() => session.client.instanceManagers() as unknown as Promise<Manager[]>, [], 5000);
  const [open, setOpen] = useState<string>();
  const list = managers.data ?? [];
  return (
    <div>
      <h1>Instance managers</h1>
      <ErrorBox error={managers.error} />
      <Table head={['Host', 'Status', 'Resources (provisioned / total)', 'Instances', 'Up', 'Isolation', '']} rows={list.length} label="Instance managers" empty={managers.loading && !managers.data ? 'Loading…' : 'No instance managers have joined.'}>
        {list.map((m) => (
          <tr key={m.uuid}>
            <td>
              {m.hostname}
              <div class="muted small">
                <code>{m.uuid.slice(0, 8)}</code> {m.datacenter}
              </div>
            </td>
            <td>
              <StateBadge state={m.status} />
            </td>
            <td>{resourceText(m.ResourcesProvisioned, m.ResourcesTotal)}</td>
            <td>{m.num_instances}</td>
            <td>{m.uptime !== undefined ? formatDuration(m.uptime / 1e9) : ''}</td>
            <td>{m.isolation}</td>
            <td>
              <button type="button" class="btn plain" aria-expanded={open === m.uuid} onClick={() => setOpen(open === m.uuid ? undefined : m.uuid)}>
                {open === m.uuid ? 'Hide instances' : 'Instances'}
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {open && <ManagerInstances uuid={open} hostname={list.find((m) => m.uuid === open)?.hostname ?? ''} />}
    </div>
  );
}

function ManagerInstances(p: { uuid: string; hostname: string }) {
  const session = useSession();
  const instances = useLoad(
    () => session.client.json<(Instance & { job_fqn?: string; uptime?: number; resources?: Resources })[]>('GET', `/v1/instance_managers/${encodeURIComponent(p.uuid)}/instances`),
    [p.uuid],
    5000,
  );
  const list = instances.data ?? [];
  return (
    <Section title={`Instances on ${p.hostname}`} id="manager-instances">
      <ErrorBox error={instances.error} />
      <Table head={['Instance', 'Job', 'State', 'Up', 'Memory']} rows={list.length} label={`Instances on ${p.hostname}`} empty="No instances.">
        {list.map((i) => (
          <tr key={i.uuid}>
            <td>
              <code>{i.uuid.slice(0, 8)}</code>
            </td>
            <td>{i.job_uuid ? <a href={`#/jobs/${i.job_uuid}`}>{i.job_fqn ? localName(i.job_fqn) : i.job_uuid.slice(0, 8)}</a> : ''}</td>
            <td>
              <StateBadge state={i.state} />
            </td>
            <td>{i.uptime !== undefined ? formatDuration(i.uptime / 1e9) : ''}</td>
            <td>{formatBytes(i.resources?.memory)}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

type Named = { uuid?: string; fqn: string; type?: string; name?: string; description?: string; provider_fqn?: string; created_at?: string };

export function ServicesPage() {
  const session = useSession();
  const services = useLoad(() => session.client.listServices() as Promise<Named[]>, [], 10_000);
  const providers = useLoad(() => session.client.listProviders() as Promise<Named[]>, [], 10_000);
  const gateways = useLoad(() => session.client.listGateways() as Promise<GatewayView[]>, [], 10_000);
  const jobs = useLoad(() => session.client.listJobs() as Promise<Job[]>, [], 10_000);
  const bindings = (jobs.data ?? []).flatMap((j) => Object.entries(j.bindings ?? {}).map(([fqn, b]) => ({ fqn, job: j, b })));
  // A link names its target by uuid (`target_job_fqn` is input only).
  const byUuid = new Map((jobs.data ?? []).map((j) => [j.uuid, j]));
  const can = usePermissions([...(services.data ?? []), ...(providers.data ?? [])].map((x) => x.fqn));
  const reload = () => {
    services.reload();
    providers.reload();
  };
  return (
    <div>
      <h1>Services</h1>
      <Section title="Services" id="services">
        <ErrorBox error={services.error} />
        <Table head={['Service', 'Type', 'Provider', 'Created', '']} rows={(services.data ?? []).length} label="Services" empty="No services.">
          {(services.data ?? []).map((s) => (
            <tr key={s.fqn}>
              <td>
                <code>{s.fqn}</code>
                {s.description && <div class="muted small">{s.description}</div>}
              </td>
              <td>{s.type}</td>
              <td>{s.provider_fqn}</td>
              <td>{formatTime(s.created_at)}</td>
              <td>{s.uuid && can(s.fqn, 'delete') && <DeleteButton what={s.fqn} run={() => session.client.deleteService(s.uuid!)} onDone={reload} />}</td>
            </tr>
          ))}
        </Table>
        <CreateForm
          kind="service"
          gateways={gateways.data ?? []}
          providers={providers.data ?? []}
          onCreated={reload}
        />
      </Section>
      <Section title="Providers" id="providers">
        <ErrorBox error={providers.error} />
        <Table head={['Provider', 'Type', 'Description', '']} rows={(providers.data ?? []).length} label="Providers" empty="No providers.">
          {(providers.data ?? []).map((p) => (
            <tr key={p.fqn}>
              <td>
                <code>{p.fqn}</code>
              </td>
              <td>{p.type}</td>
              <td>{p.description}</td>
              <td>{p.uuid && can(p.fqn, 'delete') && <DeleteButton what={p.fqn} run={() => session.client.deleteProvider(p.uuid!)} onDone={reload} />}</td>
            </tr>
          ))}
        </Table>
        <CreateForm kind="provider" gateways={(gateways.data ?? []).filter((g) => g.tier === 3)} providers={[]} onCreated={reload} />
      </Section>
      <Section title="Gateways" id="gateways">
        <ErrorBox error={gateways.error} />
        <Table head={['Type', 'Job', 'Tier']} rows={(gateways.data ?? []).length} label="Gateways" empty="No gateways.">
          {(gateways.data ?? []).map((g) => (
            <tr key={g.type}>
              <td>{g.type}</td>
              <td>
                <a href={`#/jobs/${g.job_uuid}`}>{g.job_fqn}</a>
              </td>
              <td>{g.tier}</td>
            </tr>
          ))}
        </Table>
      </Section>
      <Section title="Bindings and links" id="all-bindings">
        <ErrorBox error={jobs.error} />
        <Table head={['Job', 'Binding', 'To']} rows={bindings.length} label="Bindings" empty="No bindings.">
          {bindings.map(({ fqn, job, b }) => (
            <tr key={`${job.uuid} ${fqn}`}>
              <td>
                <a href={`#/jobs/${job.uuid}`}>{job.fqn}</a>
              </td>
              <td>{b.name ?? localName(fqn)}</td>
              <td>
                {b.target_job_uuid ? (
                  <a href={`#/jobs/${b.target_job_uuid}`}>
                    {byUuid.get(b.target_job_uuid)?.fqn ?? b.target_job_uuid}
                    {b.target_job_port && b.target_job_port !== '0' ? ` port ${b.target_job_port}` : ''}
                  </a>
                ) : (
                  <code>{b.service_fqn}</code>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Section>
    </div>
  );
}

type GatewayView = { type: string; job_fqn: string; job_uuid: string; tier: number; parameters?: Record<string, Record<string, unknown>> };

/** Remove, asking once more; the API's refusal (bindings left, no permission) is shown beside it. */
function DeleteButton(p: { what: string; run: () => Promise<unknown>; onDone: () => void }) {
  return (
    <ActionButton
      label="Delete"
      kind="danger"
      title={`Delete ${p.what}`}
      run={async () => {
        if (!confirm(`Delete ${p.what}?`)) return;
        await p.run();
        p.onDone();
      }}
    />
  );
}

/**
 * A new provider (of a three-tier gateway's type) or service (on a provider, or of a type whose
 * gateway keeps no providers): its FQN, and its parameters as JSON, which start as the example
 * the gateway gave for them (GET /gateways); the gateway checks them.
 */
function CreateForm(p: { kind: 'provider' | 'service'; gateways: GatewayView[]; providers: Named[]; onCreated: () => void }) {
  const session = useSession();
  const [fqn, setFqn] = useState(`${p.kind}::/sandbox/${session.user.name}::`);
  // A service: "provider:<fqn>" or "type:<type>"; a provider: the type.
  const [on, setOn] = useState('');
  const [params, setParams] = useState('{}');
  const [created, setCreated] = useState('');
  const collection = p.kind === 'provider' ? 'providers' : 'services';
  const typeOf = (choice: string) => (choice.startsWith('provider:') ? p.providers.find((x) => x.fqn === choice.slice('provider:'.length))?.type : choice.replace(/^type:/, ''));
  const choose = (choice: string) => {
    setOn(choice);
    const example = p.gateways.find((g) => g.type === typeOf(choice))?.parameters?.[collection];
    setParams(JSON.stringify(example ?? {}, null, 2));
  };
  const choices: [string, string][] =
    p.kind === 'provider'
      ? p.gateways.map((g) => [g.type, g.type])
      : [
          ...p.providers.map((x): [string, string] => [`provider:${x.fqn}`, `on ${x.fqn}`]),
          ...p.gateways.filter((g) => g.tier === 2).map((g): [string, string] => [`type:${g.type}`, `of type ${g.type}`]),
        ];
  if (choices.length === 0) return <p class="muted">{p.kind === 'provider' ? 'A provider needs a three-tier gateway: none is promoted.' : 'A service needs a provider or a two-tier gateway: there is none.'}</p>;
  return (
    <form
      class="create"
      aria-label={`New ${p.kind}`}
      onSubmit={(e) => e.preventDefault()}
    >
      <h3>New {p.kind}</h3>
      <div class="row">
        <label>
          FQN
          <input aria-label={`New ${p.kind} FQN`} required value={fqn} onInput={(e) => setFqn(e.currentTarget.value)} />
        </label>
        <label>
          {p.kind === 'provider' ? 'Type' : 'On'}
          <select aria-label={`New ${p.kind} ${p.kind === 'provider' ? 'type' : 'provider or type'}`} value={on} onChange={(e) => choose(e.currentTarget.value)}>
            <option value="">choose…</option>
            {choices.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label class="stack">
        Parameters (JSON)
        <textarea aria-label={`New ${p.kind} parameters`} rows={4} value={params} onInput={(e) => setParams(e.currentTarget.value)} />
      </label>
      <div class="row">
        <ActionButton
          label={`Create ${p.kind}`}
          kind="primary"
          disabled={!on || !/::[^:]+$/.test(fqn.trim())}
          run={async () => {
            let parameters: Record<string, unknown>;
            try {
              parameters = JSON.parse(params) as Record<string, unknown>;
            } catch (err) {
              throw new Error(`The parameters are not JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
            }
            const target = p.kind === 'provider' ? { type: on } : on.startsWith('provider:') ? { provider_fqn: on.slice('provider:'.length) } : { type: on.slice('type:'.length) };
            if (p.kind === 'provider') await session.client.createProvider({ fqn: fqn.trim(), parameters, ...target } as Parameters<typeof session.client.createProvider>[0]);
            else await session.client.createService({ fqn: fqn.trim(), parameters, ...target } as Parameters<typeof session.client.createService>[0]);
            setCreated(fqn.trim());
            setFqn(`${p.kind}::/sandbox/${session.user.name}::`);
            // The parameters may hold a password (a provider's url): not left in the form.
            choose(on);
            p.onCreated();
          }}
        />
        {created && (
          <span role="status" class="muted">
            Created {created}.
          </span>
        )}
      </div>
    </form>
  );
}

type NetworkView = { uuid: string; fqn: string; description: string; subnet_info: { Subnet: string }; gateway: string; network_end_points: { uuid: string; fqn: string; job_uuid: string; discovery_address: string }[] };

export function NetworksPage() {
  const session = useSession();
  const networks = useLoad(() => session.client.listNetworks(false) as unknown as Promise<NetworkView[]>, [], 10_000);
  const list = networks.data ?? [];
  const can = usePermissions(list.map((n) => n.fqn));
  const [fqn, setFqn] = useState(`network::/sandbox/${session.user.name}::`);
  const [description, setDescription] = useState('');
  const [subnet, setSubnet] = useState('');
  const [created, setCreated] = useState('');
  return (
    <div>
      <h1>Networks</h1>
      <ErrorBox error={networks.error} />
      <Table head={['Network', 'Subnet', 'Gateway', 'Members', '']} rows={list.length} label="Networks" empty={networks.loading && !networks.data ? 'Loading…' : 'No virtual networks.'}>
        {list.map((n) => (
          <tr key={n.uuid}>
            <td>
              <code>{n.fqn}</code>
              {n.description && <div class="muted small">{n.description}</div>}
            </td>
            <td>{n.subnet_info?.Subnet}</td>
            <td>{n.gateway}</td>
            <td>
              {(n.network_end_points ?? []).map((e) => (
                <div key={e.uuid}>
                  <a href={`#/jobs/${e.job_uuid}`}>{localName(e.fqn)}</a> {e.discovery_address && <span class="muted">({e.discovery_address}.platform.local)</span>}
                </div>
              ))}
            </td>
            <td>{can(n.fqn, 'delete') && <DeleteButton what={n.fqn} run={() => session.client.deleteNetwork(n.uuid)} onDone={networks.reload} />}</td>
          </tr>
        ))}
      </Table>
      <form class="create card" aria-label="New network" onSubmit={(e) => e.preventDefault()}>
        <h2>New network</h2>
        <div class="row">
          <label>
            FQN
            <input aria-label="New network FQN" required value={fqn} onInput={(e) => setFqn(e.currentTarget.value)} />
          </label>
          <label>
            Description
            <input aria-label="New network description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </label>
          <label>
            Subnet <span class="muted">(optional)</span>
            <input aria-label="New network subnet" placeholder="chosen by the controller" value={subnet} onInput={(e) => setSubnet(e.currentTarget.value)} />
          </label>
          <ActionButton
            label="Create network"
            kind="primary"
            disabled={!/::[^:]+$/.test(fqn.trim())}
            run={async () => {
              await session.client.createNetwork({ fqn: fqn.trim(), ...(description ? { description } : {}), ...(subnet.trim() ? { subnet: subnet.trim() } : {}) } as Parameters<typeof session.client.createNetwork>[0]);
              setCreated(fqn.trim());
              setFqn(`network::/sandbox/${session.user.name}::`);
              setDescription('');
              setSubnet('');
              networks.reload();
            }}
          />
        </div>
        {created && (
          <p role="status" class="muted">
            Created {created}.
          </p>
        )}
      </form>
    </div>
  );
}

export function RoutesPage() {
  const session = useSession();
  const routes = useLoad(() => session.client.routes(), [], 10_000);
  const jobs = useLoad(() => session.client.listJobs() as Promise<Job[]>, [], 10_000);
  const byUuid = new Map((jobs.data ?? []).map((j) => [j.uuid, j]));
  const entries = Object.entries(routes.data ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div>
      <h1>Routes</h1>
      <ErrorBox error={routes.error} />
      <Table head={['Endpoint', 'Jobs']} rows={entries.length} label="Routes" empty={routes.loading && !routes.data ? 'Loading…' : 'No routes.'}>
        {entries.map(([endpoint, uuids]) => (
          <tr key={endpoint}>
            <td>
              <code>{endpoint}</code>
            </td>
            <td>
              {uuids.map((u) => (
                <div key={u}>
                  <a href={`#/jobs/${u}`}>{byUuid.get(u)?.fqn ?? u}</a>
                </div>
              ))}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
