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

/**
 * The console's pages, in one place. A page is a path pattern and what it renders; the navigation bar lists the
 * sections. Admin pages (issue 26 item 5: aircraft, users, API keys, integration and alert settings, audit log)
 * slot in as more routes and a NAV entry with `admin: true`, shown only when the key is an admin key.
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
];

export function match(path: string): JSX.Element | null {
  for (const r of ROUTES) {
    const m = r.pattern.exec(path);
    if (m) return r.render(m);
  }
  return null;
}
