/** The cluster: instance managers with their resources and instances; services, providers, gateways and bindings; networks; routes. */
import { useState } from 'preact/hooks';
import type { Instance, Job } from '@platform/cli';
import { formatBytes, formatDuration, formatTime, localName } from '../lib/format.js';
import { ErrorBox, Section, StateBadge, Table, useLoad, useSession } from '../ui.js';

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
  const gateways = useLoad(() => session.client.listGateways() as Promise<{ type: string; job_fqn: string; job_uuid: string; tier: number }[]>, [], 10_000);
  const jobs = useLoad(() => session.client.listJobs() as Promise<Job[]>, [], 10_000);
  const bindings = (jobs.data ?? []).flatMap((j) => Object.entries(j.bindings ?? {}).map(([fqn, b]) => ({ fqn, job: j, b })));
  // A link names its target by uuid (`target_job_fqn` is input only).
  const byUuid = new Map((jobs.data ?? []).map((j) => [j.uuid, j]));
  return (
    <div>
      <h1>Services</h1>
      <Section title="Services" id="services">
        <ErrorBox error={services.error} />
        <Table head={['Service', 'Type', 'Provider', 'Created']} rows={(services.data ?? []).length} label="Services" empty="No services.">
          {(services.data ?? []).map((s) => (
            <tr key={s.fqn}>
              <td>
                <code>{s.fqn}</code>
                {s.description && <div class="muted small">{s.description}</div>}
              </td>
              <td>{s.type}</td>
              <td>{s.provider_fqn}</td>
              <td>{formatTime(s.created_at)}</td>
            </tr>
          ))}
        </Table>
      </Section>
      <Section title="Providers" id="providers">
        <ErrorBox error={providers.error} />
        <Table head={['Provider', 'Type', 'Description']} rows={(providers.data ?? []).length} label="Providers" empty="No providers.">
          {(providers.data ?? []).map((p) => (
            <tr key={p.fqn}>
              <td>
                <code>{p.fqn}</code>
              </td>
              <td>{p.type}</td>
              <td>{p.description}</td>
            </tr>
          ))}
        </Table>
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

type NetworkView = { uuid: string; fqn: string; description: string; subnet_info: { Subnet: string }; gateway: string; network_end_points: { uuid: string; fqn: string; job_uuid: string; discovery_address: string }[] };

export function NetworksPage() {
  const session = useSession();
  const networks = useLoad(() => session.client.listNetworks(false) as unknown as Promise<NetworkView[]>, [], 10_000);
  const list = networks.data ?? [];
  return (
    <div>
      <h1>Networks</h1>
      <ErrorBox error={networks.error} />
      <Table head={['Network', 'Subnet', 'Gateway', 'Members']} rows={list.length} label="Networks" empty={networks.loading && !networks.data ? 'Loading…' : 'No virtual networks.'}>
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
          </tr>
        ))}
      </Table>
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
