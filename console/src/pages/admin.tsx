import type { ComponentChildren } from 'preact';
import { useApp } from '../app';
import { Loading, PageTitle } from '../ui';

/**
 * The admin section's frame (issue 26 item 5): its own navigation between the admin pages, and nothing at all for a
 * key that is not an admin key (the API would refuse every management call of such a key anyway).
 */
export const ADMIN_PAGES = [
  { href: '/console/admin/keys', label: 'API keys' },
  { href: '/console/admin/aircraft', label: 'Aircraft' },
  { href: '/console/admin/users', label: 'Users' },
  { href: '/console/admin/integrations', label: 'Integrations' },
  { href: '/console/admin/alerts', label: 'Alerts' },
  { href: '/console/admin/audit', label: 'Audit log' },
] as const;

export function AdminFrame({ title, heading, children }: { title: string; heading?: ComponentChildren; children: ComponentChildren }) {
  const { viewer, location } = useApp();
  const path = location.split('?')[0];
  if (!viewer) return (<><PageTitle title={title}>{heading ?? title}</PageTitle><Loading /></>);
  if (viewer.key.scope !== 'admin') {
    return (
      <>
        <PageTitle title="Admin keys only">Admin keys only</PageTitle>
        <p>
          The admin pages manage the company (API keys, aircraft, users, settings, the audit log) and need an admin key. This console is signed in with
          a {viewer.key.scope === 'read' ? 'read' : 'read and write'} key. <a href="/console">Go to the fleet overview</a>.
        </p>
      </>
    );
  }
  return (
    <>
      <nav class="subnav" aria-label="Admin">
        <ul>
          {ADMIN_PAGES.map((p) => (
            <li key={p.href}>
              <a href={p.href} aria-current={path === p.href || path.startsWith(`${p.href}/`) ? 'page' : undefined}>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <PageTitle title={title}>{heading ?? title}</PageTitle>
      {children}
    </>
  );
}

/** The admin section's first page: what each admin page is for. */
export function AdminHomePage() {
  return (
    <AdminFrame title="Admin">
      <p class="lead">Managing the company through the GraphQL API with this admin key; changes to API keys, aircraft and users are recorded in the audit log.</p>
      <ul class="admin-index">
        <li>
          <a href="/console/admin/keys">API keys</a>: who may use the API, with which scope; create (the key is shown once) and revoke.
        </li>
        <li>
          <a href="/console/admin/aircraft">Aircraft</a>: add, edit registration, names and tracking items, delete.
        </li>
        <li>
          <a href="/console/admin/users">Users</a>: add and edit users, their status, roles and contact details.
        </li>
        <li>
          <a href="/console/admin/integrations">Integrations</a>: the SMS provider form notifications are sent with.
        </li>
        <li>
          <a href="/console/admin/alerts">Alerts</a>: when maintenance counts as due soon, who is told (email, SMS, webhook), and the alerts sent.
        </li>
        <li>
          <a href="/console/admin/audit">Audit log</a>: every management change, who made it and what it changed.
        </li>
      </ul>
    </AdminFrame>
  );
}
