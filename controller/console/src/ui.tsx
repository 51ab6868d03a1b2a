/** Small building blocks the pages share: the session's context, data loading, the hash router, widgets. */
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage, type Session } from './api.js';

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `fn` when `deps` change, and again every `refreshMs` while the page shows it (an
 * answer that comes after the page changed is dropped).
 */
export function useLoad<T>(fn: () => Promise<T>, deps: readonly unknown[], refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | undefined; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (err: unknown) => live && setState((s) => ({ data: s.data, error: errorMessage(err), loading: false })),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  useEffect(() => {
    if (!refreshMs) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, reload]);
  return { ...state, reload };
}

/** How often the permissions are asked again (policy can change while a page is open), and how soon after a failed ask. */
const PERMISSIONS_REFRESH_MS = 30_000;
const PERMISSIONS_RETRY_MS = 2_000;

/**
 * What the user may do on each FQN (GET /permissions); empty sets until the answer is in. The
 * answer is asked again every half minute, and a few seconds after an ask that failed (a
 * dropped connection at sign-in would otherwise leave the navigation without the pages the
 * user may read until the page is reloaded, which signs out).
 */
export function usePermissions(fqns: readonly string[]): (fqn: string, permission: string) => boolean {
  const session = useSession();
  const key = [...new Set(fqns)].sort().join('\n');
  const { data, error, loading, reload } = useLoad(() => (key === '' ? Promise.resolve({} as Record<string, ReadonlySet<string>>) : session.permissions(key.split('\n'))), [key], PERMISSIONS_REFRESH_MS);
  useEffect(() => {
    if (!error || loading) return undefined;
    const timer = setTimeout(reload, PERMISSIONS_RETRY_MS);
    return () => clearTimeout(timer);
  }, [error, loading, reload]);
  return (fqn, permission) => data?.[fqn]?.has(permission) ?? false;
}

/** The current hash route, split: `#/jobs/abc` -> ['jobs', 'abc']; query after `?`. */
export function useRoute(): { parts: string[]; query: URLSearchParams } {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  const [path = '', q = ''] = hash.replace(/^#\/?/, '').split('?');
  return { parts: path.split('/').filter((p) => p !== '').map(decodeURIComponent), query: new URLSearchParams(q) };
}

export function navigate(path: string): void {
  location.hash = path.startsWith('#') ? path : `#${path}`;
}

/** An action's button: disabled while it runs; its error shown beside it. */
export function ActionButton(p: { label: string; run: () => Promise<unknown>; kind?: 'primary' | 'danger' | 'plain'; disabled?: boolean; title?: string; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <span class="action">
      <button
        type="button"
        class={`btn ${p.kind ?? 'plain'}`}
        disabled={busy || p.disabled}
        title={p.title}
        data-testid={p.testId}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            await p.run();
          } catch (err) {
            setError(errorMessage(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? `${p.label}…` : p.label}
      </button>
      {error && (
        <span class="error inline" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

export function ErrorBox(p: { error: string | undefined }) {
  return p.error ? (
    <div class="error" role="alert">
      {p.error}
    </div>
  ) : null;
}

const STATE_CLASS: Record<string, string> = {
  started: 'ok', RUNNING: 'ok', FIRST_RUNNING: 'ok', ready: 'ok', online: 'ok', healthy: 'ok', up: 'ok',
  errored: 'bad', failed: 'bad', staging_failed: 'bad', lost: 'bad', invalid: 'bad', offline: 'bad',
  staging: 'busy', uploading: 'busy', STARTING: 'busy', STARTING_WAIT: 'busy', SETUP: 'busy', NEW: 'busy', STOPPING: 'busy', STOPPING_WAIT: 'busy', TEARDOWN: 'busy', UPDATING: 'busy',
};

export function StateBadge(p: { state: string | undefined }) {
  const s = p.state ?? 'unknown';
  return <span class={`badge ${STATE_CLASS[s] ?? 'neutral'}`}>{s}</span>;
}

export function Section(p: { title: string; children: ComponentChildren; actions?: ComponentChildren; id?: string }) {
  return (
    <section class="card" aria-labelledby={p.id && `section-${p.id}`}>
      <header class="card-head">
        <h2 id={p.id && `section-${p.id}`}>{p.title}</h2>
        {p.actions && <div class="card-actions">{p.actions}</div>}
      </header>
      {p.children}
    </section>
  );
}

/** A definition list of label -> value. */
export function Fields(p: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="fields">
      {p.rows.map(([k, v]) => (
        <div key={k} class="field">
          <dt>{k}</dt>
          <dd>{v === '' || v === undefined || v === null ? <span class="muted">—</span> : v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A table that scrolls sideways on narrow screens. */
export function Table(p: { head: string[]; children: ComponentChildren; empty?: string; rows: number; label?: string }) {
  return (
    <div class="table-wrap">
      <table aria-label={p.label}>
        <thead>
          <tr>
            {p.head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.children}
          {p.rows === 0 && (
            <tr>
              <td colSpan={p.head.length} class="muted">
                {p.empty ?? 'Nothing here.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Keeps a value of the latest render for callbacks made earlier. */
export function useLatest<T>(value: T): { current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
