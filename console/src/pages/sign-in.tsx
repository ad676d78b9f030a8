import { useState } from 'preact/hooks';
import { ApiError, gql } from '../api';
import { ViewerDocument } from '../../generated/graphql';
import { setDueSoon } from '../status';
import type { Viewer } from '../app';
import { ErrorBox, PageTitle } from '../ui';

/** Signing in: an API key, checked by asking who it is (`viewer`), kept for this browser session only. */
/**
 * `signedOut` says why the console came back here by itself (the key was refused while the operator worked): shown
 * until they sign in again, which brings them back to the page they were on.
 */
export function SignIn({ onSignedIn, signedOut }: { onSignedIn: (key: string, viewer: Viewer) => void; signedOut?: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const k = key.trim();
    if (!k) return setError(new ApiError('Enter an API key.', 'REQUIRED'));
    setBusy(true);
    try {
      const { viewer, alertSettings } = await gql(ViewerDocument, {}, k);
      setDueSoon(alertSettings);
      onSignedIn(k, viewer);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <PageTitle title="Sign in">Fleet Ops console</PageTitle>
      {signedOut && !error ? (
        <p class="flash warn" role="alert">
          {signedOut}
        </p>
      ) : null}
      <p>Sign in with an API key of your company. It is kept in this browser tab until you sign out or close it.</p>
      <form onSubmit={submit} noValidate>
        <div class={`field${error ? ' invalid' : ''}`}>
          <label for="api-key">API key</label>
          <input
            id="api-key"
            type="password"
            autoComplete="off"
            spellcheck={false}
            value={key}
            onInput={(e) => setKey((e.target as HTMLInputElement).value)}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby="api-key-hint"
          />
          <p class="hint" id="api-key-hint">
            <code>fleetops demo</code> prints one for the demo company; <code>fleetops keys create</code> makes others.
          </p>
        </div>
        <ErrorBox error={error} title="Not signed in." />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
