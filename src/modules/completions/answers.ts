import type { Form } from '../../generated/prisma/client.js';
import { fieldErrorsFromZod, invalid, isPlainObject, jsonPointer, type FieldError } from '../../errors.js';
import { instantRangeMessage, isoProblem, offsetRangeMessage } from '../../lib/dates.js';
import { companionAnswer, fieldTypeDef, type Field } from '../forms/fields.js';
import { locatedFields, storageKey } from '../forms/service.js';

// A submission's answers: resolved to the form's fields and checked (`resolveAnswers`), and shown (`answerRows`).

/** The JSON pointer of an answer, for error paths. */
export const pointer = (k: string) => jsonPointer(['answers', k]);

/**
 * Answers → `data` keyed by field name (companions `<name>__<companion>`): each key resolved by name or storage
 * key, given once, typed by its field; null is no answer; required fields answered; a field an odometer or
 * defect answer depends on answered too. 400 with every problem's path.
 */
export function resolveAnswers(form: Pick<Form, 'sections'>, answers: Record<string, unknown>): Record<string, unknown> {
  const byKey = new Map<string, { name: string; field: Field; companion?: string }>();
  for (const { field, si, fi } of locatedFields(form)) {
    const entry = { name: field.name, field };
    byKey.set(field.name, entry);
    byKey.set(storageKey(si, fi), entry);
    for (const c of field.companions ?? []) {
      const ce = { name: `${field.name}__${c.name}`, field, companion: c.name };
      byKey.set(ce.name, ce);
      byKey.set(`${storageKey(si, fi)}__${c.name}`, ce);
    }
  }
  const errors: FieldError[] = [];
  const data: Record<string, unknown> = {};
  const sentAs = new Map<string, string>();
  for (const [key, value] of Object.entries(answers)) {
    const target = byKey.get(key);
    if (!target) {
      errors.push({ path: pointer(key), message: `${key} is not a field of this form (see its completion-schema)` });
      continue;
    }
    const first = sentAs.get(target.name);
    if (first !== undefined) {
      errors.push({ path: pointer(key), message: `${target.name} is answered twice (as ${first} and as ${key})` });
      continue;
    }
    sentAs.set(target.name, key);
    if (value === null || value === undefined) {
      if (!target.companion && target.field.required) errors.push({ path: pointer(key), message: `${target.name} is required` });
      continue;
    }
    const schema = target.companion
      ? companionAnswer(target.field.companions!.find((c) => c.name === target.companion)!.type)
      : fieldTypeDef(target.field.type).answer(target.field);
    const r = schema.safeParse(value);
    if (!r.success) {
      for (const e of fieldErrorsFromZod(r.error.issues, pointer(key))) errors.push({ path: e.path, message: `${target.name} ${e.message}` });
      continue;
    }
    const beyond = target.companion
      ? null
      : target.field.type === 'datetime'
        ? datetimeProblem(target.name, r.data as string)
        : target.field.type === 'date'
          ? dateProblem(target.name, r.data as string)
          : null;
    if (beyond) {
      errors.push({ path: pointer(key), message: beyond });
      continue;
    }
    if (!target.companion && isBlank(r.data) && target.field.required) {
      errors.push({ path: pointer(key), message: `${target.name} is required` });
      continue;
    }
    data[target.name] = r.data;
  }
  for (const { field } of locatedFields(form)) {
    if (field.required && !sentAs.has(field.name)) errors.push({ path: pointer(field.name), message: `${field.name} is required` });
    const dependsOn = field.type === 'odometer' ? field.vehicleField : field.type === 'defect' ? field.assetField : undefined;
    const hasDefects = field.type === 'defect' ? !isBlank(data[field.name]) : data[field.name] !== undefined;
    if (dependsOn && hasDefects && data[dependsOn] === undefined) {
      errors.push({ path: pointer(dependsOn), message: `${dependsOn} must be answered: ${field.name} applies to it` });
    }
  }
  if (errors.length) invalid('form completion', errors);
  return data;
}

/**
 * A datetime answer the field's schema took (an ISO 8601 date-time with Z or an offset, kept as written) read by the
 * one rule of every date input, parseIso (src/lib/dates.ts): an instant past the years 0001 to 9999 in UTC
 * (`9999-12-31T23:00:00-05:00` is 10000-01-01T04:00Z, which the database would write and never read back) or what
 * parseIso does not read (year 0000, more than 9 decimal places of a second) is refused, said for the field `name`.
 */
function datetimeProblem(name: string, value: string): string | null {
  const p = isoProblem(value);
  if (!p) return null;
  if (p.problem === 'range') return instantRangeMessage(name, value, p.instant);
  if (p.problem === 'offset') return offsetRangeMessage(name, p.offset);
  return `${name} must be an ISO 8601 date-time with Z or an offset in the years 0001 to 9999, with at most 9 decimal places of a second, e.g. 2026-03-01T09:30:00+10:00`;
}

/**
 * A date answer the field's schema took (YYYY-MM-DD) read by the same rule: the year 0000, which the schema's format
 * takes and no other date input does, is refused.
 */
function dateProblem(name: string, value: string): string | null {
  return isoProblem(value) ? `${name} must be a date, YYYY-MM-DD, in the years 0001 to 9999` : null;
}

export function isBlank(v: unknown): boolean {
  return v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

/** An answer as the email shows it: text as it is, defects as their descriptions, anything else as JSON. */
function answerText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const items = Array.isArray(value) ? value : [value];
  if (items.every((v) => isPlainObject(v) && typeof v.description === 'string')) {
    return items.map((v) => `${v.description}${typeof v.severity === 'string' ? ` (${v.severity})` : ''}`).join('; ');
  }
  if (items.every((v) => typeof v === 'string' || typeof v === 'number')) return items.join(', ');
  return JSON.stringify(value);
}

/** The answers in the form's field order, labelled as the form labels them. */
export function answerRows(form: Form, data: Record<string, unknown>): { label: string; value: string }[] {
  return locatedFields(form)
    .map((l) => l.field)
    .filter((f) => data[f.name] !== undefined && data[f.name] !== null)
    .map((f) => ({ label: typeof f.label === 'string' && f.label ? f.label : f.name, value: answerText(data[f.name]) }));
}

