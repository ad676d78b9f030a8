import type { JSX } from 'preact';
import { AssetPage } from './pages/asset';
import { CompletionPage } from './pages/completion';
import { FleetPage } from './pages/fleet';
import { FlightLogFormPage } from './pages/flight-log-form';
import { FlightLogImportPage } from './pages/flight-log-import';
import { FlightLogsPage } from './pages/flight-logs';
import { FormFillPage } from './pages/form-fill';
import { FormPage } from './pages/form';
import { FormsPage } from './pages/forms';
import { UtilisationPage } from './pages/utilisation';
import { AdminHomePage } from './pages/admin';
import { AdminKeysPage } from './pages/admin-keys';
import { AdminAircraftPage } from './pages/admin-aircraft';
import { AdminAircraftFormPage } from './pages/admin-aircraft-form';
import { AdminUsersPage } from './pages/admin-users';
import { AdminUserFormPage } from './pages/admin-user-form';
import { AdminIntegrationsPage } from './pages/admin-integrations';
import { AdminAlertsPage } from './pages/admin-alerts';
import { AdminAuditPage } from './pages/admin-audit';

/**
 * The console's pages, in one place. A page is a path pattern and what it renders; the navigation bar lists the
 * sections. The admin pages (issue 26 item 5: API keys, aircraft, users, integration settings, the audit log) are
 * under /console/admin, one NAV entry with `admin: true`, shown only when the key is an admin key (the `viewer`
 * query); each admin page says so to other keys (pages/admin.tsx), and its own navigation lists the admin pages.
 */
interface Route {
  pattern: RegExp;
  render: (m: RegExpExecArray) => JSX.Element;
}

const id = '([^/?#]+)';

export const ROUTES: Route[] = [
  { pattern: /^\/console\/?$/, render: () => <FleetPage /> },
  { pattern: new RegExp(`^/console/aircraft/${id}$`), render: (m) => <AssetPage kind="aircraft" id={decodeURIComponent(m[1])} /> },
  { pattern: new RegExp(`^/console/vehicles/${id}$`), render: (m) => <AssetPage kind="vehicle" id={decodeURIComponent(m[1])} /> },
  { pattern: /^\/console\/flight-logs\/?$/, render: () => <FlightLogsPage /> },
  { pattern: /^\/console\/flight-logs\/new$/, render: () => <FlightLogFormPage /> },
  { pattern: /^\/console\/flight-logs\/import$/, render: () => <FlightLogImportPage /> },
  { pattern: new RegExp(`^/console/flight-logs/${id}$`), render: (m) => <FlightLogFormPage id={decodeURIComponent(m[1])} /> },
  { pattern: /^\/console\/utilisation\/?$/, render: () => <UtilisationPage /> },
  { pattern: /^\/console\/forms\/?$/, render: () => <FormsPage /> },
  { pattern: new RegExp(`^/console/forms/${id}$`), render: (m) => <FormPage id={decodeURIComponent(m[1])} /> },
  { pattern: new RegExp(`^/console/forms/${id}/fill$`), render: (m) => <FormFillPage id={decodeURIComponent(m[1])} /> },
  { pattern: new RegExp(`^/console/completions/${id}$`), render: (m) => <CompletionPage id={decodeURIComponent(m[1])} /> },
  // the link a submission's defect items and notifications carry (<appBaseUrl>/forms/completions/<uid>, docs/forms.md)
  { pattern: new RegExp(`^/console/forms/completions/${id}$`), render: (m) => <CompletionPage id={decodeURIComponent(m[1])} /> },
  { pattern: /^\/console\/admin\/?$/, render: () => <AdminHomePage /> },
  { pattern: /^\/console\/admin\/keys$/, render: () => <AdminKeysPage /> },
  { pattern: /^\/console\/admin\/aircraft$/, render: () => <AdminAircraftPage /> },
  { pattern: /^\/console\/admin\/aircraft\/new$/, render: () => <AdminAircraftFormPage /> },
  { pattern: new RegExp(`^/console/admin/aircraft/${id}$`), render: (m) => <AdminAircraftFormPage id={decodeURIComponent(m[1])} /> },
  { pattern: /^\/console\/admin\/users$/, render: () => <AdminUsersPage /> },
  { pattern: /^\/console\/admin\/users\/new$/, render: () => <AdminUserFormPage /> },
  { pattern: new RegExp(`^/console/admin/users/${id}$`), render: (m) => <AdminUserFormPage uid={decodeURIComponent(m[1])} /> },
  { pattern: /^\/console\/admin\/integrations$/, render: () => <AdminIntegrationsPage /> },
  { pattern: /^\/console\/admin\/alerts$/, render: () => <AdminAlertsPage /> },
  { pattern: /^\/console\/admin\/audit$/, render: () => <AdminAuditPage /> },
];

export interface NavItem {
  href: string;
  label: string;
  /** Paths that belong to this section (the item is marked as the current page). */
  section: RegExp;
  /** Only for admin keys (issue 26 item 5). */
  admin?: boolean;
}

export const NAV: NavItem[] = [
  { href: '/console', label: 'Fleet', section: /^\/console(\/|\/(aircraft|vehicles)\/.*)?$/ },
  { href: '/console/flight-logs', label: 'Flight logs', section: /^\/console\/flight-logs/ },
  { href: '/console/utilisation', label: 'Utilisation', section: /^\/console\/utilisation/ },
  { href: '/console/forms', label: 'Forms', section: /^\/console\/(forms|completions)/ },
  { href: '/console/admin', label: 'Admin', section: /^\/console\/admin/, admin: true },
];

export function match(path: string): JSX.Element | null {
  for (const r of ROUTES) {
    const m = r.pattern.exec(path);
    if (m) return r.render(m);
  }
  return null;
}
