/** Apps and jobs, by namespace: state, health, instances running of desired; filter and search. */
import { useState } from 'preact/hooks';
import type { Job } from '@platform/cli';
import { localName, namespaceOf } from '../lib/format.js';
import { ErrorBox, StateBadge, Table, useLoad, useRoute, useSession } from '../ui.js';

type JobWithHealth = Job & { health?: { score?: number; flapping?: boolean; instance_state_count?: Record<string, number> } | null };

export function running(health: JobWithHealth['health']): number {
  const counts = health?.instance_state_count ?? {};
  return (counts['RUNNING'] ?? 0) + (counts['FIRST_RUNNING'] ?? 0);
}

function healthText(j: JobWithHealth): string {
  if (j.state !== 'started' && j.state !== 'errored') return '';
  if (!j.health) return '';
  if (j.health.flapping) return 'flapping';
  const score = j.health.score ?? 0;
  return score >= 1 ? 'healthy' : score > 0 ? 'degraded' : 'down';
}

export function JobsPage() {
  const session = useSession();
  const { query } = useRoute();
  const jobs = useLoad(() => session.client.listJobs({ health: true }) as Promise<JobWithHealth[]>, [], 5000);
  const [search, setSearch] = useState(query.get('q') ?? '');
  const [namespace, setNamespace] = useState(query.get('ns') ?? '');
  const [state, setState] = useState('');
  const [appsOnly, setAppsOnly] = useState(false);
  const all = jobs.data ?? [];
  const namespaces = [...new Set(all.map((j) => namespaceOf(j.fqn)))].sort();
  const states = [...new Set(all.map((j) => j.state))].sort();
  const needle = search.trim().toLowerCase();
  const shown = all
    .filter((j) => !namespace || namespaceOf(j.fqn) === namespace)
    .filter((j) => !state || j.state === state)
    .filter((j) => !appsOnly || (j.tags && 'app' in j.tags))
    .filter((j) => !needle || j.fqn.toLowerCase().includes(needle) || j.uuid.startsWith(needle))
    .sort((a, b) => a.fqn.localeCompare(b.fqn));
  return (
    <div>
      <div class="page-head">
        <h1>Apps & jobs</h1>
        <a class="btn primary" href="#/deploy">
          Deploy an app
        </a>
      </div>
      <div class="filters card" role="search">
        <label>
          Search
          <input type="search" placeholder="name, FQN or uuid" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <label>
          Namespace
          <select value={namespace} onChange={(e) => setNamespace(e.currentTarget.value)}>
            <option value="">all</option>
            {namespaces.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select value={state} onChange={(e) => setState(e.currentTarget.value)}>
            <option value="">all</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input type="checkbox" checked={appsOnly} onChange={(e) => setAppsOnly(e.currentTarget.checked)} /> apps only
        </label>
      </div>
      <ErrorBox error={jobs.error} />
      <Table head={['Name', 'Namespace', 'State', 'Health', 'Instances']} rows={shown.length} label="Jobs" empty={jobs.loading && !jobs.data ? 'Loading…' : 'No jobs match.'}>
        {shown.map((j) => (
          <tr key={j.uuid}>
            <td>
              <a href={`#/jobs/${j.uuid}`}>{localName(j.fqn)}</a>
              {j.tags && 'app' in j.tags && <span class="tag">app</span>}
            </td>
            <td>{namespaceOf(j.fqn)}</td>
            <td>
              <StateBadge state={j.state} />
            </td>
            <td>{healthText(j) && <StateBadge state={healthText(j)} />}</td>
            <td data-testid="instances">
              {running(j.health)}/{j.num_instances}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
