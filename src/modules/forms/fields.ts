import { z } from 'zod';
import { decimalPlaces } from '../../lib/decimal.js';
import { trackingValue } from '../tracking/value.js';
import { notInherited } from '../../lib/keys.js';

/** An odometer reading: a tracking figure (built once, not per answer). */
const READING = trackingValue('the reading');

/**
 * The field types of a form (docs/forms.md, docs/contract/gaps.md §9). This file is the one source for three things: the
 * validation of field objects when a form is written, the `GET /forms/field-schema` document (generated from the
 * same zod schemas), and the answer schema of each field (completion validation and `completion-schema`).
 */

/** A field name is its answer key: letters, digits, `_` and `-`, starting with a letter; `__` is reserved. */
const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;
const fieldName = (what: string) =>
  notInherited(
    z
      .string({ error: `${what} must be a string` })
      .regex(NAME_RE, `${what} must start with a letter and hold only letters, digits, _ and - (100 characters at most)`)
      .refine((v) => !v.includes('__'), `${what} must not contain "__" (it separates companion keys)`),
    `a ${what}`,
  );

const text = (what: string, max: number) =>
  z.string({ error: `${what} must be a string` }).max(max, `${what} is too long (${max} characters at most)`);

export const COMPANION_TYPES = ['text', 'textarea', 'number', 'boolean', 'photo'] as const;

/** A companion value of a field, e.g. a comment on a checklist item; answered as `<field>__<companion>`. */
export const CompanionSchema = z
  .object({
    name: fieldName('companion name'),
    label: text('label', 500).optional(),
    type: z.enum(COMPANION_TYPES, { error: `companion type must be one of ${COMPANION_TYPES.join(', ')}` }).default('text'),
  })
  .strict();

export const baseFieldShape = {
  name: fieldName('name').describe('Unique within the form; the answer key'),
  label: text('label', 500).min(1, 'label must not be empty').describe('Shown to the person filling the form'),
  required: z.boolean({ error: 'required must be true or false' }).default(false).describe('An answer is required'),
  description: text('description', 5000).optional().describe('Help text'),
  placeholder: text('placeholder', 500).optional(),
  companions: z
    .array(CompanionSchema, { error: 'companions must be an array' })
    .max(10, 'companions holds at most 10 entries')
    .optional()
    .describe('Extra values answered with the field (e.g. a comment), keyed <name>__<companion>'),
  ui: z.record(z.string(), z.unknown(), { error: 'ui must be an object' }).optional().describe('UI-specific settings, kept as sent'),
};

const options = z
  .array(text('each option', 500).min(1, 'an option must not be empty'), { error: 'options must be an array of strings' })
  .min(1, 'options must hold at least one entry')
  .max(500, 'options holds at most 500 entries')
  .refine((o) => new Set(o).size === o.length, 'options must not repeat')
  .describe('The allowed answers');

const CHECKLIST_DEFAULT = ['pass', 'fail', 'n/a'];

/** The format of an answer, as completion-schema reports it (docs/contract/gaps.md §9). */
export type AnswerFormat = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'file';

interface FieldTypeDef {
  description: string;
  format: (field: Field) => AnswerFormat;
  /** Type-specific properties of the field object. */
  props: z.ZodRawShape;
  /** Cross-property checks of one field (messages keyed by property). */
  check?: (field: Field) => { property: string; message: string } | null;
  /** The answer's schema for one field. */
  answer: (field: Field) => z.ZodType;
  /** What the answer names, checked against the company's records. */
  references?: 'aircraft' | 'vehicle' | 'user';
}

export interface Field {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  companions?: { name: string; label?: string; type: (typeof COMPANION_TYPES)[number] }[];
  maxLength?: number;
  min?: number;
  max?: number;
  precision?: number;
  options?: string[];
  multiple?: boolean;
  vehicleField?: string;
  assetField?: string;
  [ui: string]: unknown;
}

const TEXT_MAX = 10_000;
/** A time of day as docs/forms.md gives it: HH:MM or HH:MM:SS, 00:00 to 23:59:59. */
const TIME_RE = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;
const FILE_REF = z.string({ error: 'must be a file reference (a URL or id string)' }).min(1, 'must not be empty').max(2048, 'is too long');
const files = (f: Field) => (f.multiple ? z.array(FILE_REF).max(50, 'at most 50 files') : FILE_REF);

const finiteNumber = z.number({ error: 'must be a number' }).refine(Number.isFinite, 'must be a finite number');

function numberAnswer(f: Field, floor?: number, base = z.number({ error: 'must be a number' })): z.ZodType {
  let s = base;
  // a floor (an odometer's 0) holds whatever the field declares: a min below it does not lower it
  const min = floor === undefined ? f.min : Math.max(f.min ?? floor, floor);
  if (min !== undefined) s = s.min(min, `must be at least ${min}`);
  if (f.max !== undefined) s = s.max(f.max, `must be at most ${f.max}`);
  const places = f.precision;
  return places === undefined ? s : s.refine((n) => decimalPlaces(n) <= places, `must have at most ${places} decimal places`);
}

export const DefectAnswer = z
  .object({
    description: z.string({ error: 'description must be a string' }).trim().min(1, 'description must not be empty').max(2000, 'description is too long (2000 characters at most)'),
    severity: text('severity', 100).optional(),
  })
  .strict();

const numberProps = {
  min: finiteNumber.optional().describe('Smallest allowed answer'),
  max: finiteNumber.optional().describe('Largest allowed answer'),
  precision: z.number({ error: 'precision must be a whole number' }).int('precision must be a whole number').min(0).max(6).optional().describe('Decimal places allowed'),
};
/** An odometer reading is a total, never negative: its field's min and max are not either. */
const readingProps = {
  ...numberProps,
  min: finiteNumber.min(0, 'min of an odometer field must not be negative (a reading is 0 or more)').optional().describe('Smallest allowed reading (0 or more)'),
  max: finiteNumber.min(0, 'max of an odometer field must not be negative (a reading is 0 or more)').optional().describe('Largest allowed reading'),
};
const minMax = (f: Field) => (f.min !== undefined && f.max !== undefined && f.min > f.max ? { property: 'max', message: 'max must not be less than min' } : null);

export const FIELD_TYPES = {
  text: {
    description: 'One line of text',
    format: () => 'string',
    props: { maxLength: z.number().int().min(1).max(TEXT_MAX).optional().describe(`Longest answer (default ${TEXT_MAX})`) },
    answer: (f) => z.string({ error: 'must be a string' }).max(f.maxLength ?? TEXT_MAX, `must be at most ${f.maxLength ?? TEXT_MAX} characters`),
  },
  textarea: {
    description: 'Several lines of text',
    format: () => 'string',
    props: { maxLength: z.number().int().min(1).max(TEXT_MAX).optional().describe(`Longest answer (default ${TEXT_MAX})`) },
    answer: (f) => z.string({ error: 'must be a string' }).max(f.maxLength ?? TEXT_MAX, `must be at most ${f.maxLength ?? TEXT_MAX} characters`),
  },
  number: {
    description: 'A number',
    format: () => 'number',
    props: numberProps,
    check: minMax,
    answer: (f) => numberAnswer(f),
  },
  boolean: {
    description: 'Yes or no',
    format: () => 'boolean',
    props: {},
    answer: () => z.boolean({ error: 'must be true or false' }),
  },
  select: {
    description: 'One of the options',
    format: () => 'string',
    props: { options },
    answer: (f) => z.enum(f.options as [string, ...string[]], { error: `must be one of ${f.options!.join(', ')}` }),
  },
  multiselect: {
    description: 'Any of the options (an array, each at most once)',
    format: () => 'array',
    props: { options },
    answer: (f) =>
      z
        .array(z.enum(f.options as [string, ...string[]], { error: `each must be one of ${f.options!.join(', ')}` }), { error: 'must be an array' })
        .refine((a) => new Set(a).size === a.length, 'must not repeat an option'),
  },
  checklist: {
    description: `A checklist item: one of the options (default ${CHECKLIST_DEFAULT.join(', ')}), usually with a comment companion`,
    format: () => 'string',
    props: { options: options.optional() },
    answer: (f) => {
      const o = f.options ?? CHECKLIST_DEFAULT;
      return z.enum(o as [string, ...string[]], { error: `must be one of ${o.join(', ')}` });
    },
  },
  date: {
    description: 'A calendar date, YYYY-MM-DD',
    format: () => 'string',
    props: {},
    answer: () => z.iso.date({ error: 'must be a date, YYYY-MM-DD' }),
  },
  time: {
    description: 'A time of day, HH:MM or HH:MM:SS',
    format: () => 'string',
    props: {},
    // anchored, and nothing after the seconds (zod's iso.time also takes fractions: 12:00:00.123456789)
    answer: () => z.string({ error: 'must be a time of day, HH:MM or HH:MM:SS' }).regex(TIME_RE, 'must be a time of day, HH:MM or HH:MM:SS'),
  },
  datetime: {
    description: 'An ISO 8601 date-time with Z or an offset',
    format: () => 'string',
    props: {},
    answer: () => z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2026-03-01T09:30:00+10:00' }),
  },
  signature: {
    description: 'A signature image reference (URL or id); an array of them with multiple',
    format: () => 'file',
    props: { multiple: z.boolean().optional().describe('Several files (an array)') },
    answer: files,
  },
  file: {
    description: 'A file reference (URL or id); an array of them with multiple',
    format: () => 'file',
    props: { multiple: z.boolean().optional().describe('Several files (an array)') },
    answer: files,
  },
  photo: {
    description: 'A photo reference (URL or id); an array of them with multiple',
    format: () => 'file',
    props: { multiple: z.boolean().optional().describe('Several files (an array)') },
    answer: files,
  },
  aircraft: {
    description: 'The uid of an aircraft of the company',
    format: () => 'string',
    props: {},
    answer: () => z.string({ error: 'must be an aircraft uid' }).min(1, 'must not be empty').max(128),
    references: 'aircraft',
  },
  vehicle: {
    description: 'The uid of a vehicle of the company',
    format: () => 'string',
    props: {},
    answer: () => z.string({ error: 'must be a vehicle uid' }).min(1, 'must not be empty').max(128),
    references: 'vehicle',
  },
  user: {
    description: 'The uid of a user of the company',
    format: () => 'string',
    props: {},
    answer: () => z.string({ error: 'must be a user uid' }).min(1, 'must not be empty').max(128),
    references: 'user',
  },
  odometer: {
    description: "A reading of the vehicle's primary total (odometer or hours); raises it when higher",
    format: () => 'number',
    props: {
      vehicleField: z.string({ error: 'vehicleField is required (the name of a vehicle field of this form)' }).describe('Name of a vehicle field in the same form'),
      ...readingProps,
    },
    check: minMax,
    // a reading becomes the vehicle's total: a tracking figure (below 1e9, at most 6 decimal places)
    answer: (f) => numberAnswer(f, 0, READING),
  },
  defect: {
    description: 'A defect {description, severity?} or an array of them; each creates a Defect schedule item on the asset',
    format: () => 'object',
    props: {
      assetField: z.string({ error: 'assetField is required (the name of an aircraft or vehicle field of this form)' }).describe('Name of an aircraft or vehicle field in the same form'),
    },
    answer: () => z.union([DefectAnswer, z.array(DefectAnswer).max(20, 'at most 20 defects')], { error: 'must be {description, severity?} or an array of them' }),
  },
} satisfies Record<string, FieldTypeDef>;

export type FieldType = keyof typeof FIELD_TYPES;
export const FIELD_TYPE_NAMES = Object.keys(FIELD_TYPES) as FieldType[];
const DEFS: Record<FieldType, FieldTypeDef> = FIELD_TYPES;

const OBJECT_SCHEMAS = new Map(
  FIELD_TYPE_NAMES.map((t): [FieldType, z.ZodObject] => [t, z.object({ ...baseFieldShape, type: z.literal(t), ...DEFS[t].props }).strict()]),
);
/** The schema of a field object of one type: the base properties and the type's own, nothing else. */
export function fieldObjectSchema(t: FieldType): z.ZodObject {
  return OBJECT_SCHEMAS.get(t)!; // every FieldType has one (built above from FIELD_TYPE_NAMES)
}

export function fieldTypeDef(t: FieldType): FieldTypeDef {
  return DEFS[t];
}

export const SectionShape = {
  name: text('section name', 500).min(1, 'section name must not be empty').describe('Section title'),
  description: text('section description', 5000).optional(),
  fields: z.array(z.unknown(), { error: 'fields must be an array of field objects' }).max(500, 'a section holds at most 500 fields').describe('Field objects (see fieldTypes)'),
};

/** JSON Schema of one property, with its required flag: what a form builder needs to render an editor for it. */
function describeProps(shape: z.ZodRawShape) {
  const js = z.toJSONSchema(z.object(shape), { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const required = new Set(js.required ?? []);
  return Object.fromEntries(
    Object.entries(js.properties).map(([k, v]) => {
      const { $schema: _s, ...rest } = v;
      return [k, { ...rest, required: required.has(k) && !('default' in rest) }];
    }),
  );
}

/** `GET /forms/field-schema` (docs/contract/api-v1.md §4.3): generated from the schemas above. */
export function fieldSchemaDocument() {
  return {
    baseFieldProperties: describeProps({ ...baseFieldShape, type: z.enum(FIELD_TYPE_NAMES).describe('One of fieldTypes') }),
    sectionShape: describeProps(SectionShape),
    fieldTypes: Object.fromEntries(
      FIELD_TYPE_NAMES.map((t) => [
        t,
        {
          description: DEFS[t].description,
          answerFormat: DEFS[t].format({} as Field),
          properties: describeProps(DEFS[t].props),
          ...(DEFS[t].references ? { references: DEFS[t].references } : {}),
        },
      ]),
    ),
    companionTypes: [...COMPANION_TYPES],
    storageKeys: 'Field fi of section si is answered as its name or as __s{si}_f{fi}; a companion c as <name>__c or __s{si}_f{fi}__c',
  };
}

/** The answer schema of a companion value. */
export function companionAnswer(type: (typeof COMPANION_TYPES)[number]): z.ZodType {
  switch (type) {
    case 'number':
      return z.number({ error: 'must be a number' });
    case 'boolean':
      return z.boolean({ error: 'must be true or false' });
    case 'photo':
      return z.union([FILE_REF, z.array(FILE_REF).max(50)], { error: 'must be a file reference or an array of them' });
    default:
      return z.string({ error: 'must be a string' }).max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`);
  }
}

export const companionFormat = (type: (typeof COMPANION_TYPES)[number]): AnswerFormat =>
  type === 'photo' ? 'file' : type === 'number' ? 'number' : type === 'boolean' ? 'boolean' : 'string';

/** enum/min/max/maxLength of an answer schema, as completion-schema reports them (read off the same schema). */
export function answerConstraints(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
  const out: Record<string, unknown> = {};
  // a list answer's limits are its entries' (each link of a multiple photo field), an object answer's its text's
  // (a defect's description, given alone or in a list): what a page filling the form needs to say what an answer may be
  const inner = (j: Record<string, any>): Record<string, any> =>
    j.type === 'array' && j.items ? inner(j.items) : j.type === 'object' && j.properties?.description ? j.properties.description : j;
  const target = inner(Array.isArray(js.anyOf) ? (js.anyOf.find((m: Record<string, any>) => m.type === 'object') ?? js) : js);
  if (Array.isArray(target.enum)) out.enum = target.enum;
  if (typeof js.minimum === 'number') out.min = js.minimum;
  if (typeof js.maximum === 'number') out.max = js.maximum;
  // a reading's bound (below 1e9): exclusive, so said as such
  else if (typeof js.exclusiveMaximum === 'number') out.exclusiveMaximum = js.exclusiveMaximum;
  if (typeof target.maxLength === 'number') out.maxLength = target.maxLength;
  if (typeof js.format === 'string') out.pattern = js.format;
  return out;
}
