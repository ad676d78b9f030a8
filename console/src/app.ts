import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ViewerQuery } from '../generated/graphql';

/** Who is signed in (the `viewer` query): the company, the key with its scope, the user it acts as. */
export type Viewer = ViewerQuery['viewer'];

/** What every page may use: the time zone figures are shown and entered in, navigation, and who is signed in. */
export interface AppContext {
  timeZone: string;
  /** Path and query of the current page, e.g. `/console/flight-logs?aircraftId=x`. */
  location: string;
  navigate(to: string, opts?: { replace?: boolean; flash?: string; state?: unknown }): void;
  /** A one-time message shown on the page navigated to (e.g. "Flight logged"). */
  flash?: string;
  /** Who is signed in; undefined while the console is still asking. */
  viewer?: Viewer;
}

/**
 * Whether the key signed in may write (read_write or admin). A read key is shown no action it would be refused (log,
 * edit, import, fill in, re-send): the pages show what it reads and say why there is nothing to save. While the
 * viewer is still being asked for, actions are shown (the API refuses a write of a read key anyway).
 */
export const useCanWrite = () => useApp().viewer?.key.scope !== 'read';

/** Set once the user has moved from page to page in the console (headings take focus from then on, not on load). */
export const navigation = { moved: false };

export const App = createContext<AppContext>({ timeZone: 'UTC', location: '/console', navigate: () => undefined });
export const useApp = () => useContext(App);

/** The query parameters of the current page. */
export function useSearch(): URLSearchParams {
  const { location } = useApp();
  const q = location.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : location.slice(q + 1));
}

/** `/console/flight-logs` + `{aircraftId: 'x', empty: ''}` → `/console/flight-logs?aircraftId=x`. */
export function withQuery(path: string, params: Record<string, string | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
