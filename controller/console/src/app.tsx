/**
 * The console's shell: the sign-in until a session exists, then the navigation and the page
 * of the current hash route (`#/apps`, `#/jobs/<uuid>`, `#/deploy`, `#/packages`...). Pages the
 * user may not read are left out of the navigation (GET /permissions); the API still refuses
 * what they may not do, and pages show its message.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Session } from './api.js';
import { SessionContext, usePermissions, useRoute } from './ui.js';
import { SignIn } from './pages/signin.js';
import { JobsPage } from './pages/jobs.js';
import { JobPage } from './pages/job.js';
import { DeployPage } from './pages/deploy.js';
import { PackagePage, PackagesPage } from './pages/packages.js';
import { AgentsPage, NetworksPage, RoutesPage, ServicesPage } from './pages/cluster.js';
import { AuditPage } from './pages/audit.js';
import { PolicyPage } from './pages/policy.js';
import { UsersPage } from './pages/users.js';

export function App() {
  const [session, setSession] = useState<Session>();
  const [message, setMessage] = useState('');
  if (!session) {
    return (
      <SignIn
        message={message}
        onSession={(s) => {
          setMessage('');
          setSession(s);
        }}
        onEnd={(m) => {
          setSession(undefined);
          setMessage(m);
        }}
      />
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Shell session={session} />
    </SessionContext.Provider>
  );
}

const REALMS = ['audit::/', 'auth::/', 'policy::/', 'cluster::/'];

function Shell(p: { session: Session }) {
  const { parts } = useRoute();
  const may = usePermissions(REALMS);
  const [menuOpen, setMenuOpen] = useState(false);
  const page = parts[0] ?? 'apps';
  useEffect(() => setMenuOpen(false), [parts.join('/')]);
  useEffect(() => {
    document.title = `${TITLES[page] ?? 'platform'} · platform console`;
  }, [page]);
  const links: [string, string, boolean][] = [
    ['apps', 'Apps & jobs', true],
    ['deploy', 'Deploy', true],
    ['packages', 'Packages', true],
    ['agents', 'Instance managers', may('cluster::/', 'read')],
    ['services', 'Services', true],
    ['networks', 'Networks', true],
    ['routes', 'Routes', true],
    ['audit', 'Audit log', may('audit::/', 'read')],
    ['policy', 'Policy', may('policy::/', 'read')],
    ['users', 'Users', may('auth::/', 'read')],
  ];
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/apps">
          platform
        </a>
        <button type="button" class="btn plain menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav id="nav" class={menuOpen ? 'open' : ''} aria-label="Console">
          {links
            .filter(([, , shown]) => shown)
            .map(([href, label]) => (
              <a key={href} href={`#/${href}`} aria-current={page === href || (href === 'apps' && page === 'jobs') || (href === 'packages' && page === 'package') ? 'page' : undefined}>
                {label}
              </a>
            ))}
        </nav>
        <div class="user">
          <span title={p.session.user.principal}>{p.session.user.name}</span>
          <button type="button" class="btn plain" onClick={() => p.session.end('You have signed out.')}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Page parts={parts} />
      </main>
    </div>
  );
}

const TITLES: Record<string, string> = {
  apps: 'Apps & jobs', jobs: 'Job', deploy: 'Deploy', packages: 'Packages', package: 'Package', agents: 'Instance managers',
  services: 'Services', networks: 'Networks', routes: 'Routes', audit: 'Audit log', policy: 'Policy', users: 'Users',
};

function Page(p: { parts: string[] }) {
  const [page = 'apps', id] = p.parts;
  switch (page) {
    case 'apps':
      return <JobsPage />;
    case 'jobs':
      return id ? <JobPage uuid={id} /> : <JobsPage />;
    case 'deploy':
      return <DeployPage />;
    case 'packages':
      return <PackagesPage />;
    case 'package':
      return id ? <PackagePage uuid={id} /> : <PackagesPage />;
    case 'agents':
      return <AgentsPage />;
    case 'services':
      return <ServicesPage />;
    case 'networks':
      return <NetworksPage />;
    case 'routes':
      return <RoutesPage />;
    case 'audit':
      return <AuditPage />;
    case 'policy':
      return <PolicyPage />;
    case 'users':
      return <UsersPage />;
    default:
      return (
        <div class="card">
          <h1>Not found</h1>
          <p>
            No page <code>{page}</code>. <a href="#/apps">Apps & jobs</a>
          </p>
        </div>
      );
  }
}
