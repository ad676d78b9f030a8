import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from './api';
import { navigation, useApp, useSearch } from './app';
import { URGENCY_LABEL, type Urgency } from './status';

/**
 * The page's heading: focused after each navigation inside the console so screen readers announce the new page
 * (not on the first load, where focus starts at the top as usual); sets the document title.
 */
/** What a page that writes says to a read key (useCanWrite), instead of a form it could not save. */
export function ReadOnlyNote() {
  return <p class="flash warn">This API key is read-only: sign in with a read_write or admin key to make changes.</p>;
}

export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Fleet Ops`;
    if (navigation.moved) ref.current?.focus();
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="loading" role="status">
      {what}…
    </p>
  );
}

export function ErrorBox({ error, title }: { error?: ApiError | null; title?: string }) {
  if (!error) return null;
  return (
    <div class="error-box" role="alert">
      {title ? <strong>{title} </strong> : null}
      {error.message}
    </div>
  );
}

/** A wide table that scrolls sideways on a narrow screen (focusable, so it scrolls by keyboard too). */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

export function Badge({ urgency }: { urgency: Urgency }) {
  return <span class={`badge badge-${urgency}`}>{URGENCY_LABEL[urgency]}</span>;
}

/** A labelled form control with the API's message for it below (aria-invalid and aria-describedby set). */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: ComponentChildren;
  error?: string;
  hint?: string;
  children: (props: { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string }) => JSX.Element;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': described })}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A download of text made in the browser (CSV export, templates). */
export function download(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Cursor paging of a list (the API's `nextCursor`): the cursor of the page shown and those of the pages before it,
 * to go back. `reset` returns to the first page (new filters).
 */
/**
 * The page of a paged list, held in the address (`cursor`, and `page` for its number), so Back from a record opened
 * on page 3 returns to page 3 and a reload stays on it. Next pushes the next page's address (other query parameters,
 * the filters, kept); Previous returns to the address Next came from (the browser's history holds it), or to the
 * first page when this page was opened by its address. A change of filters makes an address without a cursor: the
 * first page.
 */
export function usePager() {
  const { location, navigate } = useApp();
  const search = useSearch();
  const cursor = search.get('cursor');
  const number = cursor ? Math.max(2, Math.trunc(Number(search.get('page'))) || 2) : 1;
  const at = (c: string | null, n: number) => {
    const q = new URLSearchParams(filtersOf(search));
    if (c) q.set('cursor', c), q.set('page', String(n));
    const path = location.split('?')[0];
    return q.size ? `${path}?${q}` : path;
  };
  return {
    cursor,
    /** 1 for the first page */
    number,
    previous: cursor
      ? () => {
          if ((history.state as { pagedFrom?: string } | null)?.pagedFrom) history.back();
          else navigate(at(null, 1));
        }
      : null,
    next(nextCursor: string | null | undefined) {
      if (nextCursor) navigate(at(nextCursor, number + 1), { state: { pagedFrom: location } });
    },
  };
}

/** The query parameters that choose what a paged list shows (its filters), without its page (usePager). */
export function filtersOf(search: URLSearchParams): string {
  const q = new URLSearchParams(search);
  q.delete('cursor');
  q.delete('page');
  return q.toString();
}

/** Previous and next buttons of a paged list, with the page number. */
export function Pager({ label, pager, nextCursor }: { label: string; pager: ReturnType<typeof usePager>; nextCursor: string | null | undefined }) {
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="secondary" disabled={!pager.previous} onClick={() => pager.previous?.()}>
        Previous page
      </button>
      <span>Page {pager.number}</span>
      <button type="button" class="secondary" disabled={!nextCursor} onClick={() => pager.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}

/** Focus after a refusal: the first field with a message, else the summary above the form (`FormErrors`). */
export function focusFormError() {
  requestAnimationFrame(() =>
    ((document.querySelector('form [aria-invalid="true"], form fieldset[aria-invalid="true"] input') ?? document.getElementById('form-errors')) as HTMLElement | null)?.focus(),
  );
}

/**
 * A form's submission: `submit(work)` is the form's onSubmit; `busy` while the work runs; a refusal is kept in
 * `error` (fields read their messages from it) and focus moves to it. A page that stays after saving passes
 * `{ stay: true }` (a page that navigates away keeps its button busy until it has gone).
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const submit = (work: () => Promise<unknown>, opts: { stay?: boolean } = {}) => async (e?: Event) => {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await work();
      if (opts.stay) setBusy(false);
    } catch (err) {
      setError(err as ApiError);
      setBusy(false);
      focusFormError();
    }
  };
  return { busy, error, setError, submit };
}

/**
 * The summary above a refused form (announced as an alert, focusable as `#form-errors`): "Refused." for a conflict,
 * else `notDone`; how many fields need attention, or the API's message; and the messages no field shows.
 */
export function FormErrors({
  error,
  unplaced = [],
  notDone = 'Not saved.',
  fieldWord = ['One field needs', 'fields need'],
  showKeys = true,
}: {
  error: ApiError | null;
  unplaced?: [string, string][];
  notDone?: string;
  fieldWord?: [string, string];
  showKeys?: boolean;
}) {
  if (!error) return null;
  const n = error.fieldErrors.length;
  return (
    <div class="error-box" role="alert" id="form-errors" tabIndex={-1}>
      <strong>{error.code === 'CONFLICT' && !n ? 'Refused.' : notDone}</strong> {n ? `${n === 1 ? fieldWord[0] : `${n} ${fieldWord[1]}`} attention.` : error.message}
      {unplaced.length ? (
        <ul>
          {unplaced.map(([k, m]) => (
            <li key={k}>{showKeys && k ? `${k}: ${m}` : m}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * A select's options: the empty choice first (`none`: "All aircraft", "Not given", ...), then one per item, its
 * value `value(item)` (the item itself for strings) and its text `label(item)` (else the value).
 */
export function Options<T>({ none, items, value, label }: { none: string; items: readonly T[]; value?: (item: T) => string; label?: (item: T) => ComponentChildren }) {
  const valueOf = value ?? ((item: T) => String(item));
  return (
    <>
      <option value="">{none}</option>
      {items.map((item) => (
        <option key={valueOf(item)} value={valueOf(item)}>
          {label ? label(item) : valueOf(item)}
        </option>
      ))}
    </>
  );
}
