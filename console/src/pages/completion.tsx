import { CompletionDeliveriesDocument, FormCompletionPageDocument } from '../../generated/graphql';
import { useQuery } from '../api';
import { useApp } from '../app';
import { calendarDate, dateTime } from '../format';
import { answerText, sectionsOf } from '../forms-model';
import { ErrorBox, Loading, PageTitle, TableWrap } from '../ui';
import { DeliveriesTable } from './deliveries';

/** A submitted form: its answers by section, what it did (defects raised, vehicles updated, warnings), its deliveries. */
export function CompletionPage({ id }: { id: string }) {
  const { timeZone } = useApp();
  const q = useQuery(FormCompletionPageDocument, { id });
  const c = q.data?.formCompletion;
  const d = useQuery(CompletionDeliveriesDocument, { formId: c?.formId ?? '', completionId: id }, { skip: !c });
  if (!c) {
    return (
      <>
        <PageTitle title="Completion">Completion</PageTitle>
        <ErrorBox error={q.error} />
        {q.error ? null : <Loading />}
      </>
    );
  }
  const data = (c.data ?? {}) as Record<string, unknown>;
  const sections = sectionsOf(c.form?.sections);
  const known = new Set(sections.flatMap((s) => s.fields.flatMap((f) => [f.name, ...(f.companions ?? []).map((x) => `${f.name}__${x.name}`)])));
  const other = Object.keys(data).filter((k) => !known.has(k));
  const fx = c.sideEffects;
  return (
    <>
      <PageTitle title={`${c.name} completion`}>{c.name}: completion</PageTitle>
      <dl class="facts">
        <dt>Submitted</dt>
        <dd>
          {dateTime(c.createdAt, timeZone)} ({timeZone})
        </dd>
        <dt>By</dt>
        <dd>{c.submitterName ?? c.user?.displayName ?? c.userId}</dd>
        <dt>Form</dt>
        <dd>
          <a href={`/console/forms/${encodeURIComponent(c.formId)}`}>{c.name}</a> <code>{c.code}</code>
          {c.revision !== null && c.revision !== undefined ? `, revision ${c.revision}` : ''}
        </dd>
        <dt>Reference</dt>
        <dd>
          <code id="completion-uid">{c.uid}</code>
        </dd>
      </dl>
      <section aria-labelledby="h-effects">
        <h2 id="h-effects">Side effects</h2>
        <ul class="effects">
          <li>
            {fx.scheduleItemsCreated} defect{fx.scheduleItemsCreated === 1 ? '' : 's'} added to the maintenance schedule
          </li>
          <li>
            {fx.vehiclesUpdated} vehicle{fx.vehiclesUpdated === 1 ? '' : 's'} updated (odometer or hours)
          </li>
          {fx.warnings.map((w, i) => (
            <li key={i} class="warning">
              Warning: {w}
            </li>
          ))}
        </ul>
        {c.scheduleItems.length ? (
          <TableWrap label="Defects raised">
            <table>
              <caption>Defects raised by this submission</caption>
              <thead>
                <tr>
                  <th scope="col">Defect</th>
                  <th scope="col">Asset</th>
                  <th scope="col">Due</th>
                </tr>
              </thead>
              <tbody>
                {c.scheduleItems.map((s) => (
                  <tr key={s.uid}>
                    <td>
                      {s.name}
                      {s.notes ? <span class="muted"> {s.notes}</span> : null}
                    </td>
                    <td>
                      {s.relatedToType === 'aircraft' || s.relatedToType === 'vehicle' ? (
                        <a href={`/console/${s.relatedToType === 'aircraft' ? 'aircraft' : 'vehicles'}/${encodeURIComponent(s.relatedTo)}`}>
                          {s.relatedToType} {s.relatedTo}
                        </a>
                      ) : (
                        `${s.relatedToType} ${s.relatedTo}`
                      )}
                    </td>
                    <td>{calendarDate(s.calendarDateDue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </section>
      <section aria-labelledby="h-answers">
        <h2 id="h-answers">Answers</h2>
        {sections.map((s, si) => (
          <TableWrap key={si} label={s.name}>
            <table class="answers">
              <caption>{s.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col">Answer</th>
                </tr>
              </thead>
              <tbody>
                {s.fields.map((f) => (
                  <tr key={f.name} data-answer={f.name}>
                    <th scope="row">{f.label}</th>
                    <td>
                      {answerText(data[f.name])}
                      {(f.companions ?? [])
                        .filter((x) => data[`${f.name}__${x.name}`] !== undefined)
                        .map((x) => (
                          <span key={x.name} class="companion-answer">
                            <br />
                            {x.label ?? x.name}: {answerText(data[`${f.name}__${x.name}`])}
                          </span>
                        ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ))}
        {other.length ? (
          <TableWrap label="Other answers">
            <table class="answers">
              <caption>Answers to questions no longer on the form</caption>
              <tbody>
                {other.map((k) => (
                  <tr key={k}>
                    <th scope="row">{k}</th>
                    <td>{answerText(data[k])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </section>
      <section aria-labelledby="h-deliveries">
        <h2 id="h-deliveries">Deliveries</h2>
        <ErrorBox error={d.error} />
        {d.data ? <DeliveriesTable rows={d.data.formDeliveries.data} reload={d.reload} caption="Deliveries of this submission" /> : d.error ? null : <Loading />}
      </section>
    </>
  );
}
