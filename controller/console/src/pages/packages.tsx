/** Packages: the list (state, size), and one package with its staging log, dependencies, provides and download. */
import { useState } from 'preact/hooks';
import type { Package } from '@platform/cli';
import { formatBytes, formatTime, localName, namespaceOf } from '../lib/format.js';
import { ActionButton, ErrorBox, Fields, Section, StateBadge, Table, useLoad, usePermissions, useSession } from '../ui.js';
import { LogTail } from './job.js';

type Requirement = { type: string; name: string; version?: string };
type PackageView = Package & { dependencies?: Requirement[]; provides?: Requirement[] };

export function PackagesPage() {
  const session = useSession();
  const packages = useLoad(() => session.client.listPackages() as Promise<PackageView[]>, [], 10_000);
  const [search, setSearch] = useState('');
  const [state, setState] = useState('');
  const needle = search.trim().toLowerCase();
  const all = packages.data ?? [];
  const shown = all
    .filter((p) => !state || p.state === state)
    .filter((p) => !needle || p.fqn.toLowerCase().includes(needle) || p.uuid.startsWith(needle))
    .sort((a, b) => a.fqn.localeCompare(b.fqn));
  return (
    <div>
      <h1>Packages</h1>
      <div class="filters card" role="search">
        <label>
          Search
          <input type="search" value={search} placeholder="FQN or uuid" onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <label>
          State
          <select value={state} onChange={(e) => setState(e.currentTarget.value)}>
            <option value="">all</option>
            {[...new Set(all.map((p) => p.state))].sort().map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBox error={packages.error} />
      <Table head={['Name', 'Namespace', 'State', 'Size', 'Created']} rows={shown.length} label="Packages" empty={packages.loading && !packages.data ? 'Loading…' : 'No packages match.'}>
        {shown.map((p) => (
          <tr key={p.uuid}>
            <td>
              <a href={`#/package/${p.uuid}`}>{localName(p.fqn)}</a>
            </td>
            <td>{namespaceOf(p.fqn)}</td>
            <td>
              <StateBadge state={p.state} />
            </td>
            <td>{formatBytes(p.resources.reduce((n, r) => n + r.length, 0))}</td>
            <td>{formatTime(p.created_at)}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

function Requirements(p: { items: Requirement[] | undefined; label: string }) {
  const items = p.items ?? [];
  return (
    <Table head={['Type', 'Name', 'Version']} rows={items.length} label={p.label} empty="None.">
      {items.map((r, i) => (
        <tr key={i}>
          <td>{r.type}</td>
          <td>{r.name}</td>
          <td>{r.version ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}

export function PackagePage(p: { uuid: string }) {
  const session = useSession();
  const pkg = useLoad(() => session.client.getPackage(p.uuid) as Promise<PackageView>, [p.uuid], 3000);
  const d = pkg.data;
  const may = usePermissions(d ? [d.fqn] : []);
  if (!d) return <div>{pkg.error ? <ErrorBox error={pkg.error} /> : <p class="muted">Loading…</p>}</div>;
  const download = async (resource: { uuid: string }) => {
    const res = await session.client.downloadResource(d.uuid, resource.uuid);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `${localName(d.fqn)}.tar.gz`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <div>
      <p class="crumbs">
        <a href="#/packages">Packages</a> / {namespaceOf(d.fqn)}
      </p>
      <h1>
        {localName(d.fqn)} <StateBadge state={d.state} />
      </h1>
      <Section title="Package" id="package">
        <Fields
          rows={[
            ['FQN', <code>{d.fqn}</code>],
            ['UUID', <code>{d.uuid}</code>],
            ['Pipeline', d.staging_pipeline_fqn],
            ['Error', d.error_message],
            ['Created', `${formatTime(d.created_at)} by ${d.created_by}`],
            ['Tags', Object.entries(d.tags ?? {}).map(([k, v]) => (v ? `${k}=${v}` : k)).join(', ')],
          ]}
        />
        <Table head={['Archive', 'Size', 'Digest', '']} rows={d.resources.length} label="Archives" empty="No archive.">
          {d.resources.map((r) => (
            <tr key={r.uuid}>
              <td>
                <code>{r.uuid.slice(0, 8)}</code>
              </td>
              <td>{formatBytes(r.length)}</td>
              <td>
                <code class="small">{r.digest}</code>
              </td>
              <td>{may(d.fqn, 'read') && d.state !== 'uploading' && <ActionButton label="Download" run={() => download(r)} />}</td>
            </tr>
          ))}
        </Table>
      </Section>
      <div class="two">
        <Section title="Dependencies" id="dependencies">
          <Requirements items={d.dependencies} label="Dependencies" />
        </Section>
        <Section title="Provides" id="provides">
          <Requirements items={d.provides} label="Provides" />
        </Section>
      </div>
      <LogTail key={d.uuid} path={`/v1/packages/${d.uuid}/logs?tail&lines=10000`} title="Staging log" height="24rem" />
    </div>
  );
}
