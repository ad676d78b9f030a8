import { endpointOf } from '../../lib/text.js';
import type { z } from 'zod';
import type { Form } from '../../generated/prisma/client.js';
import { answerConstraints, companionAnswer, companionFormat, fieldTypeDef, type AnswerFormat, type Field, type FieldType } from './fields.js';
import type { WebhookInputSchema } from './schema.js';
import { TRACKING_VALUE_PLACES } from '../tracking/limits.js';

/**
 * A stored template as its readers see it (docs/forms.md): its sections and located fields, the answerable keys a
 * completion takes (completion-schema; docs/contract/gaps.md §9), and its webhooks with write-only secrets.
 */
/** A stored webhook: `secret` stays in the database and never leaves it (reads show `hasSecret`). */
export interface StoredWebhook {
  url: string;
  secret?: string;
}

/** A type, not an interface: TypeScript takes no interface for Prisma's JSON, not even by a cast (see FormColumns). */
export type Section = {
  name: string;
  description?: string;
  fields: Field[];
};

/** One answerable key of a form (completion-schema; docs/contract/gaps.md §9). */
export interface AnswerKey {
  name: string;
  key: string;
  label: string;
  type: FieldType | `companion:${string}`;
  format: AnswerFormat;
  required: boolean;
  section: string;
  companionOf?: string;
  references?: 'aircraft' | 'vehicle' | 'user';
  enum?: unknown[];
  min?: number;
  max?: number;
  /** The answer must be below it (an odometer reading: 1e9). */
  exclusiveMaximum?: number;
  maxLength?: number;
  /** The string format of the answer (JSON Schema's `format`: `date`, `time`, `date-time`). */
  pattern?: string;
  precision?: number;
  multiple?: boolean;
  vehicleField?: string;
  assetField?: string;
}

/** A field with its position: what answers and side effects need. */
export interface LocatedField {
  field: Field;
  si: number;
  fi: number;
  section: string;
}

// A template's JSON columns hold what its writes stored (checkSections, mergeSecrets); these guards read them back
// as those shapes without a cast, and a column that is not one (a row written by hand) reads as empty.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSection = (v: unknown): v is Section => isObject(v) && typeof v.name === 'string' && Array.isArray(v.fields) && v.fields.every(isObject);
const isWebhook = (v: unknown): v is StoredWebhook => isObject(v) && typeof v.url === 'string';

const entries = <T>(column: unknown, is: (v: unknown) => v is T): T[] => {
  const out: T[] = [];
  if (Array.isArray(column)) for (const v of column) if (is(v)) out.push(v);
  return out;
};

export const sectionsOf = (form: Pick<Form, 'sections'>): Section[] => entries(form.sections, isSection);
export const webhooksOf = (form: Pick<Form, 'webhooks'>): StoredWebhook[] => entries(form.webhooks, isWebhook);

export function locatedFields(form: Pick<Form, 'sections'>): LocatedField[] {
  return sectionsOf(form).flatMap((s, si) => s.fields.map((field, fi) => ({ field, si, fi, section: s.name })));
}

export const storageKey = (si: number, fi: number) => `__s${si}_f${fi}`;

/** Every answerable key of the form: each field, then its companions, in form order. */
export function answerKeys(form: Pick<Form, 'sections'>): AnswerKey[] {
  const out: AnswerKey[] = [];
  for (const { field: f, si, fi, section } of locatedFields(form)) {
    const def = fieldTypeDef(f.type);
    out.push({
      name: f.name,
      key: storageKey(si, fi),
      label: f.label,
      type: f.type,
      format: def.format(f),
      required: f.required,
      section,
      ...(def.references ? { references: def.references } : {}),
      ...answerConstraints(def.answer(f)),
      // a reading is a tracking figure: at most 6 decimal places when the field sets no precision
      ...(f.precision !== undefined ? { precision: f.precision } : f.type === 'odometer' ? { precision: TRACKING_VALUE_PLACES } : {}),
      ...(f.multiple !== undefined ? { multiple: f.multiple } : {}),
      ...(f.vehicleField !== undefined ? { vehicleField: f.vehicleField } : {}),
      ...(f.assetField !== undefined ? { assetField: f.assetField } : {}),
    });
    for (const c of f.companions ?? []) {
      out.push({
        name: `${f.name}__${c.name}`,
        key: `${storageKey(si, fi)}__${c.name}`,
        label: c.label ?? c.name,
        type: `companion:${c.type}`,
        format: companionFormat(c.type),
        required: false,
        section,
        companionOf: f.name,
        ...answerConstraints(companionAnswer(c.type)),
      });
    }
  }
  return out;
}

/** A webhook sent without `secret` keeps the secret stored for the same endpoint (its URL in any spelling); `secret: null` removes it. */
export function mergeSecrets(input: z.output<typeof WebhookInputSchema>[], stored: StoredWebhook[]): StoredWebhook[] {
  return input.map((w) => {
    if (w.secret === null) return { url: w.url };
    if (w.secret !== undefined) return { url: w.url, secret: w.secret };
    const old = stored.find((s) => endpointOf(s.url) === endpointOf(w.url))?.secret;
    return old ? { url: w.url, secret: old } : { url: w.url };
  });
}

/** The REST/GraphQL view of a template: webhook secrets replaced by `hasSecret`. */
export function publicWebhooks(form: Pick<Form, 'webhooks'>): { url: string; hasSecret: boolean }[] {
  return webhooksOf(form).map((w) => ({ url: w.url, hasSecret: Boolean(w.secret) }));
}

