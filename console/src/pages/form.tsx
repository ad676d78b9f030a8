import { useState } from 'preact/hooks';
import { FormPageDocument, SetFormPublicDocument } from '../../generated/graphql';
import { ApiError, gql, useQuery } from '../api';
import { useApp, useCanWrite } from '../app';
import { dateTime } from '../format';
import { sectionsOf } from '../forms-model';
import { ErrorBox, Loading, PageTitle, TableWrap } from '../ui';
import { DeliveriesTable } from './deliveries';

/** A form template: what it asks, its public link, its completions and the deliveries log with re-send. */
export function FormPage({ id }: { id: string }) {
  const { timeZone } = useApp();
  const canWrite = useCanWrite();
  const [completionsCursor, setCompletionsCursor] = useState<string | undefined>();
  const [deliveriesCursor, setDeliveriesCursor] = useState<string | undefined>();
  const q = useQuery(FormPageDocument, { id, formId: id, completionsCursor, deliveriesCursor });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const form = q.data?.form;
  const setPublic = async (on: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await gql(SetFormPublicDocument, { id, input: { publiclyAvailable: on } });
      q.reload();
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  if (!form) {
    return (
      <>
        <PageTitle title="Form">Form</PageTitle>
        <ErrorBox error={q.error} />
        {q.error ? null : <Loading />}
      </>
    );
  }
  const publicUrl = form.publiclyAvailable && form.publicId ? new URL(`/forms/public/${encodeURIComponent(form.publicId)}`, location.origin).href : null;
  const recipients = Array.isArray(form.notificationRecipients) ? (form.notificationRecipients as { name?: string; email?: string; phone?: string }[]) : [];
  return (
    <>
      <PageTitle title={form.name}>{form.name}</PageTitle>
      <dl class="facts">
        <dt>Code</dt>
        <dd>
          <code>{form.code}</code>
        </dd>
        <dt>Department</dt>
        <dd>{form.department}</dd>
        <dt>Revision</dt>
        <dd>
          {form.revision ?? '—'}
          {form.revisionDate ? ` (${form.revisionDate})` : ''}
        </dd>
        <dt>Status</dt>
        <dd>{form.status}</dd>
        <dt>Webhooks</dt>
        <dd>{form.webhooks.length ? form.webhooks.map((w) => `${w.url}${w.hasSecret ? ' (signed)' : ''}`).join(', ') : 'None'}</dd>
        <dt>Notifications</dt>
        <dd>{form.notification && recipients.length ? recipients.map((r) => r.email ?? r.phone ?? r.name).join(', ') : 'Off'}</dd>
      </dl>
      {form.status === 'active' && canWrite ? (
        <p class="actions">
          <a class="button" href={`/console/forms/${encodeURIComponent(form.uid)}/fill`}>
            Fill in this form
          </a>
        </p>
      ) : null}
      <section aria-labelledby="h-public">
        <h2 id="h-public">Public link</h2>
        {publicUrl ? (
          <>
            <p>
              Anyone with this link can fill the form in without a key; submissions are recorded as <code>public</code>:{' '}
              <a id="public-link" href={publicUrl} target="_blank" rel="noopener">
                {publicUrl}
                <span class="visually-hidden"> (opens in a new tab)</span>
              </a>
            </p>
            {canWrite ? (
              <p>
                <button type="button" class="secondary" disabled={busy} onClick={() => setPublic(false)}>
                  Stop public access
                </button>
              </p>
            ) : null}
          </>
        ) : (
          <>
            <p>This form is not public.</p>
            {canWrite ? (
              <p>
                <button type="button" class="secondary" disabled={busy} onClick={() => setPublic(true)}>
                  Make public
                </button>
              </p>
            ) : null}
          </>
        )}
        <ErrorBox error={error} />
      </section>
      <section aria-labelledby="h-fields">
        <h2 id="h-fields">Questions</h2>
        {sectionsOf(form.sections).map((s, si) => (
          <details key={si} open={si === 0}>
            <summary>
              {s.name} ({s.fields.length} question{s.fields.length === 1 ? '' : 's'})
            </summary>
            <ul>
              {s.fields.map((f) => (
                <li key={f.name}>
                  {f.label} <span class="muted">({f.type}{f.required ? ', required' : ''})</span>
                </li>
              ))}
            </ul>
          </details>
        ))}
      </section>
      <section aria-labelledby="h-completions">
        <h2 id="h-completions">Completions</h2>
        {q.data!.formCompletions.data.length ? (
          <TableWrap label="Completions">
            <table>
              <caption>Completions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Submitted ({timeZone})</th>
                  <th scope="col">By</th>
                  <th scope="col">Side effects</th>
                </tr>
              </thead>
              <tbody>
                {q.data!.formCompletions.data.map((c) => (
                  <tr key={c.uid}>
                    <td>
                      <a href={`/console/completions/${encodeURIComponent(c.uid)}`}>{dateTime(c.createdAt, timeZone)}</a>
                    </td>
                    <td>{c.submitterName ?? c.user?.displayName ?? c.userId}</td>
                    <td>
                      {c.sideEffects.scheduleItemsCreated} defect{c.sideEffects.scheduleItemsCreated === 1 ? '' : 's'} raised, {c.sideEffects.vehiclesUpdated} vehicle
                      {c.sideEffects.vehiclesUpdated === 1 ? '' : 's'} updated
                      {c.sideEffects.warnings.length ? `, ${c.sideEffects.warnings.length} warning${c.sideEffects.warnings.length === 1 ? '' : 's'}` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : (
          <p>No completions{completionsCursor ? ' on this page' : ' yet'}.</p>
        )}
        <Pager cursor={completionsCursor} next={q.data!.formCompletions.nextCursor} onPage={setCompletionsCursor} what="completions" />
      </section>
      <section aria-labelledby="h-deliveries">
        <h2 id="h-deliveries">Deliveries</h2>
        <DeliveriesTable rows={q.data!.formDeliveries.data} reload={q.reload} caption="Deliveries of this form, newest first" />
        <Pager cursor={deliveriesCursor} next={q.data!.formDeliveries.nextCursor} onPage={setDeliveriesCursor} what="deliveries" />
      </section>
    </>
  );
}

function Pager({ cursor, next, onPage, what }: { cursor?: string; next?: string | null; onPage: (c: string | undefined) => void; what: string }) {
  if (!cursor && !next) return null;
  return (
    <p class="pager">
      <button type="button" class="secondary" disabled={!cursor} onClick={() => onPage(undefined)}>
        Newest {what}
      </button>
      <button type="button" class="secondary" disabled={!next} onClick={() => onPage(next ?? undefined)}>
        Older {what}
      </button>
    </p>
  );
}
