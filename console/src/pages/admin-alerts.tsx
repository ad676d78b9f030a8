import { useEffect, useState } from 'preact/hooks';
import { AlertDeliveriesDocument, AlertSettingsDocument, PutAlertSettingsDocument, ResendDeliveryDocument, type AlertSettingsPartsFragment } from '../../generated/graphql';
import { ApiError, asTyped, errorsByField, gql, useQuery } from '../api';
import { useApp } from '../app';
import { Figures } from '../figures';
import { dateTime } from '../format';
import { setDueSoon } from '../status';
import { ErrorBox, Field, Loading, TableWrap, FormErrors, useSubmit } from '../ui';
import { AdminFrame } from './admin';

/**
 * Maintenance alert settings (admin; docs/notifications.md "Maintenance alerts"): when an item counts as due soon,
 * the time zone of calendar days, and who is told (email, SMS through the integration settings' provider, a signed
 * webhook). A webhook's secret is write-only: the API says whether one is stored, a secret left empty keeps it, and
 * "Remove the stored secret" sends null, which removes it. Alerts are raised only once settings with at least one
 * recipient are saved (the API's `enabled`), and the page says so from the answer.
 * Below, the latest alert deliveries with their outcome, and re-send.
 */
type Kind = 'email' | 'phone' | 'url';
interface Row {
  kind: Kind;
  value: string;
  /** a new secret for a webhook ('' keeps the stored one) */
  secret: string;
  hasSecret: boolean;
  /** the stored secret is removed (sent as null) unless a new one is typed */
  removeSecret: boolean;
}

const KIND_LABEL: Record<Kind, string> = { email: 'Email', phone: 'SMS (phone)', url: 'Webhook URL' };
const EVENT_LABEL: Record<string, string> = { 'maintenance.due_soon': 'Due soon', 'maintenance.overdue': 'Due or overdue' };

function rowsOf(s: AlertSettingsPartsFragment | undefined): Row[] {
  return (s?.recipients ?? []).map((r) => {
    const kind: Kind = r.email ? 'email' : r.phone ? 'phone' : 'url';
    return { kind, value: r.email ?? r.phone ?? r.url ?? '', secret: '', hasSecret: !!r.hasSecret, removeSecret: false };
  });
}

export function AdminAlertsPage() {
  const q = useQuery(AlertSettingsDocument, {});
  const s = q.data?.alertSettings;
  const [days, setDays] = useState('14');
  const [hours, setHours] = useState('10');
  const [timezone, setTimezone] = useState('UTC');
  const [rows, setRows] = useState<Row[]>([]);
  const { busy, error, setError, submit: submitting } = useSubmit();
  const [status, setStatus] = useState('');
  useEffect(() => {
    if (!s) return;
    setDays(String(s.dueSoonDays));
    setHours(String(s.dueSoonHours));
    setTimezone(s.timezone);
    setRows(rowsOf(s));
  }, [q.data]);
  const errors = errorsByField(error ?? undefined);
  const setRow = (i: number, change: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));

  const save = submitting(async () => {
    setStatus('');
    // the thresholds as figures (../figures.ts): text that is no decimal figure (a blank too) is sent as typed, for the
    // API to refuse; more than 6 decimal places is refused here
    const figures = new Figures();
    const dueSoonDays = asTyped<number>(figures.number(days, '/dueSoonDays'));
    const dueSoonHours = asTyped<number>(figures.figure(hours, '/dueSoonHours', 'dueSoonHours'));
    figures.check();
    const saved = await gql(PutAlertSettingsDocument, {
      input: {
        dueSoonDays,
        dueSoonHours,
        timezone: timezone.trim(),
        recipients: rows.map((r) =>
          r.kind === 'url'
            ? { url: r.value.trim(), ...(r.secret ? { secret: r.secret } : r.hasSecret && r.removeSecret ? { secret: null } : {}) }
            : { [r.kind]: r.value.trim() },
        ),
      },
    });
    setDueSoon(saved.putAlertSettings);
    setStatus(saved.putAlertSettings.enabled ? 'Alert settings saved: alerts are on.' : 'Alert settings saved. Alerts stay off until a recipient is added.');
    q.reload();
  }, { stay: true });

  return (
    <AdminFrame title="Alerts">
      <p class="lead">
        Maintenance alerts tell people when a schedule item becomes due soon and when it is due or overdue, by hours and by date: once per item and due
        cycle, by email, SMS or a signed webhook.
      </p>
      <p role="status" class="flash-inline">
        {status}
      </p>
      <ErrorBox error={q.error} />
      {!s ? (
        q.error ? null : <Loading />
      ) : (
        <>
          <dl class="facts" id="alerts-state">
            <dt>Alerts</dt>
            <dd>{s.enabled ? 'On' : 'Off: they start when these settings are saved with at least one recipient'}</dd>
          </dl>
          <form class="stacked" onSubmit={save} noValidate>
            <FormErrors error={error} />
            <fieldset>
              <legend>When an item is due soon</legend>
              <Field id="dueSoonHours" label="Usage units before the threshold" error={errors.dueSoonHours} hint="Hours, landings, km … of the item’s tracking item">
                {(p) => <input {...p} type="text" inputMode="decimal" value={hours} onInput={(e) => setHours((e.target as HTMLInputElement).value)} />}
              </Field>
              <Field id="dueSoonDays" label="Days before the due date" error={errors.dueSoonDays}>
                {(p) => <input {...p} type="text" inputMode="numeric" value={days} onInput={(e) => setDays((e.target as HTMLInputElement).value)} />}
              </Field>
              <Field id="timezone" label="Time zone of calendar days" error={errors.timezone} hint="An IANA time zone, e.g. Australia/Sydney">
                {(p) => <input {...p} type="text" spellcheck={false} value={timezone} onInput={(e) => setTimezone((e.target as HTMLInputElement).value)} />}
              </Field>
            </fieldset>
            <fieldset>
              <legend>Recipients</legend>
              {rows.length === 0 ? <p>No recipients: no alert is raised until one is added.</p> : null}
              {rows.map((r, i) => {
                const rowError = errors[`recipients.${i}`];
                return (
                  <div class="recipient" key={i} role="group" aria-label={`Recipient ${i + 1}`}>
                    <Field id={`recipient-${i}-kind`} label={`Recipient ${i + 1}: channel`}>
                      {(p) => (
                        <select {...p} value={r.kind} onChange={(e) => setRow(i, { kind: (e.target as HTMLSelectElement).value as Kind })}>
                          {(Object.keys(KIND_LABEL) as Kind[]).map((k) => (
                            <option value={k} key={k}>
                              {KIND_LABEL[k]}
                            </option>
                          ))}
                        </select>
                      )}
                    </Field>
                    <Field
                      id={`recipient-${i}-value`}
                      label={`Recipient ${i + 1}: ${KIND_LABEL[r.kind].toLowerCase()}`}
                      error={errors[`recipients.${i}.${r.kind}`] ?? rowError}
                      hint={r.kind === 'phone' ? 'E.164, e.g. +61412345678; sent through the SMS provider of Integrations' : undefined}
                    >
                      {(p) => {
                        const onInput = (e: Event) => setRow(i, { value: (e.target as HTMLInputElement).value });
                        if (r.kind === 'email') return <input {...p} type="email" spellcheck={false} value={r.value} onInput={onInput} />;
                        if (r.kind === 'phone') return <input {...p} type="tel" value={r.value} onInput={onInput} />;
                        return <input {...p} type="url" spellcheck={false} value={r.value} onInput={onInput} />;
                      }}
                    </Field>
                    {r.kind === 'url' ? (
                      <Field
                        id={`recipient-${i}-secret`}
                        label={`Recipient ${i + 1}: signing secret`}
                        error={errors[`recipients.${i}.secret`]}
                        hint={r.hasSecret ? 'A secret is stored and never shown; leave empty to keep it.' : 'Optional, write-only (Standard Webhooks; a whsec_ secret works with their libraries).'}
                      >
                        {(p) => <input {...p} type="password" autoComplete="new-password" spellcheck={false} value={r.secret} onInput={(e) => setRow(i, { secret: (e.target as HTMLInputElement).value })} />}
                      </Field>
                    ) : null}
                    {r.kind === 'url' && r.hasSecret ? (
                      <p class="choices">
                        <label>
                          <input type="checkbox" checked={r.removeSecret} onChange={(e) => setRow(i, { removeSecret: (e.target as HTMLInputElement).checked })} /> Remove the stored
                          secret of recipient {i + 1} (its alerts are then sent unsigned; a new secret typed above replaces it instead)
                        </label>
                      </p>
                    ) : null}
                    <p class="actions">
                      <button type="button" class="secondary" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                        Remove recipient {i + 1}
                      </button>
                    </p>
                  </div>
                );
              })}
              <p class="actions">
                <button type="button" class="secondary" onClick={() => setRows([...rows, { kind: 'email', value: '', secret: '', hasSecret: false, removeSecret: false }])}>
                  Add a recipient
                </button>
              </p>
            </fieldset>
            <p class="actions">
              <button type="submit" disabled={busy}>
                {busy ? 'Saving…' : 'Save alert settings'}
              </button>
            </p>
          </form>
          <AlertDeliveries />
        </>
      )}
    </AdminFrame>
  );
}

/** The latest alert deliveries, newest first, with re-send. */
function AlertDeliveries() {
  const { timeZone } = useApp();
  const q = useQuery(AlertDeliveriesDocument, { limit: 50 });
  const [note, setNote] = useState('');
  const resend = async (id: string) => {
    try {
      await gql(ResendDeliveryDocument, { id });
      setNote('Sent again as a new delivery.');
      q.reload();
    } catch (err) {
      setNote((err as ApiError).message);
    }
  };
  const rows = q.data?.alertDeliveries.data ?? [];
  return (
    <section aria-labelledby="alert-deliveries">
      <h2 id="alert-deliveries">Alert deliveries</h2>
      <p role="status" class="flash-inline">
        {note}
      </p>
      <ErrorBox error={q.error} />
      {!q.data ? (
        q.error ? null : <Loading />
      ) : rows.length === 0 ? (
        <p>No alert has been sent yet.</p>
      ) : (
        <TableWrap label="Alert deliveries">
          <table>
            <thead>
              <tr>
                <th scope="col">When ({timeZone})</th>
                <th scope="col">Alert</th>
                <th scope="col">Channel</th>
                <th scope="col">To</th>
                <th scope="col">Outcome</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => {
                const p = (d.payload ?? {}) as { event?: string; title?: string; asset?: { name?: string } };
                return (
                  <tr key={d.uid}>
                    <td>{dateTime(d.createdAt, timeZone)}</td>
                    <td>
                      {EVENT_LABEL[p.event ?? ''] ?? p.event}: {p.title} on {p.asset?.name}
                    </td>
                    <td>{d.channel}</td>
                    <td class="wrap">{d.target}</td>
                    <td>
                      {d.status}
                      {d.attempt > 1 ? ` (attempt ${d.attempt})` : ''}
                      {d.error ? `: ${d.error}` : ''}
                    </td>
                    <td>
                      <button type="button" class="secondary" onClick={() => resend(d.uid)} aria-label={`Send again: ${p.title} to ${d.target}`}>
                        Send again
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
