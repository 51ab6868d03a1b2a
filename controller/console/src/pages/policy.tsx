/**
 * Policy documents: read each one, and edit it when policy lets the user (`permit update` on
 * policy::/). A document that does not parse is refused by the API (400) with its line and
 * column (error_details), shown here at that place in the text.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorMessage } from '../api.js';
import { formatTime } from '../lib/format.js';
import { ErrorBox, Section, useLoad, usePermissions, useSession } from '../ui.js';

type Doc = { name: string; description?: string; text?: string; version?: string | number; updated_at?: string };

export function PolicyPage() {
  const session = useSession();
  const docs = useLoad(() => session.client.listPolicies() as Promise<Doc[]>, []);
  const may = usePermissions(['policy::/']);
  const [name, setName] = useState<string>();
  const list = docs.data ?? [];
  const selected = list.find((d) => d.name === name) ?? list[0];
  return (
    <div>
      <h1>Policy</h1>
      <ErrorBox error={docs.error} />
      <div class="split">
        <nav class="card doc-list" aria-label="Policy documents">
          <ul>
            {list.map((d) => (
              <li key={d.name}>
                <button type="button" class={`link ${d.name === selected?.name ? 'current' : ''}`} aria-current={d.name === selected?.name ? 'true' : undefined} onClick={() => setName(d.name)}>
                  {d.name}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        {selected && <PolicyEditor key={`${selected.name} ${selected.version}`} doc={selected} editable={may('policy::/', 'update')} onSaved={docs.reload} />}
      </div>
    </div>
  );
}

function PolicyEditor(p: { doc: Doc; editable: boolean; onSaved: () => void }) {
  const session = useSession();
  const [text, setText] = useState(p.doc.text ?? '');
  const [error, setError] = useState<{ message: string; line?: number; column?: number }>();
  const [saved, setSaved] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    // Put the cursor where the parser stopped.
    if (error?.line === undefined || !area.current) return;
    const lines = text.split('\n');
    const offset = lines.slice(0, error.line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(0, (error.column ?? 1) - 1);
    area.current.focus();
    area.current.setSelectionRange(offset, Math.min(text.length, offset + 1));
  }, [error]);
  const save = async () => {
    setError(undefined);
    setSaved('');
    try {
      await session.client.putPolicies([{ name: p.doc.name, for_version: Number(p.doc.version ?? 0), text, ...(p.doc.description ? { description: p.doc.description } : {}) }] as never);
      setSaved('Saved.');
      p.onSaved();
    } catch (err) {
      const details = err instanceof ApiError ? (err.body.error_details as { line?: number; column?: number } | undefined) : undefined;
      setError({ message: errorMessage(err), ...(details?.line ? { line: details.line, column: details.column ?? 1 } : {}) });
    }
  };
  const lineCount = text.split('\n').length;
  return (
    <Section title={p.doc.name} id="policy-doc" actions={<span class="muted small">version {String(p.doc.version ?? '')} · {formatTime(p.doc.updated_at)}</span>}>
      {p.doc.description && <p class="muted">{p.doc.description}</p>}
      <div class="code-editor">
        <div class="gutter" aria-hidden="true">
          {Array.from({ length: lineCount }, (_x, i) => (
            <div key={i} class={error?.line === i + 1 ? 'bad-line' : ''}>
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          ref={area}
          aria-label={`Text of policy ${p.doc.name}`}
          spellcheck={false}
          readOnly={!p.editable}
          rows={Math.min(40, Math.max(10, lineCount + 1))}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </div>
      {error && (
        <div class="error" role="alert" data-testid="policy-error">
          {error.line !== undefined && (
            <strong>
              Line {error.line}, column {error.column}:{' '}
            </strong>
          )}
          {error.message}
        </div>
      )}
      {saved && (
        <p class="success" role="status">
          {saved}
        </p>
      )}
      {p.editable ? (
        <div class="row">
          <button type="button" class="btn primary" onClick={() => void save()} disabled={text === p.doc.text}>
            Save
          </button>
          <button type="button" class="btn plain" onClick={() => setText(p.doc.text ?? '')} disabled={text === p.doc.text}>
            Revert
          </button>
        </div>
      ) : (
        <p class="muted">Read only: your policy does not let you change policy documents.</p>
      )}
    </Section>
  );
}
