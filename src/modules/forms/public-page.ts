import type { Form } from '../../generated/prisma/client.js';
import { inexactMessage } from '../../lib/json-numbers.js';
import { SUBMITTER_NAME_MAX } from '../completions/schema.js';
import type { Field } from './fields.js';
import { answerKeys, sectionsOf, type Section } from './service.js';

/**
 * The public form page (docs/contract/gaps.md §7; docs/forms.md): server-rendered HTML from the template's sections and field
 * types, with labels bound to inputs, fieldsets for sections and choice groups, required marks, limits as input
 * attributes, and a small inline script that checks answers against the completion schema, posts them as JSON to
 * the submissions route and announces errors or the confirmation. No external asset.
 */
export interface PageOptions {
  nonce: string;
  /** Choices for aircraft and vehicle fields: the company's records, labelled by registration. */
  choices: { aircraft: { uid: string; label: string }[]; vehicle: { uid: string; label: string }[] };
}

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function attrs(a: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${esc(v)}"`))
    .join('');
}

function control(f: Field, id: string, opts: PageOptions): string {
  const common = { id, name: f.name, 'aria-describedby': `${id}-err${f.description ? ` ${id}-help` : ''}`, required: f.required || undefined };
  const options = (list: string[]) => list.map((o) => `<option value="${esc(o)}">${esc(o)}</option>`).join('');
  const group = (type: 'radio' | 'checkbox', list: string[]) =>
    `<fieldset class="choices" id="${id}" aria-describedby="${id}-err"><legend>${esc(f.label)}${f.required ? ' <span class="req" aria-hidden="true">*</span>' : ''}</legend>${list
      .map((o, i) => `<label><input${attrs({ type, name: f.name, value: o, id: `${id}-${i}`, required: type === 'radio' && f.required ? true : undefined })}> ${esc(o)}</label>`)
      .join('')}</fieldset>`;
  switch (f.type) {
    case 'textarea':
      return `<textarea${attrs({ ...common, maxlength: f.maxLength, rows: 4 })}></textarea>`;
    case 'number':
    case 'odometer':
      // a text box, not type=number: Chromium's number box reads what is typed its own way before the page sees it
      // (`1,3` became 13 and was sent so; `-` or `1e999` became an empty value, dropped as if blank), so the page reads
      // the text typed and refuses what is not a number itself (typedNumber, check)
      return `<input${attrs({ type: 'text', ...common, inputmode: 'decimal', autocomplete: 'off' })}>`;
    case 'boolean':
      return group('radio', ['yes', 'no']);
    case 'select':
      return `<select${attrs(common)}><option value="">Choose…</option>${options(f.options ?? [])}</select>`;
    case 'multiselect':
      return group('checkbox', f.options ?? []);
    case 'checklist':
      return group('radio', f.options ?? ['pass', 'fail', 'n/a']);
    case 'date':
      return `<input${attrs({ type: 'date', ...common })}>`;
    case 'time':
      return `<input${attrs({ type: 'time', ...common })}>`;
    case 'datetime':
      return `<input${attrs({ type: 'datetime-local', ...common })}>`;
    case 'aircraft':
    case 'vehicle':
      return `<select${attrs(common)}><option value="">Choose…</option>${opts.choices[f.type].map((c) => `<option value="${esc(c.uid)}">${esc(c.label)}</option>`).join('')}</select>`;
    case 'signature':
    case 'file':
    case 'photo':
      return f.multiple
        ? `<textarea${attrs({ ...common, rows: 3, placeholder: 'One link per line' })}></textarea>`
        : `<input${attrs({ type: 'url', ...common, placeholder: 'https://…' })}>`;
    case 'defect':
      return `<textarea${attrs({ ...common, rows: 3, placeholder: 'Describe the defect (leave empty if none)' })}></textarea>
        <label class="sub" for="${id}-severity">Severity</label>
        <select id="${id}-severity" name="${esc(f.name)}__severity"><option value="">Not given</option>${options(['low', 'medium', 'high', 'critical'])}</select>`;
    default:
      return `<input${attrs({ type: 'text', ...common, maxlength: f.maxLength, placeholder: typeof f.placeholder === 'string' ? f.placeholder : undefined })}>`;
  }
}

const GROUPED = new Set(['boolean', 'multiselect', 'checklist']);

function fieldHtml(f: Field, si: number, fi: number, opts: PageOptions): string {
  const id = `f-${si}-${fi}`;
  const label = GROUPED.has(f.type) ? '' : `<label for="${id}">${esc(f.label)}${f.required ? ' <span class="req" aria-hidden="true">*</span>' : ''}</label>`;
  const help = f.description ? `<p class="help" id="${id}-help">${esc(f.description)}</p>` : '';
  const companions = (f.companions ?? [])
    .map((c) => {
      const cid = `${id}-${c.name}`;
      const name = `${f.name}__${c.name}`;
      const input =
        c.type === 'textarea'
          ? `<textarea id="${cid}" name="${esc(name)}" rows="2"></textarea>`
          : c.type === 'boolean'
            ? `<input type="checkbox" id="${cid}" name="${esc(name)}">`
            : `<input type="${c.type === 'photo' ? 'url' : 'text'}"${c.type === 'number' ? ' inputmode="decimal"' : ''} id="${cid}" name="${esc(name)}">`;
      return `<div class="companion"><label for="${cid}">${esc(c.label ?? c.name)}</label>${input}</div>`;
    })
    .join('');
  return `<div class="field" data-name="${esc(f.name)}" data-type="${esc(f.type)}">${label}${control(f, id, opts)}${help}<p class="error" id="${id}-err" aria-live="polite"></p>${companions}</div>`;
}

function sectionHtml(s: Section, si: number, opts: PageOptions): string {
  return `<fieldset class="section"><legend>${esc(s.name)}</legend>${s.description ? `<p class="help">${esc(s.description)}</p>` : ''}${s.fields
    .map((f, fi) => fieldHtml(f, si, fi, opts))
    .join('')}</fieldset>`;
}

const STYLE = `
:root{color-scheme:light dark;--accent:#0b5fff;--err:#b00020}
*{box-sizing:border-box}body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f6fa;color:#1b1f27}
main{max-width:44rem;margin:0 auto;padding:1.5rem 1rem 4rem}h1{font-size:1.6rem;margin:.5rem 0 0}.meta{color:#5a6270;margin:.25rem 0 1.5rem}
.section{background:#fff;border:1px solid #d8dde6;border-radius:10px;padding:1rem 1.25rem;margin:0 0 1.25rem}
.section>legend{font-weight:650;font-size:1.1rem;padding:0 .4rem}.field{margin:1rem 0}
label{display:block;font-weight:550;margin-bottom:.3rem}.sub{font-weight:500;margin-top:.5rem}
input[type=text],input[type=number],input[type=url],input[type=date],input[type=time],input[type=datetime-local],select,textarea{width:100%;padding:.55rem .65rem;border:1px solid #aab3c2;border-radius:6px;font:inherit;background:#fff;color:inherit}
input:focus,select:focus,textarea:focus{outline:3px solid color-mix(in srgb,var(--accent) 35%,transparent);border-color:var(--accent)}
.choices{border:0;padding:0;margin:0}.choices legend{font-weight:550;margin-bottom:.3rem;padding:0}.choices label{display:inline-flex;gap:.35rem;align-items:center;font-weight:400;margin:0 1.2rem .3rem 0}
.companion{margin:.5rem 0 0 1rem}.help{color:#5a6270;font-size:.9rem;margin:.25rem 0}.req{color:var(--err)}
.error{color:var(--err);font-size:.9rem;margin:.25rem 0 0;min-height:0}[aria-invalid=true]{border-color:var(--err)!important}
button{background:var(--accent);color:#fff;border:0;border-radius:8px;padding:.75rem 1.5rem;font:inherit;font-weight:600;cursor:pointer}button[disabled]{opacity:.6}
#summary{border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}#summary:empty{display:none}#summary.bad{background:#fde8eb;color:var(--err)}#summary.good{background:#e6f6ec;color:#14532d}
@media (prefers-color-scheme:dark){body{background:#12151b;color:#e6e9ef}.section{background:#1b1f27;border-color:#2c3340}input,select,textarea{background:#12151b!important}.meta,.help{color:#9aa3b2}}
`;

/** How the API's refusal of a number no double holds exactly begins (src/lib/json-numbers.ts): the page shows it as said. */
const INEXACT_START = inexactMessage('1').split('1')[0];

/** The client side: collect answers by field name, check them against the completion schema, post, announce. */
const SCRIPT = `
(() => {
  const schema = JSON.parse(document.getElementById('schema').textContent);
  const INEXACT_START = ${JSON.stringify(INEXACT_START)};
  // a typed number goes as the digits typed, never through Number(), which rounded past 15 significant digits
  // (12345678901234567 was sent as ...568, 1.00000000000000001 as 1): the API takes a number as written or refuses it,
  // in its own words, at its path (docs/api-notes.md, "A number is taken as written, or refused"). Decimal notation is
  // written as JSON writes a number (.5 as 0.5, 007 as 7, +5 as 5), its digits unchanged; anything else stays text,
  // which check() refuses as not a number (\`1,3\`, \`-\`), and so is one past a double's range (1e999).
  function Typed(digits) { this.digits = digits; }
  function typedNumber(c) {
    const s = c && 'value' in c ? c.value.trim() : '';
    if (s === '') return undefined;
    const m = /^([+-]?)(\\d*)(?:\\.(\\d+))?(?:[eE]([+-]?\\d+))?$/.exec(s);
    if (!m || (m[2] === '' && m[3] === undefined)) return s;
    return new Typed((m[1] === '-' ? '-' : '') + (m[2].replace(/^0+(?=\\d)/, '') || '0') + (m[3] !== undefined ? '.' + m[3] : '') + (m[4] !== undefined ? 'e' + m[4] : ''));
  }
  const asNumber = (v) => (v instanceof Typed ? Number(v.digits) : v);
  // the body as JSON text, each typed number as its digits
  const bodyText = (answers, who) =>
    '{"answers":{' + Object.keys(answers).map((k) => JSON.stringify(k) + ':' + (answers[k] instanceof Typed ? answers[k].digits : JSON.stringify(answers[k]))).join(',') + '}' +
    (who ? ',"submitterName":' + JSON.stringify(who) : '') + '}';
  // Everything goes through the element around the form, never the form element: a form's controls override its
  // properties by name (a field named \`action\` was the address posted to, one named \`elements\` broke the script,
  // \`submitterName\` took the name box's place), and a field may have any name
  const form = document.getElementById('form-area');
  const control = (n) => form.querySelector('[name="' + CSS.escape(n) + '"]');
  const summary = document.getElementById('summary');
  const byName = new Map(schema.fields.map((k) => [k.name, k]));
  const fieldEl = (name) => form.querySelector('.field[data-name="' + CSS.escape(name) + '"]');
  const show = (name, msg) => {
    const el = fieldEl(name.split('__')[0]);
    if (!el) return false;
    const err = el.querySelector('.error');
    err.textContent = msg;
    for (const c of el.querySelectorAll('input,select,textarea')) if (!c.closest('.companion')) c.setAttribute('aria-invalid', msg ? 'true' : 'false');
    return true;
  };
  // an answer being corrected loses its error; the summary goes when no error is left
  form.addEventListener('input', (e) => {
    const el = e.target.closest('.field');
    if (!el || e.target.closest('.companion')) return;
    show(el.dataset.name, '');
    if (summary.className === 'bad' && ![...form.querySelectorAll('.field .error')].some((x) => x.textContent)) { summary.textContent = ''; summary.className = ''; }
  });
  function collect() {
    const answers = {};
    for (const el of form.querySelectorAll('.field')) {
      const name = el.dataset.name, type = el.dataset.type, key = byName.get(name);
      // text as typed, without the spaces around it; a select's option as the template has it (an option may end
      // in a space: trimmed, it was no option)
      const v = (n) => { const c = control(n); return c && 'value' in c ? (c.tagName === 'SELECT' ? c.value : c.value.trim()) : ''; };
      let value;
      if (type === 'boolean') { const c = form.querySelector('input[name="' + CSS.escape(name) + '"]:checked'); value = c ? c.value === 'yes' : undefined; }
      else if (type === 'checklist') { const c = form.querySelector('input[name="' + CSS.escape(name) + '"]:checked'); value = c ? c.value : undefined; }
      else if (type === 'multiselect') { const cs = [...form.querySelectorAll('input[name="' + CSS.escape(name) + '"]:checked')].map((c) => c.value); value = cs.length ? cs : undefined; }
      else if (type === 'number' || type === 'odometer') value = typedNumber(control(name));
      else if (type === 'datetime') { const s = v(name); value = s ? new Date(s).toISOString() : undefined; }
      else if (type === 'defect') { const d = v(name), sev = v(name + '__severity'); value = d ? (sev ? { description: d, severity: sev } : { description: d }) : undefined; }
      else if (key && key.format === 'file' && key.multiple) { const s = v(name); value = s ? s.split(/\\n+/).map((x) => x.trim()).filter(Boolean) : undefined; }
      else { const s = v(name); value = s === '' ? undefined : s; }
      if (value !== undefined) answers[name] = value;
      for (const c of el.querySelectorAll('.companion input,.companion textarea')) {
        const cv = c.type === 'checkbox' ? (c.checked || undefined) : c.inputMode === 'decimal' ? typedNumber(c) : (c.value.trim() || undefined);
        if (cv !== undefined) answers[c.name] = cv;
      }
    }
    return answers;
  }
  // what an answer must be, in plain words for the person filling the form (never a field's internal name or id)
  const blank = (v) => v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
  const places = (p) => p === 0 ? ' without decimals' : p ? ' with at most ' + p + (p === 1 ? ' decimal place' : ' decimal places') : '';
  const range = (k) => {
    if (k.min !== undefined && k.max !== undefined) return ' from ' + k.min + ' to ' + k.max;
    const said = [k.min !== undefined ? 'at least ' + k.min : '', k.max !== undefined ? 'at most ' + k.max : k.exclusiveMaximum !== undefined ? 'less than ' + k.exclusiveMaximum : ''].filter(Boolean);
    return said.length ? ' of ' + said.join(' and ') : '';
  };
  function rule(k) {
    if (k.references === 'aircraft') return 'Choose an aircraft from the list.';
    if (k.references === 'vehicle') return 'Choose a vehicle from the list.';
    if (k.references) return 'Choose one from the list.';
    if (k.type === 'number' || k.type === 'odometer' || k.format === 'number') return 'Enter a number' + range(k) + places(k.precision) + '.';
    if (k.type === 'date') return 'Enter a date.';
    if (k.type === 'time') return 'Enter a time.';
    if (k.type === 'datetime') return 'Enter a date and a time.';
    if (k.format === 'file') {
      const most = k.maxLength ? (k.multiple ? ', each at most ' : ', at most ') + k.maxLength + ' characters' : '';
      return k.multiple ? 'Enter web links (starting with https://' + most + '), one per line.' : 'Enter a web link starting with https://' + most + '.';
    }
    if (k.type === 'multiselect') return 'Choose from the options.';
    if (k.enum || k.type === 'boolean' || k.type === 'checklist' || k.type === 'select') return 'Choose one of the options.';
    if (k.type === 'defect') return 'Describe the defect in a few words' + (k.maxLength ? ' (at most ' + k.maxLength + ' characters)' : '') + '.';
    if (k.maxLength) return 'Check this answer: at most ' + k.maxLength + ' characters.';
    return 'Check this answer.';
  }
  // an answer the server refused: which one (by its field), and what it must be
  function explain(name, answers, message) {
    const k = byName.get(name);
    if (!k) return null;
    if (blank(answers[name])) return k.required ? 'This answer is required.' : rule(k);
    // a number no double holds exactly: the API's words (they name no field), since the rule would not say what is wrong
    if (answers[name] instanceof Typed && message.startsWith(INEXACT_START)) return message[0].toUpperCase() + message.slice(1) + '.';
    if (k.references) return 'The ' + (k.references === 'aircraft' ? 'aircraft' : k.references) + ' you chose can no longer be chosen. ' + rule(k);
    return rule(k);
  }
  const REFUSED = {
    404: 'This form is no longer available.',
    409: 'This form is no longer taking answers.',
    413: 'Your answers are too long to send: please shorten them and try again.',
    429: 'Too many forms were sent from your connection: please wait a minute and try again.',
  };
  function check(answers) {
    const errors = [];
    for (const k of schema.fields) {
      const v = asNumber(answers[k.name]);
      if (v === undefined) { if (k.required) errors.push([k.name, 'This answer is required']); continue; }
      if (k.format === 'number' && (typeof v !== 'number' || !Number.isFinite(v))) errors.push([k.name, 'Enter a number']);
      else if (typeof v === 'number' && k.min !== undefined && v < k.min) errors.push([k.name, 'At least ' + k.min]);
      else if (typeof v === 'number' && k.max !== undefined && v > k.max) errors.push([k.name, 'At most ' + k.max]);
      else if (typeof v === 'number' && k.exclusiveMaximum !== undefined && v >= k.exclusiveMaximum) errors.push([k.name, 'Less than ' + k.exclusiveMaximum]);
      else if (k.enum && typeof v === 'string' && !k.enum.includes(v)) errors.push([k.name, 'Choose one of the options']);
      else if (k.maxLength && typeof v === 'string' && v.length > k.maxLength) errors.push([k.name, 'At most ' + k.maxLength + ' characters']);
    }
    return errors;
  }
  function report(errors, title) {
    for (const el of form.querySelectorAll('.field')) show(el.dataset.name, '');
    const unplaced = errors.filter(([n, m]) => !show(n, m)).map(([, m]) => m);
    summary.className = 'bad';
    summary.textContent = title + (unplaced.length ? ' ' + unplaced.join('; ') : '');
    summary.focus();
    const first = errors.map(([n]) => fieldEl(n.split('__')[0])).find(Boolean);
    if (first) first.querySelector('input,select,textarea')?.focus();
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const answers = collect();
    const errors = check(answers);
    if (errors.length) return report(errors, 'Please correct ' + errors.length + (errors.length === 1 ? ' answer.' : ' answers.'));
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      const who = document.getElementById('submitterName').value.trim();
      const res = await fetch(form.dataset.action, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: bodyText(answers, who) });
      const out = await res.json().catch(() => ({}));
      if (res.ok) {
        form.hidden = true;
        summary.className = 'good';
        summary.innerHTML = '';
        const p = document.createElement('p');
        p.textContent = 'Thank you: your answers were received. Reference: ';
        const code = document.createElement('strong');
        code.id = 'completion-id';
        code.textContent = out.uid;
        p.append(code);
        summary.append(p);
        summary.focus();
      } else {
        // the server's errors name answers by JSON Pointer (/answers/<field>, or a part of the answer below it:
        // /answers/<field>/description, /answers/<field>/0); the page speaks of the field instead
        const errs = [];
        for (const x of out.errors || []) {
          const m = /^\\/answers\\/([^/]+)/.exec(String(x.path || ''));
          const name = m ? m[1].replace(/~1/g, '/').replace(/~0/g, '~') : null;
          const text = name ? explain(name, answers, String(x.message || '')) : String(x.path) === '/submitterName' ? 'Check your name: at most ${SUBMITTER_NAME_MAX} characters.' : null;
          if (text && !errs.some(([n]) => n === name)) errs.push([name || '', text]);
        }
        const general = REFUSED[res.status] || (res.status >= 500 ? 'Something went wrong on our side: your answers were not saved. Please try again later.' : 'The form could not be sent: please check your answers.');
        if (errs.length) report(errs, 'Please correct ' + errs.length + (errs.length === 1 ? ' answer.' : ' answers.'));
        else report([], general);
      }
    } catch {
      report([['', 'The form could not be sent: check your connection and try again.']], 'Not sent.');
    } finally {
      button.disabled = false;
    }
  });
})();
`;

export function renderPublicForm(form: Form, opts: PageOptions): string {
  const schema = { formId: form.uid, fields: answerKeys(form) };
  const sections = sectionsOf(form)
    .map((s, si) => sectionHtml(s, si, opts))
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(form.name)}</title>
<style nonce="${opts.nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1>${esc(form.name)}</h1>
<p class="meta">${esc(form.department)}${form.revision != null ? ` · revision ${esc(form.revision)}` : ''} · fields marked <span class="req">*</span> are required</p>
<div id="summary" role="alert" tabindex="-1" aria-live="assertive"></div>
<div id="form-area" data-action="/forms/public/${esc(encodeURIComponent(form.publicId ?? ''))}/submissions">
<form id="public-form" action="/forms/public/${esc(encodeURIComponent(form.publicId ?? ''))}/submissions" method="post" novalidate>
${sections}
<fieldset class="section"><legend>About you</legend><div class="about"><label for="submitterName">Your name</label><input type="text" id="submitterName" maxlength="${SUBMITTER_NAME_MAX}" autocomplete="name"></div></fieldset>
<button type="submit">Submit</button>
</form>
</div>
</main>
<script type="application/json" id="schema">${JSON.stringify(schema).replace(/</g, '\\u003c')}</script>
<script nonce="${opts.nonce}">${SCRIPT}</script>
</body>
</html>`;
}
