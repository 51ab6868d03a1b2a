/** The audit log: filters (event type, FQN, time range) and paging, newest first. */
import { useState } from 'preact/hooks';
import type { AuditEntry } from '@platform/cli';
import { formatTime } from '../lib/format.js';
import { ErrorBox, Table, useLoad, useSession } from '../ui.js';

const PAGE = 50;

function unixOf(local: string): number | undefined {
  if (!local) return undefined;
  const t = new Date(local).getTime();
  return Number.isNaN(t) ? undefined : Math.floor(t / 1000);
}

export function AuditPage() {
  const session = useSession();
  const events = useLoad(() => session.client.auditEvents(), []);
  const [draft, setDraft] = useState({ event_type: '', fqn: '', start: '', end: '' });
  const [filters, setFilters] = useState(draft);
  const [offset, setOffset] = useState(0);
  const entries = useLoad(
    () =>
      session.client.audit({
        limit: PAGE,
        offset,
        ...(filters.event_type ? { event_type: filters.event_type } : {}),
        ...(filters.fqn ? { fqn: filters.fqn } : {}),
        ...(unixOf(filters.start) !== undefined ? { start_time: unixOf(filters.start) } : {}),
        ...(unixOf(filters.end) !== undefined ? { end_time: unixOf(filters.end) } : {}),
      }),
    [filters, offset],
  );
  const list: AuditEntry[] = entries.data ?? [];
  return (
    <div>
      <h1>Audit log</h1>
      <form
        class="filters card"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setFilters({ ...draft });
        }}
      >
        <label>
          Event
          <select value={draft.event_type} onChange={(e) => setDraft({ ...draft, event_type: e.currentTarget.value })}>
            <option value="">all</option>
            {(events.data ?? []).map((ev) => (
              <option key={ev} value={ev}>
                {ev}
              </option>
            ))}
          </select>
        </label>
        <label>
          FQN
          <input placeholder="job::/sandbox/admin or *::/" value={draft.fqn} onInput={(e) => setDraft({ ...draft, fqn: e.currentTarget.value })} />
        </label>
        <label>
          From
          <input type="datetime-local" value={draft.start} onInput={(e) => setDraft({ ...draft, start: e.currentTarget.value })} />
        </label>
        <label>
          Until
          <input type="datetime-local" value={draft.end} onInput={(e) => setDraft({ ...draft, end: e.currentTarget.value })} />
        </label>
        <button type="submit" class="btn primary">
          Filter
        </button>
      </form>
      <ErrorBox error={entries.error} />
      <Table head={['Time', 'Event', 'FQN', 'By', 'Details']} rows={list.length} label="Audit entries" empty={entries.loading ? 'Loading…' : 'No entries match.'}>
        {list.map((a) => (
          <tr key={a.uuid} data-testid="audit-row">
            <td class="nowrap">{formatTime(a.timestamp)}</td>
            <td>
              <code>{a.event_type}</code>
            </td>
            <td>
              <code>{a.fqn}</code>
            </td>
            <td>{a.principal_name}</td>
            <td>
              {a.audit_payload && Object.keys(a.audit_payload).length > 0 && (
                <details>
                  <summary>payload</summary>
                  <pre class="small">{JSON.stringify(a.audit_payload, null, 2)}</pre>
                </details>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <nav class="pager" aria-label="Audit pages">
        <button type="button" class="btn plain" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Newer
        </button>
        <span>
          {list.length > 0 ? `${offset + 1}–${offset + list.length}` : ''}
        </span>
        <button type="button" class="btn plain" disabled={list.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
          Older
        </button>
      </nav>
    </div>
  );
}
