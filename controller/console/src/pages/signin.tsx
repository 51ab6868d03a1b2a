/**
 * The sign-in: user name and password through the token endpoint, basic or LDAP; or at one of
 * the cluster's identity providers with the device flow (the code shown here, entered at the
 * provider's page, which a link opens in a new tab).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage, identityProviders, signIn, signInWithProvider, type DeviceCodeGrant, type IdentityProviderInfo, type Mechanism, type Session } from '../api.js';

export function SignIn(p: { message: string; onSession: (s: Session) => void; onEnd: (message: string) => void }) {
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [mechanism, setMechanism] = useState<Mechanism>('basic');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main class="signin" id="main">
      <div class="signin-stack">
      <form
        class="card"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError('');
          try {
            p.onSession(await signIn(user, password, mechanism, p.onEnd));
          } catch (err) {
            setError(errorMessage(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <h1>Sign in to platform</h1>
        {p.message && (
          <p class="notice" role="status">
            {p.message}
          </p>
        )}
        <label>
          User name
          <input name="user" autocomplete="username" required value={user} onInput={(e) => setUser(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <fieldset class="inline-choice">
          <legend>Directory</legend>
          <label>
            <input type="radio" name="mechanism" value="basic" checked={mechanism === 'basic'} onChange={() => setMechanism('basic')} /> platform users
          </label>
          <label>
            <input type="radio" name="mechanism" value="ldap" checked={mechanism === 'ldap'} onChange={() => setMechanism('ldap')} /> LDAP
          </label>
        </fieldset>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button class="btn primary" type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ProviderSignIn onSession={p.onSession} onEnd={p.onEnd} />
      </div>
    </main>
  );
}

/** The identity providers' sign-in: a button each, then the code and the provider's page while it waits. */
function ProviderSignIn(p: { onSession: (s: Session) => void; onEnd: (message: string) => void }) {
  const [providers, setProviders] = useState<IdentityProviderInfo[]>([]);
  const [pending, setPending] = useState<{ idp: IdentityProviderInfo; code?: DeviceCodeGrant }>();
  const [error, setError] = useState('');
  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    // No providers (or an API that cannot say) leaves the password sign-in alone.
    identityProviders().then(setProviders, () => setProviders([]));
    return () => abort.current?.abort();
  }, []);
  if (providers.length === 0) return null;
  const start = async (idp: IdentityProviderInfo) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setError('');
    setPending({ idp });
    try {
      const session = await signInWithProvider(idp.name, (code) => setPending({ idp, code }), p.onEnd, controller.signal);
      p.onSession(session);
    } catch (err) {
      if (controller.signal.aborted) return;
      setError(errorMessage(err));
      setPending(undefined);
    }
  };
  const code = pending?.code;
  return (
    <section class="card idp" aria-label="Sign in at an identity provider">
      <h2>Or sign in at</h2>
      {!pending && (
        <ul class="plain">
          {providers.map((idp) => (
            <li key={idp.name}>
              <button class="btn" type="button" onClick={() => void start(idp)}>
                {idp.display_name || idp.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {pending && !code && <p role="status">Asking {pending.idp.display_name || pending.idp.name} for a code…</p>}
      {pending && code && (
        <div role="status" class="device-code">
          <p>
            Open{' '}
            <a href={code.verification_uri_complete ?? code.verification_url} target="_blank" rel="noopener noreferrer" data-testid="verification-link">
              {code.verification_url}
            </a>{' '}
            and enter the code
          </p>
          <p class="user-code" data-testid="user-code">
            {code.user_code}
          </p>
          <p class="muted">Waiting for the sign-in at {pending.idp.display_name || pending.idp.name}… (the code expires in {Math.round(code.expires_in / 60)} min)</p>
        </div>
      )}
      {pending && (
        <button
          class="btn"
          type="button"
          onClick={() => {
            abort.current?.abort();
            setPending(undefined);
          }}
        >
          Cancel
        </button>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
