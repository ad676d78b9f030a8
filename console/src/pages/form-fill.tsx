import { useState } from 'preact/hooks';
import { FormFillDocument, SubmitFormDocument } from '../../generated/graphql';
import { errorsByField, gql, useQuery } from '../api';
import { useApp, useCanWrite } from '../app';
import { CHECKLIST_DEFAULT, collect, sectionsOf, type FormField, type Raw } from '../forms-model';
import { ErrorBox, FormErrors, Loading, Options, PageTitle, ReadOnlyNote, useSubmit } from '../ui';

interface Choice {
  uid: string;
  label: string;
}

/**
 * Filling a form in the browser: every field type of the field schema, the API's messages at each answer, and on
 * success the completion page with its side effects and deliveries.
 */
export function FormFillPage({ id }: { id: string }) {
  const { timeZone, navigate } = useApp();
  const canWrite = useCanWrite();
  const q = useQuery(FormFillDocument, { id });
  const [raw, setRaw] = useState<Raw>({});
  const [submitter, setSubmitter] = useState('');
  const { busy, error, submit: submitting } = useSubmit();
  const form = q.data?.form;
  if (!canWrite) {
    return (
      <>
        <PageTitle title="Fill in a form">Fill in a form</PageTitle>
        <ReadOnlyNote />
      </>
    );
  }
  if (!form) {
    return (
      <>
        <PageTitle title="Fill in a form">Fill in a form</PageTitle>
        <ErrorBox error={q.error} />
        {q.error ? null : <Loading />}
      </>
    );
  }
  const sections = sectionsOf(form.sections);
  const fields = sections.flatMap((s) => s.fields);
  const errors = errorsByField(error ?? undefined);
  const errorOf = (name: string) => errors[`answers.${name}`];
  const placed = new Set(fields.flatMap((f) => [`answers.${f.name}`, ...(f.companions ?? []).map((c) => `answers.${f.name}__${c.name}`)]));
  const unplaced = Object.entries(errors).filter(([k]) => !placed.has(k));
  const choices: Record<string, Choice[]> = {
    aircraft: q.data!.aircraftList.data.map((a) => ({ uid: a.uid, label: a.model ? `${a.registration} (${a.model})` : a.registration })),
    vehicle: q.data!.vehicles.data.map((v) => ({ uid: v.uid, label: `${v.registration} (${v.make} ${v.model})` })),
    user: q.data!.users.data.map((u) => ({ uid: u.uid, label: u.displayName })),
  };
  const set = (name: string, value: string | string[] | boolean) => setRaw((r) => ({ ...r, [name]: value }));

  const submit = submitting(async () => {
    const r = await gql(SubmitFormDocument, {
      input: {
        formId: form.uid,
        answers: collect(fields, raw, timeZone),
        ...(submitter.trim() ? { submitterName: submitter.trim() } : {}),
        appBaseUrl: new URL('/console', location.origin).href,
      },
    });
    const fx = r.createFormCompletion.sideEffects;
    navigate(`/console/completions/${encodeURIComponent(r.createFormCompletion.uid)}`, {
      flash: `Submitted: ${fx.scheduleItemsCreated} defect${fx.scheduleItemsCreated === 1 ? '' : 's'} raised, ${fx.vehiclesUpdated} vehicle${fx.vehiclesUpdated === 1 ? '' : 's'} updated.`,
    });
  });

  const control = (f: FormField, fid: string, describedBy: string | undefined, invalid: boolean) => {
    const common = { id: fid, name: f.name, 'aria-describedby': describedBy, 'aria-invalid': invalid ? ('true' as const) : undefined };
    const str = typeof raw[f.name] === 'string' ? (raw[f.name] as string) : '';
    const onInput = (e: Event) => set(f.name, (e.target as HTMLInputElement).value);
    const group = (type: 'radio' | 'checkbox', options: string[]) => (
      <fieldset class="choices" id={fid} aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined}>
        <legend>
          {f.label}
          {f.required ? <span class="req"> (required)</span> : null}
        </legend>
        {options.map((o, i) => (
          <label key={o}>
            <input
              type={type}
              name={f.name}
              id={`${fid}-${i}`}
              value={o}
              checked={type === 'radio' ? raw[f.name] === o : Array.isArray(raw[f.name]) && (raw[f.name] as string[]).includes(o)}
              onChange={(e) => {
                const on = (e.target as HTMLInputElement).checked;
                if (type === 'radio') set(f.name, o);
                else {
                  const now = Array.isArray(raw[f.name]) ? (raw[f.name] as string[]) : [];
                  set(f.name, on ? [...now, o] : now.filter((x) => x !== o));
                }
              }}
            />{' '}
            {o}
          </label>
        ))}
      </fieldset>
    );
    switch (f.type) {
      case 'textarea':
        return <textarea {...common} rows={4} maxLength={f.maxLength} value={str} onInput={onInput} />;
      case 'number':
      case 'odometer':
        return <input {...common} type="text" inputMode="decimal" value={str} onInput={onInput} />;
      case 'boolean':
        return group('radio', ['yes', 'no']);
      case 'checklist':
        return group('radio', f.options ?? CHECKLIST_DEFAULT);
      case 'multiselect':
        return group('checkbox', f.options ?? []);
      case 'select':
        return (
          <select {...common} value={str} onChange={onInput}>
            <Options none="Choose…" items={f.options ?? []} />
          </select>
        );
      case 'aircraft':
      case 'vehicle':
      case 'user':
        return (
          <select {...common} value={str} onChange={onInput}>
            <Options none="Choose…" items={choices[f.type]} value={(c) => c.uid} label={(c) => c.label} />
          </select>
        );
      case 'date':
        return <input {...common} type="date" value={str} onInput={onInput} />;
      case 'time':
        return <input {...common} type="time" value={str} onInput={onInput} />;
      case 'datetime':
        return <input {...common} type="datetime-local" value={str} onInput={onInput} />;
      case 'signature':
      case 'file':
      case 'photo':
        return f.multiple ? (
          <textarea {...common} rows={3} placeholder="One link per line" value={str} onInput={onInput} />
        ) : (
          <input {...common} type="url" placeholder="https://…" value={str} onInput={onInput} />
        );
      case 'defect':
        return (
          <>
            <textarea {...common} rows={3} placeholder="Describe the defect (leave empty if none)" value={str} onInput={onInput} />
            <label class="sub" for={`${fid}-severity`}>
              Severity
            </label>
            <select id={`${fid}-severity`} value={String(raw[`${f.name}__severity`] ?? '')} onChange={(e) => set(`${f.name}__severity`, (e.target as HTMLSelectElement).value)}>
              <Options none="Not given" items={['low', 'medium', 'high', 'critical']} />
            </select>
          </>
        );
      default:
        return <input {...common} type="text" maxLength={f.maxLength} placeholder={f.placeholder} value={str} onInput={onInput} />;
    }
  };

  const GROUPED = new Set(['boolean', 'checklist', 'multiselect']);
  return (
    <>
      <PageTitle title={form.name}>{form.name}</PageTitle>
      <p class="lead">
        {form.department}
        {form.revision !== null && form.revision !== undefined ? `, revision ${form.revision}` : ''}. Times are in {timeZone}.
      </p>
      <form class="stacked fill" onSubmit={submit} noValidate>
        <FormErrors error={error} unplaced={unplaced} notDone="Not submitted." fieldWord={['One answer needs', 'answers need']} showKeys={false} />
        {sections.map((s, si) => (
          <fieldset key={si} class="section">
            <legend>{s.name}</legend>
            {s.description ? <p class="hint">{s.description}</p> : null}
            {s.fields.map((f, fi) => {
              const fid = `q-${si}-${fi}`;
              const err = errorOf(f.name);
              const describedBy = [f.description ? `${fid}-hint` : '', err ? `${fid}-error` : ''].filter(Boolean).join(' ') || undefined;
              return (
                <div key={f.name} class={`field${err ? ' invalid' : ''}`} data-field={f.name}>
                  {GROUPED.has(f.type) ? null : (
                    <label for={fid}>
                      {f.label}
                      {f.required ? <span class="req"> (required)</span> : null}
                    </label>
                  )}
                  {control(f, fid, describedBy, !!err)}
                  {f.description ? (
                    <p class="hint" id={`${fid}-hint`}>
                      {f.description}
                    </p>
                  ) : null}
                  {err ? (
                    <p class="field-error" id={`${fid}-error`}>
                      {err}
                    </p>
                  ) : null}
                  {(f.companions ?? []).map((c) => {
                    const key = `${f.name}__${c.name}`;
                    const cid = `${fid}-${c.name}`;
                    const cerr = errors[`answers.${key}`];
                    return (
                      <div class="companion" key={key}>
                        <label for={cid}>
                          {c.label ?? c.name}
                          <span class="visually-hidden"> ({f.label})</span>
                        </label>
                        {c.type === 'boolean' ? (
                          <input id={cid} type="checkbox" checked={raw[key] === true} onChange={(e) => set(key, (e.target as HTMLInputElement).checked)} />
                        ) : c.type === 'textarea' ? (
                          <textarea id={cid} rows={2} value={String(raw[key] ?? '')} onInput={(e) => set(key, (e.target as HTMLTextAreaElement).value)} />
                        ) : (
                          <input
                            id={cid}
                            type={(c.type === 'photo' ? 'url' : 'text') as 'text'}
                            inputMode={c.type === 'number' ? 'decimal' : undefined}
                            value={String(raw[key] ?? '')}
                            onInput={(e) => set(key, (e.target as HTMLInputElement).value)}
                          />
                        )}
                        {cerr ? <p class="field-error">{cerr}</p> : null}
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </fieldset>
        ))}
        <div class="field">
          <label for="submitterName">Your name</label>
          <input id="submitterName" type="text" autoComplete="name" value={submitter} onInput={(e) => setSubmitter((e.target as HTMLInputElement).value)} />
        </div>
        <p class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Submitting…' : 'Submit'}
          </button>
        </p>
      </form>
    </>
  );
}
