import { useEffect, useState } from 'preact/hooks';
import { IntegrationSettingsDocument, PutIntegrationSettingsDocument } from '../../generated/graphql';
import { ApiError, errorsByField, gql, useQuery } from '../api';
import { ErrorBox, Field, Loading, FormErrors, useSubmit } from '../ui';
import { AdminFrame } from './admin';

/**
 * Integration settings (admin): the SMS provider (Twilio) form notifications are texted with. The auth token is
 * write-only: the API says only whether one is stored, and a token left empty keeps the stored one (for the same
 * account). Clearing removes the provider (SMS notifications are then recorded as skipped).
 */
export function AdminIntegrationsPage() {
  const q = useQuery(IntegrationSettingsDocument, {});
  const sms = q.data?.integrationSettings.sms;
  const [values, setValues] = useState({ accountSid: '', from: '', authToken: '' });
  const { busy, error, setError, submit: submitting } = useSubmit();
  const [status, setStatus] = useState('');
  useEffect(() => {
    if (q.data) setValues({ accountSid: sms?.accountSid ?? '', from: sms?.from ?? '', authToken: '' });
  }, [q.data]);
  const errors = Object.fromEntries(Object.entries(errorsByField(error ?? undefined)).map(([k, m]) => [k.replace(/^sms\./, ''), m]));
  const set = (k: keyof typeof values) => (e: Event) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value });

  const save = submitting(async () => {
    setStatus('');
    const token = values.authToken.trim();
    await gql(PutIntegrationSettingsDocument, {
      input: { sms: { provider: 'twilio', accountSid: values.accountSid.trim(), from: values.from.trim(), ...(token ? { authToken: token } : {}) } },
    });
    setStatus('SMS settings saved.');
    q.reload();
  }, { stay: true });

  const clear = async () => {
    if (!confirm('Remove the SMS provider? Its stored auth token is deleted, and SMS notifications are recorded as skipped until another is set.')) return;
    setError(null);
    setStatus('');
    try {
      await gql(PutIntegrationSettingsDocument, { input: { sms: null } });
      setStatus('SMS provider removed.');
      q.reload();
    } catch (err) {
      setError(err as ApiError);
    }
  };

  return (
    <AdminFrame title="Integrations">
      <p class="lead">Form templates can notify recipients by SMS; texts are sent through the company’s own provider account.</p>
      <p role="status" class="flash-inline">
        {status}
      </p>
      <ErrorBox error={q.error} />
      {!q.data ? (
        q.error ? null : <Loading />
      ) : (
        <>
          <h2>SMS provider</h2>
          <dl class="facts" id="sms-state">
            <dt>Provider</dt>
            <dd>{sms ? 'Twilio' : 'None: SMS notifications are recorded as skipped'}</dd>
            {sms ? (
              <>
                <dt>Account SID</dt>
                <dd>
                  <code>{sms.accountSid}</code>
                </dd>
                <dt>Sending number</dt>
                <dd>{sms.from}</dd>
                <dt>Auth token</dt>
                <dd>{sms.hasAuthToken ? 'Stored (never shown)' : 'None stored'}</dd>
              </>
            ) : null}
          </dl>
          <form class="stacked" onSubmit={save} noValidate>
            <FormErrors error={error} />
            <fieldset>
              <legend>Twilio</legend>
              <Field id="accountSid" label="Account SID" error={errors.accountSid} hint="AC and 32 hexadecimal digits, from the Twilio console">
                {(p) => <input {...p} type="text" spellcheck={false} autoComplete="off" value={values.accountSid} onInput={set('accountSid')} />}
              </Field>
              <Field id="from" label="Sending number" error={errors.from} hint="E.164, one of the account’s numbers, e.g. +61412345678">
                {(p) => <input {...p} type="tel" value={values.from} onInput={set('from')} />}
              </Field>
              <Field
                id="authToken"
                label="Auth token"
                error={errors.authToken}
                hint={sms?.hasAuthToken ? 'A token is stored and never shown. Leave empty to keep it (for the same account SID), or enter a new one.' : 'Write-only: it is stored and never shown again.'}
              >
                {(p) => <input {...p} type="password" autoComplete="new-password" spellcheck={false} value={values.authToken} onInput={set('authToken')} />}
              </Field>
            </fieldset>
            <p class="actions">
              <button type="submit" disabled={busy}>
                {busy ? 'Saving…' : 'Save SMS settings'}
              </button>{' '}
              {sms ? (
                <button type="button" class="danger" onClick={clear}>
                  Remove SMS provider
                </button>
              ) : null}
            </p>
          </form>
        </>
      )}
    </AdminFrame>
  );
}
