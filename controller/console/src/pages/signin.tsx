/** The sign-in: user name and password through the token endpoint, basic or LDAP. */
import { useState } from 'preact/hooks';
import { errorMessage, signIn, type Mechanism, type Session } from '../api.js';

export function SignIn(p: { message: string; onSession: (s: Session) => void; onEnd: (message: string) => void }) {
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [mechanism, setMechanism] = useState<Mechanism>('basic');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main class="signin" id="main">
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
    </main>
  );
}
