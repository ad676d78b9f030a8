import { useEffect, useState } from 'preact/hooks';
import { AdminAircraftDocument, CreateAircraftDocument, type CreateAircraftInput, DeleteAircraftDocument, UpdateAircraftDocument, type UpdateAircraftInput } from '../../generated/graphql';
import { ApiError, asTyped, errorsByField, gql, useQuery } from '../api';
import { useApp } from '../app';
import { Figures, pointer } from '../figures';
import { num } from '../format';
import { numberMap, trackingMap, type TrackingMap } from '../tracking';
import { ErrorBox, Field, Loading, FormErrors, useSubmit } from '../ui';
import { AdminFrame } from './admin';

const NAME_FIELDS = [
  { key: 'registration', label: 'Registration' },
  { key: 'type', label: 'Type code', hint: 'The aircraft type designator, e.g. B06, C172' },
  { key: 'category', label: 'Category', hint: 'Fixed-wing, rotary-wing, glider, drone, …' },
  { key: 'manufacturer', label: 'Manufacturer' },
  { key: 'model', label: 'Model' },
  { key: 'engineType', label: 'Engine type', hint: 'piston, turbine, electric, none, …' },
  { key: 'engineCount', label: 'Number of engines' },
  { key: 'status', label: 'Status', hint: 'e.g. active' },
] as const;
const OPTIONAL = new Set(['manufacturer', 'model']);

type Kind = 'maintenance' | 'log';
/** One tracking item as the form holds it: `saved` items keep their key (a new key is a new item). */
interface Item {
  id: number;
  kind: Kind;
  key: string;
  displayText: string;
  type: 'number' | 'string';
  precision: string;
  initial: string;
  saved: boolean;
}

let nextId = 1;
const blankItem = (kind: Kind): Item => ({ id: nextId++, kind, key: '', displayText: '', type: 'number', precision: '', initial: '', saved: false });

function itemsOf(maint: TrackingMap, logs: TrackingMap, initial: Record<string, number>): Item[] {
  const row = (kind: Kind) => ([key, m]: [string, TrackingMap[string]]): Item => ({
    id: nextId++,
    kind,
    key,
    displayText: m.displayText,
    type: m.type,
    precision: m.precision === undefined ? '' : String(m.precision),
    initial: initial[key] === undefined ? '' : String(initial[key]),
    saved: true,
  });
  return [...Object.entries(maint).map(row('maintenance')), ...Object.entries(logs).map(row('log'))];
}

const mapName = (kind: Kind) => (kind === 'maintenance' ? 'maintenanceTrackingItems' : 'logTrackingItems');
/** An item's metadata as sent; its precision read as a figure (../figures.ts), at its path in the item's map. */
const meta = (i: Item, figures: Figures) => ({
  displayText: i.displayText.trim(),
  type: i.type,
  ...(i.precision.trim() !== '' ? { precision: figures.number(i.precision, pointer(mapName(i.kind), i.key.trim(), 'precision')) } : {}),
});

/**
 * Add or edit an aircraft (admin): its registration and names, and its tracking items: maintenance items accumulate
 * into its totals from their initial values, log items are recorded on each flight log. On edit, only what changed
 * is sent (the API merges the maps key by key; a removed item is sent as null, which the API refuses with the count
 * while flight logs carry it). Deleting answers 409 with the counts while logs, components or schedule items refer to
 * the aircraft: the API's message is shown.
 */
export function AdminAircraftFormPage({ id }: { id?: string }) {
  const { navigate } = useApp();
  const existing = useQuery(AdminAircraftDocument, { id: id ?? '' }, { skip: !id });
  const [values, setValues] = useState<Record<string, string>>({ engineCount: '1', status: 'active' });
  const [items, setItems] = useState<Item[]>([]);
  const [loaded, setLoaded] = useState(false);
  const { busy, error, setError, submit: submitting } = useSubmit();
  const aircraft = existing.data?.aircraft;

  useEffect(() => {
    if (!aircraft) return;
    setValues(Object.fromEntries(NAME_FIELDS.map((f) => [f.key, aircraft[f.key] === null || aircraft[f.key] === undefined ? '' : String(aircraft[f.key])])));
    setItems(itemsOf(trackingMap(aircraft.maintenanceTrackingItems), trackingMap(aircraft.logTrackingItems), numberMap(aircraft.initialValues)));
    setLoaded(true);
  }, [aircraft]);

  const errors = errorsByField(error ?? undefined);
  const set = (k: string) => (e: Event) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value });
  const setItem = (itemId: number, patch: Partial<Item>) => setItems(items.map((i) => (i.id === itemId ? { ...i, ...patch } : i)));

  /** The input sent; its figures (engineCount, precision, initial values) read by ../figures.ts, which may refuse them. */
  const input = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const figures = new Figures();
    for (const f of NAME_FIELDS) {
      const v = (values[f.key] ?? '').trim();
      const before = aircraft ? aircraft[f.key] : undefined;
      if (f.key === 'engineCount') {
        if (!aircraft || String(before) !== v) out.engineCount = v === '' ? null : figures.number(v, '/engineCount');
      } else if (!aircraft) {
        if (v !== '') out[f.key] = v;
      } else if ((before ?? '') !== v) out[f.key] = v === '' ? (OPTIONAL.has(f.key) ? null : '') : v;
    }
    const maps: Record<Kind, Record<string, unknown>> = { maintenance: {}, log: {} };
    const initialValues: Record<string, unknown> = {};
    const savedMaint = trackingMap(aircraft?.maintenanceTrackingItems);
    const savedLog = trackingMap(aircraft?.logTrackingItems);
    const savedInitial = numberMap(aircraft?.initialValues);
    for (const i of items) {
      const key = i.key.trim();
      const saved = (i.kind === 'maintenance' ? savedMaint : savedLog)[key];
      const m = meta(i, figures);
      if (!saved || JSON.stringify(m) !== JSON.stringify({ displayText: saved.displayText, type: saved.type, ...(saved.precision !== undefined ? { precision: saved.precision } : {}) })) maps[i.kind][key] = m;
      if (i.kind === 'maintenance' && i.type === 'number') {
        const v = i.initial.trim();
        if (v !== '' && (savedInitial[key] === undefined || String(savedInitial[key]) !== v)) initialValues[key] = figures.figure(v, pointer('initialValues', key), 'a tracking value');
        if (v === '' && savedInitial[key] !== undefined) initialValues[key] = null;
      }
    }
    // items removed from the form: null removes them
    for (const [kind, saved] of [['maintenance', savedMaint], ['log', savedLog]] as const) {
      for (const key of Object.keys(saved)) if (!items.some((i) => i.kind === kind && i.key.trim() === key)) maps[kind][key] = null;
    }
    for (const kind of ['maintenance', 'log'] as const) if (!aircraft || Object.keys(maps[kind]).length) out[mapName(kind)] = maps[kind];
    if (Object.keys(initialValues).length) out.initialValues = initialValues;
    figures.check();
    return out;
  };

  const submit = submitting(async () => {
    if (id) {
      const r = await gql(UpdateAircraftDocument, { id, input: asTyped<UpdateAircraftInput>(input()) });
      navigate('/console/admin/aircraft', { flash: r.updateAircraft.status === 'no_changes' ? 'No changes to save.' : `Aircraft ${values.registration} updated.` });
    } else {
      await gql(CreateAircraftDocument, { input: asTyped<CreateAircraftInput>(input()) });
      navigate('/console/admin/aircraft', { flash: `Aircraft ${values.registration.trim()} added.` });
    }
  });

  const remove = async () => {
    if (!id || !aircraft || !confirm(`Delete the aircraft ${aircraft.registration}? This cannot be undone.`)) return;
    setError(null);
    try {
      await gql(DeleteAircraftDocument, { id });
      navigate('/console/admin/aircraft', { flash: `Aircraft ${aircraft.registration} deleted.` });
    } catch (err) {
      setError(err as ApiError);
      requestAnimationFrame(() => document.getElementById('form-errors')?.focus());
    }
  };

  const title = id ? `Edit aircraft${aircraft ? ` ${aircraft.registration}` : ''}` : 'Add an aircraft';
  if (existing.error) return (<AdminFrame title={title}><ErrorBox error={existing.error} /></AdminFrame>);
  if (id && !loaded) return (<AdminFrame title={title}><Loading /></AdminFrame>);

  const itemErrors = (i: Item) =>
    Object.entries(errors)
      .filter(([k]) => i.key.trim() && (k === `${mapName(i.kind)}.${i.key.trim()}` || k.startsWith(`${mapName(i.kind)}.${i.key.trim()}.`) || k === `initialValues.${i.key.trim()}`))
      .map(([, m]) => m)
      .join('; ');
  const placed = new Set([...NAME_FIELDS.map((f) => f.key), ...items.flatMap((i) => Object.keys(errors).filter((k) => itemErrors(i) && (k.startsWith(`${mapName(i.kind)}.${i.key.trim()}`) || k === `initialValues.${i.key.trim()}`)))]);
  const unplaced = Object.entries(errors).filter(([k]) => !placed.has(k));
  const totals = numberMap(aircraft?.totals);

  const itemRow = (i: Item, n: number) => {
    const p = `item-${i.id}`;
    const err = itemErrors(i);
    const kindLabel = i.kind === 'maintenance' ? 'Maintenance item' : 'Log item';
    return (
      <fieldset key={i.id} class={`item${err ? ' invalid' : ''}`} data-item={i.key || undefined} aria-describedby={err ? `${p}-error` : undefined}>
        <legend>
          {kindLabel} {n}
          {i.displayText ? `: ${i.displayText}` : ''}
        </legend>
        <div class="row">
          <div class="field">
            <label for={`${p}-key`}>Key</label>
            <input
              id={`${p}-key`}
              type="text"
              value={i.key}
              readOnly={i.saved}
              spellcheck={false}
              aria-describedby={`${p}-key-hint`}
              onInput={(e) => setItem(i.id, { key: (e.target as HTMLInputElement).value })}
            />
            <p class="hint" id={`${p}-key-hint`}>
              {i.saved ? 'Keys of saved items do not change (remove the item and add another).' : 'Letters, digits and _: the field name on flight logs, e.g. hobbs'}
            </p>
          </div>
          <div class="field">
            <label for={`${p}-name`}>Name</label>
            <input id={`${p}-name`} type="text" value={i.displayText} onInput={(e) => setItem(i.id, { displayText: (e.target as HTMLInputElement).value })} />
          </div>
        </div>
        <div class="row">
          <div class="field">
            <label for={`${p}-type`}>Value type</label>
            <select id={`${p}-type`} value={i.type} onChange={(e) => setItem(i.id, { type: (e.target as HTMLSelectElement).value as Item['type'] })}>
              <option value="number">number</option>
              <option value="string">text</option>
            </select>
          </div>
          <div class="field">
            <label for={`${p}-precision`}>Decimals shown</label>
            <input id={`${p}-precision`} type="text" inputMode="numeric" value={i.precision} onInput={(e) => setItem(i.id, { precision: (e.target as HTMLInputElement).value })} />
          </div>
        </div>
        {i.kind === 'maintenance' && i.type === 'number' ? (
          <div class="field">
            <label for={`${p}-initial`}>Initial value</label>
            <input
              id={`${p}-initial`}
              type="text"
              inputMode="decimal"
              value={i.initial}
              aria-describedby={`${p}-initial-hint`}
              onInput={(e) => setItem(i.id, { initial: (e.target as HTMLInputElement).value })}
            />
            <p class="hint" id={`${p}-initial-hint`}>
              The total before the first flight log{i.saved && totals[i.key] !== undefined ? `; the total is now ${num(totals[i.key], Number(i.precision) || 0)}` : ''}
            </p>
          </div>
        ) : null}
        {err ? (
          <p class="field-error" id={`${p}-error`}>
            {err}
          </p>
        ) : null}
        <p>
          <button type="button" class="secondary small" onClick={() => setItems(items.filter((x) => x.id !== i.id))}>
            Remove {kindLabel.toLowerCase()} {n}
          </button>
        </p>
      </fieldset>
    );
  };
  const maint = items.filter((i) => i.kind === 'maintenance');
  const logs = items.filter((i) => i.kind === 'log');

  return (
    <AdminFrame title={title}>
      <p>
        <a href="/console/admin/aircraft">Back to the aircraft</a>
      </p>
      <form class="stacked" onSubmit={submit} noValidate>
        <FormErrors error={error} unplaced={unplaced} />
        <fieldset>
          <legend>Aircraft</legend>
          <div class="row">
            {NAME_FIELDS.map((f) => (
              <Field key={f.key} id={f.key} label={f.label} error={errors[f.key]} hint={'hint' in f ? f.hint : undefined}>
                {(p) =>
                  f.key === 'engineCount' ? (
                    <input {...p} type="text" inputMode="numeric" value={values[f.key] ?? ''} onInput={set(f.key)} />
                  ) : (
                    <input {...p} type="text" value={values[f.key] ?? ''} onInput={set(f.key)} />
                  )
                }
              </Field>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Maintenance tracking items</legend>
          <p class="hint">Values flight logs add up into the aircraft’s totals (Hobbs hours, landings, cycles), from their initial values.</p>
          {maint.map((i, n) => itemRow(i, n + 1))}
          <p>
            <button type="button" class="secondary" onClick={() => setItems([...items, blankItem('maintenance')])}>
              Add a maintenance item
            </button>
          </p>
        </fieldset>
        <fieldset>
          <legend>Log tracking items</legend>
          <p class="hint">Values recorded on each flight log that do not add up (fuel uplift, remarks).</p>
          {logs.map((i, n) => itemRow(i, n + 1))}
          <p>
            <button type="button" class="secondary" onClick={() => setItems([...items, blankItem('log')])}>
              Add a log item
            </button>
          </p>
        </fieldset>
        <p class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : id ? 'Save changes' : 'Add aircraft'}
          </button>{' '}
          {id ? (
            <button type="button" class="danger" onClick={remove}>
              Delete aircraft
            </button>
          ) : null}
        </p>
      </form>
    </AdminFrame>
  );
}
