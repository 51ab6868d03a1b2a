/**
 * A job: its settings, instances (state, host, uptime, ports, routes and their URLs), a live
 * tail of its log, the actions (start, stop, restart, scale, delete), its environment and
 * routes (edited in place), bindings, links, drains, and charts of CPU, memory and requests.
 * Each action is shown only when GET /permissions says the user holds its permission on the
 * job; the API checks again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Instance, Job, MetricAnswer } from '@platform/cli';
import { ApiError, errorMessage, routerAddress } from '../api.js';
import { Chart } from '../charts.js';
import { formatBytes, formatDuration, formatTime, localName } from '../lib/format.js';
import { routeUrls } from '../lib/runtime.js';
import { followStream } from '../lib/sse.js';
import { ActionButton, ErrorBox, Fields, navigate, Section, StateBadge, Table, useLoad, usePermissions, useSession } from '../ui.js';

type Env = Record<string, string>;

export function JobPage(p: { uuid: string }) {
  const session = useSession();
  const job = useLoad(() => session.client.getJob(p.uuid), [p.uuid], 5000);
  const instances = useLoad(() => session.client.instances(p.uuid), [p.uuid], 3000);
  const j = job.data;
  const may = usePermissions(j ? [j.fqn] : []);
  if (!j) {
    return (
      <div>
        <h1>Job</h1>
        {job.error ? <ErrorBox error={job.error} /> : <p class="muted">Loading…</p>}
      </div>
    );
  }
  const can = (perm: string) => may(j.fqn, perm);
  const reload = () => {
    job.reload();
    instances.reload();
  };
  const patch = async (body: Record<string, unknown>) => {
    await session.client.patchJob(j.uuid, body as never);
    reload();
  };
  const live = (instances.data ?? []).filter((i) => i.state !== 'REMOVED');
  const runningCount = live.filter((i) => i.state === 'RUNNING' || i.state === 'FIRST_RUNNING').length;
  return (
    <div>
      <div class="page-head">
        <div>
          <p class="crumbs">
            <a href="#/apps">Apps & jobs</a> / {j.fqn.split('::')[1]}
          </p>
          <h1>
            {localName(j.fqn)} <StateBadge state={j.state} />
          </h1>
        </div>
        <div class="actions" role="group" aria-label="Job actions">
          {j.state !== 'started' && can('start') && <ActionButton label="Start" kind="primary" run={() => patch({ state: 'started' })} />}
          {j.state === 'started' && can('stop') && <ActionButton label="Stop" run={() => patch({ state: 'stopped' })} />}
          {j.state === 'started' && can('stop') && can('start') && (
            <ActionButton
              label="Restart"
              run={async () => {
                await session.client.patchJob(j.uuid, { state: 'stopped' });
                await patch({ state: 'started' });
              }}
            />
          )}
          {can('update') && <Scale job={j} onScale={(n) => patch({ num_instances: n })} />}
          {can('delete') && <DeleteJob job={j} />}
        </div>
      </div>
      <ErrorBox error={job.error} />
      <Section title="Settings" id="settings">
        <Fields
          rows={[
            ['FQN', <code>{j.fqn}</code>],
            ['UUID', <code>{j.uuid}</code>],
            ['Version', String(j.version_id)],
            ['Instances', `${runningCount} running of ${j.num_instances}`],
            ['Memory', j.resources?.memory ? formatBytes(j.resources.memory) : ''],
            ['CPU', j.resources?.cpu ? `${j.resources.cpu} ms/s` : ''],
            ['Restart', j.restart?.restart_mode ?? ''],
            ['Rolling', j.rollout?.rolling_mode ? 'yes' : 'no'],
            ['Packages', <PackageNames packages={j.packages ?? []} />],
            ['Tags', Object.entries(j.tags ?? {}).map(([k, v]) => (v ? `${k}=${v}` : k)).join(', ')],
            ['Updated', `${formatTime(j.updated_at)} by ${j.updated_by ?? ''}`],
          ]}
        />
      </Section>
      <Instances job={j} instances={live} error={instances.error} mayStop={can('stop')} onChange={reload} />
      <LogTail path={`/v1/jobs/${j.uuid}/logs?tail&lines=200`} title="Log" />
      <Metrics job={j} />
      <Environment job={j} editable={can('update')} onSave={patch} />
      <Routes job={j} editable={can('update')} onSave={patch} />
      <Bindings job={j} editable={can('bind') || can('link') || can('update')} onChange={reload} />
      <Drains job={j} editable={can('update')} />
    </div>
  );
}

/** The job's packages by name (each read once), its own first, then the dependencies the controller added. */
function PackageNames(p: { packages: readonly { uuid: string; source?: string }[] }) {
  const session = useSession();
  const key = p.packages.map((pk) => pk.uuid).join(',');
  const names = useLoad(
    async () => Object.fromEntries(await Promise.all(p.packages.map(async (pk) => [pk.uuid, (await session.client.getPackage(pk.uuid).catch(() => undefined))?.fqn] as const))),
    [key],
  );
  return (
    <>
      {p.packages.map((pk) => (
        <div key={pk.uuid}>
          <a href={`#/package/${pk.uuid}`}>{names.data?.[pk.uuid] ? localName(names.data[pk.uuid]!) : pk.uuid.slice(0, 8)}</a>
          {pk.source === 'system' && <span class="muted"> (dependency)</span>}
        </div>
      ))}
    </>
  );
}

function Scale(p: { job: Job; onScale: (n: number) => Promise<void> }) {
  const [n, setN] = useState(String(p.job.num_instances));
  useEffect(() => setN(String(p.job.num_instances)), [p.job.num_instances]);
  const value = Number(n);
  return (
    <span class="scale">
      <input type="number" min={0} max={1000} value={n} aria-label="Number of instances" onInput={(e) => setN(e.currentTarget.value)} />
      <ActionButton label="Scale" disabled={!Number.isInteger(value) || value < 0 || value === p.job.num_instances} run={() => p.onScale(value)} />
    </span>
  );
}

function DeleteJob(p: { job: Job }) {
  const session = useSession();
  const [armed, setArmed] = useState(false);
  if (!armed) return <ActionButton label="Delete…" kind="danger" run={async () => setArmed(true)} />;
  return (
    <span class="confirm">
      <ActionButton
        label={`Delete ${localName(p.job.fqn)}`}
        kind="danger"
        run={async () => {
          await session.client.deleteJob(p.job.uuid);
          navigate('/apps');
        }}
      />
      <button type="button" class="btn plain" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}

function Instances(p: { job: Job; instances: Instance[]; error: string | undefined; mayStop: boolean; onChange: () => void }) {
  const session = useSession();
  const now = Date.now() / 1000;
  const urls = routeUrls(p.job.ports, routerAddress());
  return (
    <Section title={`Instances (${p.instances.length})`} id="instances">
      <ErrorBox error={p.error} />
      <Table head={['Instance', 'State', 'Host', 'Uptime', 'Ports', 'Routes', 'Version', '']} rows={p.instances.length} label="Instances" empty="No instances.">
        {p.instances.map((i) => {
          const since = typeof i['running_since'] === 'number' ? (i['running_since'] as number) : undefined;
          return (
            <tr key={i.uuid} data-testid="instance-row">
              <td>
                <code title={i.uuid}>{i.uuid.slice(0, 8)}</code>
              </td>
              <td>
                <StateBadge state={i.state} />
                {i.exited && <span class="muted"> exit {i.exit_code}</span>}
                {i.reason && <div class="muted small">{i.reason}</div>}
              </td>
              <td>{i.host}</td>
              <td>{since ? formatDuration(now - since) : ''}</td>
              <td>
                {Object.entries(i.ports ?? {}).map(([port, addr]) => (
                  <div key={port}>
                    {port === '0' ? '' : `${port} → `}
                    <code>{addr}</code>
                  </div>
                ))}
              </td>
              <td>
                {i.announced_routes
                  ? urls.map((u) => (
                      <div key={u}>
                        <a href={u} target="_blank" rel="noopener noreferrer">
                          {u}
                        </a>
                      </div>
                    ))
                  : urls.length > 0 && <span class="muted">not routed yet</span>}
              </td>
              <td>{i.job_version_id}</td>
              <td>
                {p.mayStop && (
                  <ActionButton
                    label="Stop"
                    title="Stop this instance (the job starts another)"
                    run={async () => {
                      await session.client.stopInstance(p.job.uuid, i.uuid);
                      p.onChange();
                    }}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </Table>
    </Section>
  );
}

/** A live log: Server-Sent Events, resumed with Last-Event-ID after a dropped connection. */
export function LogTail(p: { path: string; title: string; onLine?: (line: string) => void; height?: string }) {
  const session = useSession();
  const [lines, setLines] = useState<{ seq: number; text: string; instance: string; stream: string }[]>([]);
  const [status, setStatus] = useState('connecting');
  const [follow, setFollow] = useState(true);
  const box = useRef<HTMLPreElement>(null);
  useEffect(() => {
    setLines([]);
    const abort = new AbortController();
    followStream({
      open: (last, signal) => session.stream(p.path, last, signal),
      signal: abort.signal,
      isFatal: (err) => err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429,
      onStatus: (s) => setStatus(s.connected ? 'live' : `reconnecting${s.error ? ` (${errorMessage(s.error)})` : ''}`),
      onEvent: (e) => {
        if (e.event !== 'log') return;
        const ev = JSON.parse(e.data) as { seq: number; line: string; instance_uuid: string; stream: string };
        p.onLine?.(ev.line);
        setLines((old) => {
          const next = old.length >= 2000 ? old.slice(old.length - 1500) : old.slice();
          next.push({ seq: ev.seq, text: ev.line, instance: ev.instance_uuid, stream: ev.stream });
          return next;
        });
      },
    }).catch((err: unknown) => setStatus(`stopped: ${errorMessage(err)}`));
    return () => abort.abort();
  }, [p.path]);
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines, follow]);
  return (
    <Section
      title={p.title}
      id={`log-${p.title}`}
      actions={
        <>
          <span class={`badge ${status === 'live' ? 'ok' : 'busy'}`} data-testid="log-status">
            {status}
          </span>
          <label class="check">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} /> follow
          </label>
        </>
      }
    >
      <pre class="log" ref={box} tabIndex={0} aria-label={`${p.title} lines`} data-testid="log" style={p.height ? { maxHeight: p.height } : undefined}>
        {lines.length === 0 ? <span class="muted">No lines yet.</span> : null}
        {lines.map((l) => (
          <div key={l.seq} class={l.stream === 'stderr' ? 'stderr' : ''}>
            {l.instance && <span class="muted">[{l.instance.slice(0, 8)}] </span>}
            {l.text}
          </div>
        ))}
      </pre>
    </Section>
  );
}

function Metrics(p: { job: Job }) {
  const session = useSession();
  const queries = {
    cpu: `${p.job.fqn},cpu.sum:avg-10s,-30min`,
    mem: `${p.job.fqn},mem_used.sum:avg-10s,-30min`,
    req: `${p.job.fqn},requests_per_second.sum:avg-10s,-30min`,
  };
  const data = useLoad(() => session.client.metrics('jobs', Object.values(queries)), [p.job.fqn], 10_000);
  const series = (q: string) => {
    const answer: MetricAnswer | undefined = data.data;
    const byTarget = answer?.metrics[q];
    return byTarget ? Object.values(byTarget)[0] : undefined;
  };
  return (
    <Section title="Usage (last 30 minutes)" id="metrics">
      <ErrorBox error={data.error ?? (data.data && Object.values(data.data.errors ?? {})[0])} />
      <div class="charts">
        <Chart title="CPU (ms/s)" series={series(queries.cpu)} format={(v) => v.toFixed(0)} testId="chart-cpu" />
        <Chart title="Memory" series={series(queries.mem)} format={(v) => formatBytes(v)} testId="chart-memory" />
        <Chart title="Requests (/s)" series={series(queries.req)} format={(v) => v.toFixed(1)} testId="chart-requests" />
      </div>
    </Section>
  );
}

function processName(job: Job): string {
  const names = Object.keys(job.processes ?? {});
  return names.includes('app') || names.length === 0 ? 'app' : names[0]!;
}

function Environment(p: { job: Job; editable: boolean; onSave: (patch: Record<string, unknown>) => Promise<void> }) {
  const proc = processName(p.job);
  const current: Env = (p.job.processes?.[proc]?.environment as Env | undefined) ?? {};
  const [rows, setRows] = useState<[string, string][]>(Object.entries(current));
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setRows(Object.entries(current));
  }, [p.job.version_id, editing]);
  const save = async () => {
    const next: Record<string, string | null> = {};
    for (const [k, v] of rows) if (k.trim() !== '') next[k.trim()] = v;
    // A JSON Merge Patch: a variable that is gone is set to null.
    for (const k of Object.keys(current)) if (!(k in next)) next[k] = null;
    await p.onSave({ processes: { [proc]: { environment: next } } });
    setEditing(false);
  };
  return (
    <Section
      title="Environment"
      id="environment"
      actions={p.editable && !editing && <button type="button" class="btn plain" onClick={() => setEditing(true)}>Edit</button>}
    >
      {!editing ? (
        <Table head={['Variable', 'Value']} rows={rows.length} label="Environment" empty="No variables.">
          {rows.map(([k, v]) => (
            <tr key={k}>
              <td>
                <code>{k}</code>
              </td>
              <td>
                <code>{v}</code>
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <div class="editor">
          {rows.map(([k, v], i) => (
            <div class="row" key={i}>
              <input aria-label="Variable name" value={k} onInput={(e) => setRows(rows.map((r, j) => (j === i ? [e.currentTarget.value, r[1]] : r)))} />
              <input aria-label="Value" value={v} onInput={(e) => setRows(rows.map((r, j) => (j === i ? [r[0], e.currentTarget.value] : r)))} />
              <button type="button" class="btn plain" aria-label={`Remove ${k}`} onClick={() => setRows(rows.filter((_r, j) => j !== i))}>
                Remove
              </button>
            </div>
          ))}
          <div class="row">
            <button type="button" class="btn plain" onClick={() => setRows([...rows, ['', '']])}>
              Add variable
            </button>
            <ActionButton label="Save (restarts the instances)" kind="primary" run={save} />
            <button type="button" class="btn plain" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </Section>
  );
}

function Routes(p: { job: Job; editable: boolean; onSave: (patch: Record<string, unknown>) => Promise<void> }) {
  const ports = p.job.ports ?? [];
  const urls = routeUrls(ports, routerAddress());
  const [endpoint, setEndpoint] = useState('');
  const setRoutes = async (portIndex: number, routes: unknown[]) => {
    const next = ports.length > 0 ? ports.map((port, i) => (i === portIndex ? { ...port, routes } : port)) : [{ number: 0, routes }];
    await p.onSave({ ports: next });
  };
  return (
    <Section title="Routes" id="routes">
      <Table head={['Port', 'Type', 'Endpoint', 'URL', '']} rows={ports.reduce((n, port) => n + (port.routes?.length ?? 0), 0)} label="Routes" empty="No routes.">
        {ports.flatMap((port, pi) =>
          (port.routes ?? []).map((r, ri) => (
            <tr key={`${pi}-${ri}`}>
              <td>{port.number === 0 ? 'PORT' : port.number}</td>
              <td>{r.type}</td>
              <td>
                <code>{r.endpoint}</code>
              </td>
              <td>
                {r.type === 'http' && r.endpoint && (
                  <a href={urls.find((u) => u.includes(r.endpoint!.split('/')[0]!))} target="_blank" rel="noopener noreferrer">
                    open
                  </a>
                )}
              </td>
              <td>
                {p.editable && (
                  <ActionButton label="Remove" run={() => setRoutes(pi, (port.routes ?? []).filter((_x, j) => j !== ri))} />
                )}
              </td>
            </tr>
          )),
        )}
      </Table>
      {p.editable && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
          }}
        >
          <label>
            HTTP endpoint
            <input placeholder="web.example.localhost or auto" value={endpoint} onInput={(e) => setEndpoint(e.currentTarget.value)} />
          </label>
          <ActionButton
            label="Add route"
            disabled={endpoint.trim() === ''}
            run={async () => {
              const route = endpoint.trim() === 'auto' ? { type: 'http', auto_provision: true } : { type: 'http', endpoint: endpoint.trim() };
              await setRoutes(0, [...(ports[0]?.routes ?? []), route]);
              setEndpoint('');
            }}
          />
        </form>
      )}
    </Section>
  );
}

function Bindings(p: { job: Job; editable: boolean; onChange: () => void }) {
  const session = useSession();
  const entries = Object.entries(p.job.bindings ?? {});
  const services = useLoad(() => (p.editable ? session.client.listServices() : Promise.resolve([])), [p.editable]);
  const [service, setService] = useState('');
  const [target, setTarget] = useState('');
  const [port, setPort] = useState('');
  const [bindName, setBindName] = useState('');
  const [linkName, setLinkName] = useState('');
  // A link names its target by uuid (`target_job_fqn` is input only): the targets' FQNs are
  // looked up, for the table and for /unlink, which takes the FQN.
  const links = entries.filter(([, b]) => b.target_job_uuid || b.target_job_fqn);
  const bindings = entries.filter(([, b]) => !b.target_job_uuid && !b.target_job_fqn);
  const targetUuids = [...new Set(links.map(([, b]) => b.target_job_uuid).filter((u): u is string => !!u))].sort();
  const targets = useLoad(
    async () => new Map(await Promise.all(targetUuids.map(async (u) => [u, await session.client.getJob(u).then((j) => j.fqn, () => undefined)] as const))),
    [targetUuids.join(' ')],
  );
  const targetFqn = (b: { target_job_uuid?: string; target_job_fqn?: string }) => b.target_job_fqn ?? (b.target_job_uuid ? targets.data?.get(b.target_job_uuid) : undefined);
  return (
    <Section title="Bindings and links" id="bindings">
      <h3>Services</h3>
      <Table head={['Binding', 'Service', 'Variables', '']} rows={bindings.length} label="Service bindings" empty="No service bindings.">
        {bindings.map(([fqn, b]) => (
          <tr key={fqn}>
            <td>{b.name ?? localName(fqn)}</td>
            <td>
              <code>{b.service_fqn}</code>
            </td>
            <td>{(b.env_var ?? []).join(', ')}</td>
            <td>
              {p.editable && b.service_fqn && (
                <ActionButton
                  label="Unbind"
                  run={async () => {
                    await session.client.unbind({ job: p.job.fqn, service: b.service_fqn! });
                    p.onChange();
                  }}
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
      {p.editable && (
        <div class="row">
          <label>
            Service
            <select aria-label="Service" value={service} onChange={(e) => setService(e.currentTarget.value)}>
              <option value="">choose…</option>
              {((services.data ?? []) as { fqn: string }[]).map((s) => (
                <option key={s.fqn} value={s.fqn}>
                  {s.fqn}
                </option>
              ))}
            </select>
          </label>
          <label>
            Name <span class="muted">(optional)</span>
            <input aria-label="Binding name" placeholder="from the service" value={bindName} onInput={(e) => setBindName(e.currentTarget.value)} />
          </label>
          <ActionButton
            label="Bind"
            disabled={!service}
            run={async () => {
              await session.client.bind({ job_fqn: p.job.fqn, service_fqn: service, ...(bindName.trim() ? { name: bindName.trim() } : {}) });
              setService('');
              setBindName('');
              p.onChange();
            }}
          />
        </div>
      )}
      <h3>Links to other jobs</h3>
      <Table head={['Link', 'Job', 'Port', '']} rows={links.length} label="Links" empty="No links.">
        {links.map(([fqn, b]) => (
          <tr key={fqn}>
            <td>{b.name ?? localName(fqn)}</td>
            <td>
              {b.target_job_uuid ? <a href={`#/jobs/${b.target_job_uuid}`}>{targetFqn(b) ?? b.target_job_uuid}</a> : <code>{targetFqn(b)}</code>}
            </td>
            <td>{b.target_job_port}</td>
            <td>
              {p.editable && targetFqn(b) && (
                <ActionButton
                  label="Unlink"
                  run={async () => {
                    await session.client.unlink({ from_job: p.job.fqn, to_job: targetFqn(b)!, ...(b.target_job_port ? { port: Number(b.target_job_port) } : {}) });
                    p.onChange();
                  }}
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
      {p.editable && (
        <div class="row">
          <label>
            Job FQN
            <input placeholder="job::/ns::db" value={target} onInput={(e) => setTarget(e.currentTarget.value)} />
          </label>
          <label>
            Port
            <input type="number" min={0} max={65535} value={port} onInput={(e) => setPort(e.currentTarget.value)} />
          </label>
          <label>
            Name <span class="muted">(optional)</span>
            <input aria-label="Link name" placeholder="from the job" value={linkName} onInput={(e) => setLinkName(e.currentTarget.value)} />
          </label>
          <ActionButton
            label="Link"
            disabled={!target.trim()}
            run={async () => {
              await session.client.bind({
                job_fqn: p.job.fqn,
                target_job_fqn: target.trim(),
                ...(port ? { target_job_port: Number(port) } : {}),
                ...(linkName.trim() ? { name: linkName.trim() } : {}),
              });
              setTarget('');
              setPort('');
              setLinkName('');
              p.onChange();
            }}
          />
        </div>
      )}
    </Section>
  );
}

function Drains(p: { job: Job; editable: boolean }) {
  const session = useSession();
  const drains = useLoad(() => session.client.listDrains(p.job.uuid), [p.job.uuid, p.job.version_id]);
  const [url, setUrl] = useState('');
  const list = (drains.data ?? []) as { uuid: string; url: string; max_size?: number }[];
  return (
    <Section title="Log drains" id="drains">
      <ErrorBox error={drains.error} />
      <Table head={['URL', 'Line size', '']} rows={list.length} label="Drains" empty="No drains.">
        {list.map((d) => (
          <tr key={d.uuid}>
            <td>
              <code>{d.url}</code>
            </td>
            <td>{d.max_size ?? ''}</td>
            <td>
              {p.editable && (
                <ActionButton
                  label="Remove"
                  run={async () => {
                    await session.client.removeDrain(p.job.uuid, d.uuid);
                    drains.reload();
                  }}
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
      {p.editable && (
        <div class="row">
          <label>
            Drain URL
            <input placeholder="syslog://host:514" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
          </label>
          <ActionButton
            label="Add drain"
            disabled={!url.trim()}
            run={async () => {
              await session.client.addDrain(p.job.uuid, { url: url.trim() });
              setUrl('');
              drains.reload();
            }}
          />
        </div>
      )}
    </Section>
  );
}

