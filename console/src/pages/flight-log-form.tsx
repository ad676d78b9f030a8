import { useEffect, useRef, useState } from 'preact/hooks';
import {
  CreateFlightLogDocument,
  DeleteFlightLogDocument,
  FlightLogChoicesDocument,
  FlightLogDocument,
  UpdateFlightLogDocument,
  type CreateFlightLogInput,
  type UpdateFlightLogInput,
} from '../../generated/graphql';
import { ApiError, asTyped, errorsByField, gql, useQuery } from '../api';
import { useApp, useCanWrite, useSearch } from '../app';
import { flightLogInput, TEXT_FIELDS, type Values } from '../flight-log-model';
import { fromZonedLocal, num, toZonedLocal } from '../format';
import { numberMap, trackingMap } from '../tracking';
import { ErrorBox, Field, FormErrors, Loading, Options, PageTitle, ReadOnlyNote, useSubmit } from '../ui';

const COPILOT_TYPES = ['Co-Pilot', 'ICUS', 'Dual'];

/**
 * Log a flight or edit one. The aircraft's own tracking fields (maintenance items that accumulate into its totals,
 * and log items) are asked for; mistakes are the API's own messages, shown at the field they concern. The form does
 * not check anything itself (noValidate), so what the user reads is what every client of the API is told; the one
 * exception is a figure with more than 6 decimal places, which the double sent would round away (../figures.ts): it
 * is refused before sending, in the API's words, at its field.
 */
export function FlightLogFormPage({ id }: { id?: string }) {
  const { timeZone, navigate } = useApp();
  const canWrite = useCanWrite();
  const search = useSearch();
  const choices = useQuery(FlightLogChoicesDocument, {});
  const existing = useQuery(FlightLogDocument, { id: id ?? '' }, { skip: !id });
  const [values, setValues] = useState<Values>({ aircraftId: search.get('aircraftId') ?? '' });
  // the log whose values the form holds: an edit form is shown only once they are the log's, never blank first
  const [loaded, setLoaded] = useState<string | null>(null);
  const [tracking, setTracking] = useState<Values>({});
  // the date and time the edit form was shown with: sent back only when changed (../flight-log-model.ts)
  const [shownTimeDate, setShownTimeDate] = useState<string | undefined>(undefined);
  const { busy, error, setError, submit: submitting } = useSubmit();

  const log = existing.data?.flightLog;
  // the zone the date and time field is written in: a change of the header's zone rewrites that field for the same
  // instant and keeps everything else typed (it reloaded the whole form from the stored log, dropping the edits)
  const zoneShown = useRef(timeZone);
  useEffect(() => {
    const before = zoneShown.current;
    zoneShown.current = timeZone;
    if (before === timeZone) return;
    setValues((v) => {
      if (!v.timeDate) return v;
      if (log && v.timeDate === shownTimeDate) return { ...v, timeDate: toZonedLocal(log.timeDate, timeZone) };
      const instant = fromZonedLocal(v.timeDate, before);
      return Number.isNaN(Date.parse(instant)) ? v : { ...v, timeDate: toZonedLocal(instant, timeZone) };
    });
    if (log) setShownTimeDate(toZonedLocal(log.timeDate, timeZone));
  }, [timeZone]);
  useEffect(() => {
    if (!log) return;
    const shown = toZonedLocal(log.timeDate, zoneShown.current);
    setShownTimeDate(shown);
    setValues({
      aircraftId: log.aircraftId,
      timeDate: shown,
      pax: log.pax === null || log.pax === undefined ? '' : String(log.pax),
      ...Object.fromEntries(TEXT_FIELDS.map((k) => [k, (log[k] as string | null | undefined) ?? ''])),
    });
    setTracking(Object.fromEntries(Object.entries((log.trackingItems ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)])));
    setLoaded(log.uid);
  }, [log]);

  const aircraftList = choices.data?.aircraftList.data ?? [];
  const aircraft = aircraftList.find((a) => a.uid === values.aircraftId);
  const maint = trackingMap(aircraft?.maintenanceTrackingItems);
  const logItems = trackingMap(aircraft?.logTrackingItems);
  const totals = numberMap(aircraft?.totals);
  const users = (choices.data?.users.data ?? []).filter((u) => u.status !== 'Inactive' || u.uid === values.pilot || u.uid === values.copilot);
  const errors = errorsByField(error ?? undefined);
  const set = (k: string) => (e: Event) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value });
  const setT = (k: string) => (e: Event) => setTracking({ ...tracking, [k]: (e.target as HTMLInputElement).value });
  const trackingError = (k: string) => errors[`trackingItems.${k}`] ?? errors[k];

  const input = () => flightLogInput({ id, values, tracking, aircraft, log, shownTimeDate, timeZone });

  const submit = submitting(async () => {
    if (id) {
      const r = await gql(UpdateFlightLogDocument, { id, input: asTyped<UpdateFlightLogInput>(input()) });
      navigate(`/console/aircraft/${encodeURIComponent(values.aircraftId)}`, { flash: r.updateFlightLog.status === 'no_changes' ? 'No changes to save.' : 'Flight log updated.' });
    } else {
      await gql(CreateFlightLogDocument, { input: asTyped<CreateFlightLogInput>(input()) });
      navigate(`/console/aircraft/${encodeURIComponent(values.aircraftId)}`, { flash: `Flight logged on ${aircraft?.registration ?? values.aircraftId}.` });
    }
  });

  const remove = async () => {
    if (!id || !confirm('Delete this flight log? The aircraft’s totals go down by its values.')) return;
    try {
      await gql(DeleteFlightLogDocument, { id });
      navigate(`/console/aircraft/${encodeURIComponent(values.aircraftId)}`, { flash: 'Flight log deleted.' });
    } catch (err) {
      setError(err as ApiError);
    }
  };

  const title = id ? (canWrite ? 'Edit flight log' : 'Flight log') : 'Log a flight';
  // a read key: the log is shown as it is, with nothing to save; a new log is not offered at all
  if (!canWrite && !id) return (<><PageTitle title={title}>{title}</PageTitle><ReadOnlyNote /></>);
  if (choices.error || existing.error) return (<><PageTitle title={title}>{title}</PageTitle><ErrorBox error={choices.error ?? existing.error} /></>);
  if (!choices.data || (id && (!log || loaded !== log.uid))) return (<><PageTitle title={title}>{title}</PageTitle><Loading /></>);
  const placed = new Set(['aircraftId', 'aircraftRegistration', 'timeDate', 'pax', ...TEXT_FIELDS, ...Object.keys(maint).flatMap((k) => [k, `trackingItems.${k}`]), ...Object.keys(logItems).flatMap((k) => [k, `trackingItems.${k}`])]);
  const unplaced = Object.entries(errors).filter(([k]) => !placed.has(k));
  const trackingInput = (k: string, meta: { displayText: string; type: string; precision?: number }, accumulates: boolean) => (
    <Field
      key={k}
      id={`t-${k}`}
      label={meta.displayText}
      error={trackingError(k)}
      hint={accumulates ? `Adds to the total (now ${num(totals[k], meta.precision)})` : undefined}
    >
      {(p) =>
        meta.type === 'number' ? (
          <input {...p} type="text" inputMode="decimal" value={tracking[k] ?? ''} onInput={setT(k)} />
        ) : (
          <input {...p} type="text" value={tracking[k] ?? ''} onInput={setT(k)} />
        )
      }
    </Field>
  );
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      {canWrite ? null : <ReadOnlyNote />}
      <form class="stacked" onSubmit={submit} noValidate>
        <FormErrors error={error} unplaced={unplaced} />
        <fieldset disabled={!canWrite}>
          <legend>Flight</legend>
          <Field id="aircraftId" label="Aircraft" error={errors.aircraftId ?? errors.aircraftRegistration}>
            {(p) => (
              <select {...p} value={values.aircraftId ?? ''} onChange={set('aircraftId')}>
                <option value="">Choose an aircraft</option>
                {aircraftList.map((a) => (
                  <option key={a.uid} value={a.uid}>
                    {a.registration}
                    {a.model ? ` (${a.model})` : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="timeDate" label={`Date and time (${timeZone})`} error={errors.timeDate}>
            {(p) => <input {...p} type="datetime-local" value={values.timeDate ?? ''} onInput={set('timeDate')} />}
          </Field>
          <Field id="pilot" label="Pilot" error={errors.pilot}>
            {(p) => (
              <select {...p} value={values.pilot ?? ''} onChange={set('pilot')}>
                <Options none="Choose the pilot" items={users} value={(u) => u.uid} label={(u) => u.displayName} />
                {values.pilot && !users.some((u) => u.uid === values.pilot) ? <option value={values.pilot}>{values.pilot}</option> : null}
              </select>
            )}
          </Field>
          <div class="row">
            <Field id="copilot" label="Co-pilot" error={errors.copilot}>
              {(p) => (
                <select {...p} value={values.copilot ?? ''} onChange={set('copilot')}>
                  <Options none="None" items={users} value={(u) => u.uid} label={(u) => u.displayName} />
                  {values.copilot && !users.some((u) => u.uid === values.copilot) ? <option value={values.copilot}>{values.copilot}</option> : null}
                </select>
              )}
            </Field>
            <Field id="copilotType" label="Co-pilot role" error={errors.copilotType}>
              {(p) => (
                <select {...p} value={values.copilotType ?? ''} onChange={set('copilotType')}>
                  <Options none="Not given" items={COPILOT_TYPES} />
                </select>
              )}
            </Field>
          </div>
          <div class="row">
            <Field id="startLocation" label="From" error={errors.startLocation}>
              {(p) => <input {...p} type="text" value={values.startLocation ?? ''} onInput={set('startLocation')} />}
            </Field>
            <Field id="endLocation" label="To" error={errors.endLocation}>
              {(p) => <input {...p} type="text" value={values.endLocation ?? ''} onInput={set('endLocation')} />}
            </Field>
          </div>
          <div class="row">
            <Field id="flightNumber" label="Flight number" error={errors.flightNumber}>
              {(p) => <input {...p} type="text" value={values.flightNumber ?? ''} onInput={set('flightNumber')} />}
            </Field>
            <Field id="pax" label="Passengers" error={errors.pax}>
              {(p) => <input {...p} type="text" inputMode="numeric" value={values.pax ?? ''} onInput={set('pax')} />}
            </Field>
          </div>
          <Field id="notes" label="Notes" error={errors.notes}>
            {(p) => <textarea {...p} rows={3} value={values.notes ?? ''} onInput={set('notes')} />}
          </Field>
        </fieldset>
        {aircraft ? (
          <fieldset disabled={!canWrite}>
            <legend>Tracking of {aircraft.registration}</legend>
            {Object.entries(maint).map(([k, m]) => trackingInput(k, m, m.type === 'number'))}
            {Object.entries(logItems).map(([k, m]) => trackingInput(k, m, false))}
            {!Object.keys(maint).length && !Object.keys(logItems).length ? <p>This aircraft declares no tracking items.</p> : null}
          </fieldset>
        ) : (
          <p class="muted">Choose the aircraft to enter its tracking values.</p>
        )}
        {canWrite ? (
        <p class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : id ? 'Save changes' : 'Log flight'}
          </button>{' '}
          {id ? (
            <button type="button" class="danger" onClick={remove}>
              Delete
            </button>
          ) : null}
        </p>
        ) : null}
      </form>
    </>
  );
}
