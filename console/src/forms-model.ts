import { Figures, pointer } from './figures.js';
import { fromZonedLocal } from './format.js';

/** A form template's sections and fields (the `sections` JSON of a form), as the console reads them. */
export interface FormField {
  name: string;
  label: string;
  type: string;
  required?: boolean;
  description?: string;
  placeholder?: string;
  options?: string[];
  multiple?: boolean;
  min?: number;
  max?: number;
  precision?: number;
  maxLength?: number;
  companions?: { name: string; label?: string; type?: string }[];
}

export interface FormSection {
  name: string;
  description?: string;
  fields: FormField[];
}

export const sectionsOf = (v: unknown): FormSection[] => (Array.isArray(v) ? (v as FormSection[]) : []);

export const CHECKLIST_DEFAULT = ['pass', 'fail', 'n/a'];

/** An answer as text for people. */
export function answerText(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.map(answerText).join('; ');
  if (typeof v === 'object') {
    const d = v as { description?: string; severity?: string };
    if (typeof d.description === 'string') return d.severity ? `${d.description} (severity: ${d.severity})` : d.description;
    return JSON.stringify(v);
  }
  return String(v);
}

/** What the fill-in page holds per input: text, the options ticked, a checkbox. */
export type Raw = Record<string, string | string[] | boolean>;

/**
 * The answers as the API takes them, keyed by field name (companions `<field>__<companion>`); blanks left out. Number
 * and odometer answers and number companions are read as figures (../figures.ts): more than 6 decimal places throws
 * an ApiError at the answer, and nothing is sent.
 */
export function collect(fields: FormField[], raw: Raw, timeZone: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const figures = new Figures();
  for (const f of fields) {
    const v = raw[f.name];
    const s = typeof v === 'string' ? v.trim() : '';
    if (f.type === 'boolean') {
      if (v === 'yes' || v === 'no') out[f.name] = v === 'yes';
    } else if (f.type === 'multiselect') {
      if (Array.isArray(v) && v.length) out[f.name] = v;
    } else if (f.type === 'number' || f.type === 'odometer') {
      // an odometer's answer is a tracking figure, which the API names "the reading"; a number answer's messages name none
      if (s !== '') out[f.name] = f.type === 'odometer' ? figures.figure(s, pointer('answers', f.name), 'the reading') : figures.number(s, pointer('answers', f.name));
    } else if (f.type === 'datetime') {
      if (s) out[f.name] = fromZonedLocal(s, timeZone);
    } else if (f.type === 'defect') {
      const sev = String(raw[`${f.name}__severity`] ?? '');
      if (s) out[f.name] = sev ? { description: s, severity: sev } : { description: s };
    } else if (['signature', 'file', 'photo'].includes(f.type) && f.multiple) {
      const list = s.split(/\n+/).map((x) => x.trim()).filter(Boolean);
      if (list.length) out[f.name] = list;
    } else if (f.type === 'select') {
      // an option as the template has it: one with a space at its end is still that option (trimmed, it was none)
      if (typeof v === 'string' && v !== '') out[f.name] = v;
    } else if (s !== '') out[f.name] = s;
    for (const c of f.companions ?? []) {
      const key = `${f.name}__${c.name}`;
      const cv = raw[key];
      if (c.type === 'boolean') {
        if (cv === true) out[key] = true;
      } else if (typeof cv === 'string' && cv.trim() !== '') out[key] = c.type === 'number' ? figures.number(cv, pointer('answers', key)) : cv.trim();
    }
  }
  figures.check();
  return out;
}
