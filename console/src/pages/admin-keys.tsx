import { useRef, useState } from 'preact/hooks';
import { AdminApiKeysDocument, CreateApiKeyDocument, RevokeApiKeyDocument, type ApiKeyScope, type CreateApiKeyMutation } from '../../generated/graphql';
import { ApiError, errorsByField, gql, useQuery } from '../api';
import { useApp } from '../app';
import { dateTime } from '../format';
import { ErrorBox, Field, Loading, Options, TableWrap } from '../ui';
import { AdminFrame } from './admin';

const SCOPES: { value: ApiKeyScope; label: string }[] = [
  { value: 'read', label: 'read: reads only' },
  { value: 'read_write', label: 'read_write: reads and writes' },
  { value: 'admin', label: 'admin: also manages the company' },
];

/**
 * API keys (admin): the company's keys, revoked ones included (never a key itself: its first characters); a new
 * key is shown once, with a copy button; revoking asks first, and the API's refusal (a key revoking itself, the
 * company's last admin key) is shown as it says it.
 */
export function AdminKeysPage() {
  const { timeZone, viewer } = useApp();
  const q = useQuery(AdminApiKeysDocument, {});
  const [form, setForm] = useState({ name: '', scope: 'read_write' as ApiKeyScope, userId: '' });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<CreateApiKeyMutation['createApiKey'] | null>(null);
  const [copied, setCopied] = useState('');
  const [revokeError, setRevokeError] = useState<ApiError | null>(null);
  const [status, setStatus] = useState('');
  const keyRef = useRef<HTMLInputElement>(null);
  const users = q.data?.users.data ?? [];
  const userName = (uid: string | null | undefined) => (uid ? (users.find((u) => u.uid === uid)?.displayName ?? uid) : 'Company owner');
  const errors = errorsByField(error ?? undefined);

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setMade(null);
    setCopied('');
    try {
      const r = await gql(CreateApiKeyDocument, { input: { name: form.name, scope: form.scope, userId: form.userId || undefined } });
      setMade(r.createApiKey);
      setForm({ name: '', scope: 'read_write', userId: '' });
      q.reload();
      requestAnimationFrame(() => document.getElementById('new-key-heading')?.focus());
    } catch (err) {
      setError(err as ApiError);
      requestAnimationFrame(() => (document.querySelector('form.new-key [aria-invalid="true"]') as HTMLElement | null)?.focus());
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.key);
      setCopied('Copied to the clipboard.');
    } catch {
      // no clipboard permission: the key is selected for the user to copy
      keyRef.current?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };

  const revoke = async (id: string, name: string, prefix: string) => {
    setRevokeError(null);
    setStatus('');
    if (!confirm(`Revoke the key “${name}” (${prefix}…)? Every request with it is refused from now on; this cannot be undone.`)) return;
    try {
      await gql(RevokeApiKeyDocument, { id });
      setStatus(`Key “${name}” revoked.`);
      q.reload();
    } catch (err) {
      setRevokeError(err as ApiError);
    }
  };

  const keys = q.data?.apiKeys.data;
  return (
    <AdminFrame title="API keys">
      <p class="lead">Only the first characters of a key are kept for people to tell keys apart; a key is shown once, when it is created.</p>
      <h2>New key</h2>
      <form class="stacked new-key" onSubmit={create} noValidate>
        <fieldset>
          <legend>Create an API key</legend>
          <Field id="key-name" label="Name" error={errors.name} hint="What the key is for, e.g. “maintenance integration”">
            {(p) => <input {...p} type="text" value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} />}
          </Field>
          <div class="row">
            <Field id="key-scope" label="Scope" error={errors.scope}>
              {(p) => (
                <select {...p} value={form.scope} onChange={(e) => setForm({ ...form, scope: (e.target as HTMLSelectElement).value as ApiKeyScope })}>
                  {SCOPES.map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id="key-user" label="Acts as user" error={errors.userId} hint="Optional: by default the company’s owner">
              {(p) => (
                <select {...p} value={form.userId} onChange={(e) => setForm({ ...form, userId: (e.target as HTMLSelectElement).value })}>
                  <Options none="Company owner" items={users} value={(u) => u.uid} label={(u) => u.displayName} />
                </select>
              )}
            </Field>
          </div>
          {error && !error.fieldErrors.length ? <ErrorBox error={error} title="Not created." /> : null}
          <p class="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Creating…' : 'Create key'}
            </button>
          </p>
        </fieldset>
      </form>
      {made ? (
        <section class="new-key-shown" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading" tabIndex={-1}>
            Key “{made.name}” created
          </h2>
          <p>
            <strong>Copy it now: it is shown this once and never again.</strong> Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
          </p>
          <div class="field">
            <label for="new-key">New API key ({made.scope})</label>
            <div class="copy-row">
              <input id="new-key" ref={keyRef} type="text" readOnly value={made.key} spellcheck={false} onFocus={(e) => (e.target as HTMLInputElement).select()} />
              <button type="button" class="secondary" onClick={copy}>
                Copy key
              </button>
            </div>
            <p class="hint" role="status">
              {copied}
            </p>
          </div>
          <p>
            <button type="button" class="secondary" onClick={() => setMade(null)}>
              Done: hide the key
            </button>
          </p>
        </section>
      ) : null}
      <h2>Keys</h2>
      <p role="status" class="flash-inline">
        {status}
      </p>
      <ErrorBox error={revokeError} title="Not revoked." />
      <ErrorBox error={q.error} />
      {!keys ? (
        q.error ? null : <Loading />
      ) : (
        <TableWrap label="API keys">
          <table class="keys">
            <caption>API keys of the company, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scope</th>
                <th scope="col">User</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Revoked</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key={k.id} class={k.revokedAt ? 'revoked' : undefined}>
                  <th scope="row">
                    {k.name}
                    {k.id === viewer?.key.id ? <span class="muted"> (this console)</span> : null}
                    <br />
                    <code class="muted">{k.id}</code>
                  </th>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.scope}</td>
                  <td>{userName(k.userId)}</td>
                  <td>{dateTime(k.createdAt, timeZone)}</td>
                  <td>{k.lastUsedAt ? dateTime(k.lastUsedAt, timeZone) : 'Never'}</td>
                  <td>{k.revokedAt ? dateTime(k.revokedAt, timeZone) : 'Live'}</td>
                  <td>
                    {k.revokedAt ? null : (
                      <button type="button" class="danger small" onClick={() => revoke(k.id, k.name, k.prefix)} aria-label={`Revoke ${k.name} (${k.prefix}…)`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </AdminFrame>
  );
}
