import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { App, navigation, type AppContext, type Viewer } from './app';
import { gql, session, UNAUTHORIZED_EVENT } from './api';
import { ViewerDocument } from '../generated/graphql';
import { match, NAV } from './routes';
import { SignIn } from './pages/sign-in';
import { browserTimeZone, timeZones } from './format';
import { PageTitle } from './ui';
import { companyZone, setDueSoon } from './status';
import './styles.css';

const TZ_KEY = 'fleetops.console.timeZone';
const SCOPE_LABEL = { read: 'read only', read_write: 'read and write', admin: 'admin' } as const;
const here = () => location.pathname + location.search;
/** A zone the browser can show times in (an IANA name; a stored abbreviation such as AEST or `UTC+10` is not one). */
const intlZone = (z: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: z });
    return true;
  } catch {
    return false;
  }
};

/** The shell: sign-in, the header with navigation and the time zone, and the page of the current path. */
function Console() {
  const [key, setKey] = useState(session.key);
  const [path, setPath] = useState(here());
  const [flash, setFlash] = useState<string | undefined>();
  // the zone figures are shown and entered in: the one chosen in the header, else (once the viewer is known) the
  // signed-in user's, else the company's, which the API reads dates in too (maintenance status, defects); until then
  // the browser's
  const [timeZone, setTimeZone] = useState(() => localStorage.getItem(TZ_KEY) || browserTimeZone());
  const [navOpen, setNavOpen] = useState(false);
  // why the console signed out by itself (the key was refused mid-session), said on the sign-in page
  const [signedOut, setSignedOut] = useState<string | undefined>();
  // who is signed in: known from the sign-in, asked again when the page is loaded with a key of this tab
  const [viewer, setViewer] = useState<Viewer | undefined>();
  useEffect(() => {
    if (!key || viewer) return;
    gql(ViewerDocument, {}, key).then(
      (r) => {
        setDueSoon(r.alertSettings);
        setViewer(r.viewer);
      },
      () => undefined, // a refused key signs out (UNAUTHORIZED_EVENT); other failures leave the admin section hidden
    );
  }, [key, viewer]);

  useEffect(() => {
    if (!viewer || localStorage.getItem(TZ_KEY)) return;
    const zone = [viewer.user?.timezone, companyZone.value].find((z) => z && intlZone(z));
    if (zone) setTimeZone(zone);
  }, [viewer]);

  const navigate = useCallback<AppContext['navigate']>((to, opts = {}) => {
    if (opts.replace) history.replaceState(opts.state ?? null, '', to);
    else history.pushState(opts.state ?? null, '', to);
    navigation.moved = true;
    setFlash(opts.flash);
    setNavOpen(false);
    setPath(here());
    window.scrollTo(0, 0);
  }, []);

  useEffect(() => {
    const onPop = () => {
      navigation.moved = true;
      setFlash(undefined);
      setPath(here());
    };
    // links inside the console navigate in the page; others (public forms, new tabs, downloads) as usual
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element).closest?.('a');
      if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
      if (a.pathname !== '/console' && !a.pathname.startsWith('/console/')) return;
      // a link within this page (the skip link, #main): focus its target, as the browser would, without a history entry
      if (a.getAttribute('href')?.startsWith('#')) {
        const target = document.getElementById(decodeURIComponent(a.hash.slice(1)));
        if (!target) return;
        e.preventDefault();
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        target.focus();
        target.scrollIntoView();
        return;
      }
      e.preventDefault();
      navigate(a.pathname + a.search);
    };
    const onUnauthorized = () => {
      session.signOut();
      setSignedOut('Signed out: the API key was refused (revoked, or unknown to this server). Sign in with a key of your company to go on; what was typed in an open form and not saved is lost.');
      setKey(null);
      setViewer(undefined);
    };
    addEventListener('popstate', onPop);
    document.addEventListener('click', onClick);
    addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => {
      removeEventListener('popstate', onPop);
      document.removeEventListener('click', onClick);
      removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    };
  }, [navigate]);

  if (!key) return <SignIn signedOut={signedOut} onSignedIn={(k, v) => (session.signIn(k), setSignedOut(undefined), setViewer(v), setKey(k))} />;

  const pathname = path.split('?')[0];
  const page = match(pathname);
  const changeZone = (tz: string) => {
    localStorage.setItem(TZ_KEY, tz);
    setTimeZone(tz);
  };
  return (
    <App.Provider value={{ timeZone, location: path, navigate, flash, viewer }}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/console">
          Fleet Ops
        </a>
        <button
          class="menu"
          type="button"
          aria-expanded={navOpen}
          aria-controls="nav"
          onClick={() => setNavOpen(!navOpen)}
          onKeyDown={(e) => e.key === 'Escape' && setNavOpen(false)}
        >
          Menu
        </button>
        <nav
          id="nav"
          aria-label="Console"
          class={navOpen ? 'open' : ''}
          onKeyDown={(e) => {
            // Escape closes the small screen's menu and gives the focus back to its button
            if (e.key !== 'Escape' || !navOpen) return;
            setNavOpen(false);
            (document.querySelector('header .menu') as HTMLButtonElement | null)?.focus();
          }}
        >
          <ul>
            {NAV.filter((n) => !n.admin || viewer?.key.scope === 'admin').map((n) => (
              <li key={n.href}>
                <a href={n.href} aria-current={n.section.test(pathname) ? 'page' : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="session">
          {viewer ? (
            <p class="who">
              <span class="company">{viewer.company.name}</span>{' '}
              <span class="key">
                key {viewer.key.name} ({SCOPE_LABEL[viewer.key.scope]})
              </span>
            </p>
          ) : null}
          <label class="tz">
            <span>Time zone</span>
            <select onChange={(e) => changeZone((e.target as HTMLSelectElement).value)}>
              {(timeZones().includes(timeZone) ? timeZones() : [timeZone, ...timeZones()]).map((z) => (
                <option key={z} value={z} selected={z === timeZone}>
                  {z}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              session.signOut();
              setSignedOut(undefined);
              setKey(null);
              setViewer(undefined);
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        {flash ? (
          <p class="flash" role="status">
            {flash}
          </p>
        ) : null}
        {page ?? (
          <>
            <PageTitle title="Not found">Page not found</PageTitle>
            <p>
              There is no console page at <code>{pathname}</code>. <a href="/console">Go to the fleet overview</a>.
            </p>
          </>
        )}
      </main>
    </App.Provider>
  );
}

render(<Console />, document.getElementById('app')!);
