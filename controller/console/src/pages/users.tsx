/** Users of basic authentication: the list, and (with `permit update` on auth::/) adding, new passwords and removal. */
import { useState } from 'preact/hooks';
import { ActionButton, ErrorBox, Section, Table, useLoad, usePermissions, useSession } from '../ui.js';

export function UsersPage() {
  const session = useSession();
  const users = useLoad(() => session.client.listUsers(), []);
  const may = usePermissions(['auth::/']);
  const admin = may('auth::/', 'update');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const list = users.data ?? [];
  return (
    <div>
      <h1>Users</h1>
      <ErrorBox error={users.error} />
      <Table head={['Name', 'Created', '']} rows={list.length} label="Users" empty="No users.">
        {list.map((u) => (
          <tr key={u.name}>
            <td>{u.name}</td>
            <td>{String(u['created_at'] ?? '')}</td>
            <td>
              {admin && u.name !== session.user.name && (
                <ActionButton
                  label="Delete"
                  kind="danger"
                  run={async () => {
                    await session.client.deleteUser(u.name);
                    users.reload();
                  }}
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
      {admin && (
        <Section title="Add a user or set a password" id="add-user">
          <form class="row" onSubmit={(e) => e.preventDefault()}>
            <label>
              Name
              <input autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </label>
            <label>
              Password
              <input type="password" autocomplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
            </label>
            <ActionButton
              label="Save user"
              kind="primary"
              disabled={!name || !password}
              run={async () => {
                await session.client.setUserPassword(name, password);
                setName('');
                setPassword('');
                users.reload();
              }}
            />
          </form>
        </Section>
      )}
    </div>
  );
}
