import { z } from 'zod';
import { ValidationError, fieldErrorsFromZod, invalid, isPlainObject, type FieldError } from '../../errors.js';
import { checkKeys, pickKeys } from '../../lib/keys.js';
import { graphqlType, typedAs } from '../../lib/graphql-hint.js';
import { serviceCheck } from '../../graphql/validation.js';
import { BoolParam } from '../../lib/params.js';
import { pageArgs } from '../../db/keyset.js';
import { trackingValue } from '../tracking/value.js';
import { LABEL_MAX, LONG_TEXT_MAX, SHORT_TEXT_MAX, tooLong } from '../../lib/text.js';
import {
  COUNTER_BASES,
  COUNTER_UNITS,
  COUNTERS_MAX,
  DEFAULT_PRECISION,
  PARENT_TYPES,
  deriveKey,
  exact,
  type StoredCounter,
} from './counters.js';

/**
 * What a component body may carry and how it is read (docs/api-notes.md "Components"): the states, the fields the
 * server or the install/remove operations own, and the zod schemas. Kept apart from the reads and writes so the
 * REST and GraphQL declarations can name the same lists without loading the service.
 */
export const COMPONENT_STATES = ['installed', 'inStores', 'inRepair', 'onLoan', 'inQuarantine', 'scrapped', 'sold'] as const;
export const REMOVED_STATES = ['inStores', 'inRepair', 'onLoan', 'inQuarantine', 'scrapped', 'sold'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** Fields clients never send: set by the server, or changed only by install/remove. */
export const SERVER_CONTROLLED = [
  'uid',
  'companyId',
  'status',
  'createdAt',
  'updatedAt',
  'ancestorUids',
  'childCount',
  'rootAsset',
  'rootAssetType',
  'rootAssetUid',
  'installedAt',
  'totals',
  'statusBeforeDelete',
] as const;
/** Fields of the tree: only install and remove change them. */
const PARENT_FIELDS = ['parent', 'parentUid', 'parentKind'] as const;

const text = (what: string, max = SHORT_TEXT_MAX) =>
  z
    .string({
      error: (i) => (i.input === undefined ? `${what} is required` : i.input === null ? `${what} must not be null` : `${what} must be a string`),
    })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(max, tooLong(what, max));
/** optional text: null or '' clears it */
const optionalText = (what: string, max = SHORT_TEXT_MAX) =>
  z
    .string({ error: `${what} must be a string or null` })
    .max(max, tooLong(what, max))
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim()));
const oneOf = <const V extends readonly [string, ...string[]]>(values: V, what: string) =>
  z.enum(values, { error: `${what} must be one of ${values.join(', ')}` });
/** The enums, each the GraphQL enum of its id too (shared by inputs and outputs, src/graphql/inputs.ts). */
const stateEnum = () => graphqlType(oneOf(COMPONENT_STATES, 'state'), 'ComponentState');
const unitEnum = () => graphqlType(oneOf(COUNTER_UNITS, 'unit'), 'CounterUnit');
const basisEnum = () => graphqlType(oneOf(COUNTER_BASES, 'basis'), 'CounterBasis');
const parentTypeEnum = () => graphqlType(oneOf(PARENT_TYPES, 'parentType'), 'ComponentParentType');
export const ComponentStateSchema = stateEnum();
export const CounterUnitSchema = unitEnum();
export const CounterBasisSchema = basisEnum();
export const ParentTypeSchema = parentTypeEnum();
/** A counter figure: a tracking value (below 1e9, at most 6 decimal places) that is not negative. */
const nonNegative = (what: string) => trackingValue(what).min(0, `${what} must not be negative`);

export const CounterInputSchema = graphqlType(z.object({
  key: z
    .string({ error: 'key must be a string' })
    .min(1, 'key must not be empty')
    .nullish()
    .describe('Update only: the counter to change. Left out on create (derived from displayText) and to add a counter'),
  displayText: text('displayText', LABEL_MAX).nullish().describe(`Required for a new counter; at most ${LABEL_MAX} characters (the key is derived from it)`),
  unit: unitEnum().nullish().describe('Required for a new counter'),
  basis: basisEnum().nullish().describe('Default sinceNew; fixed once added'),
  initialValue: nonNegative('initialValue').nullish().describe('Default 0; new counters only (values change only through the reset operation)'),
  precision: z
    .number({ error: 'precision must be a whole number from 0 to 10' })
    .int('precision must be a whole number from 0 to 10')
    .min(0, 'precision must be a whole number from 0 to 10')
    .max(10, 'precision must be a whole number from 0 to 10')
    .nullish()
    .describe('Decimal places, 0 to 10 (default: hours 1, others 0)'),
}).strict().describe(
  'On create: displayText and unit required, key left out (derived from displayText). On update: with key, changes ' +
    'displayText/unit/precision of that counter; without key, adds a counter. Values change only through the reset operation.',
), 'ComponentCounterInput');
export type CounterInput = z.output<typeof CounterInputSchema>;
const COUNTER_FIELDS = Object.keys(CounterInputSchema.shape);

const bodyShape = {
  name: text('name'),
  type: text('type').describe('Free text'),
  partNumber: text('partNumber'),
  serialNumber: text('serialNumber').describe('A part without a serial number is a stock item, not a component'),
  manufacturer: optionalText('manufacturer'),
  description: optionalText('description', LONG_TEXT_MAX),
  alternatePartNumbers: z
    .array(text('each alternate part number'), { error: 'alternatePartNumbers must be an array of strings' })
    .max(COUNTERS_MAX, `alternatePartNumbers holds at most ${COUNTERS_MAX} entries`)
    .nullable()
    .optional(),
  state: stateEnum().optional().describe('Default inStores; installed is refused (use the install operation)'),
  location: optionalText('location'),
  condition: optionalText('condition'),
  grn: optionalText('grn'),
  notes: optionalText('notes', LONG_TEXT_MAX),
  canHaveChildren: z.boolean({ error: 'canHaveChildren must be true or false' }).nullable().optional().describe('Default true'),
  parentType: optionalText('parentType').describe('Intended parent: aircraft, vehicle or a component type'),
  counters: z
    .array(CounterInputSchema, { error: 'counters must be an array' })
    .max(COUNTERS_MAX, `a component has at most ${COUNTERS_MAX} counters`)
    .nullable()
    .optional(),
};
export const CreateSchema = z
  .object(bodyShape)
  .strict()
  .describe('uid, companyId, status, parent, ancestorUids, childCount, createdAt, updatedAt are server-controlled and refused.');
export const UpdateSchema = z.object({
  ...bodyShape,
  name: bodyShape.name.optional(),
  type: bodyShape.type.optional(),
  partNumber: bodyShape.partNumber.optional(),
  serialNumber: bodyShape.serialNumber.optional(),
}).strict().describe(
  'Only the fields to change; null clears an optional field. Parent changes go only through install and remove. ' +
    'counters: entries with key change that counter\u2019s displayText/unit/precision, entries without key add counters.',
);
export const BODY_FIELDS = Object.keys(bodyShape);

export const CounterMappingSchema = graphqlType(z.object({
  counterKey: text('counterKey'),
  sourceKey: z
    .string({ error: 'sourceKey must be a string or null' })
    .min(1, 'sourceKey must not be empty')
    .nullish()
    .describe('A key of inheritableSources; null or absent leaves the counter frozen while fitted'),
}).strict(), 'CounterMappingInput');
export const InstallSchema = z.object({
  parentType: parentTypeEnum(),
  parentUid: text('parentUid'),
  mappings: z
    .array(CounterMappingSchema, { error: 'mappings must be an array' })
    .nullish()
    .describe('One entry per counter to bind (sourceKey from inheritable-sources); counters with no entry or a null sourceKey stay frozen'),
}).strict();
export const RemoveSchema = z.object({
  // GraphQL keeps the one ComponentState enum; `installed` is this schema's to refuse, with its message
  state: typedAs(oneOf(REMOVED_STATES, 'state'), 'ComponentState').nullish().describe('Default inStores; any state but installed'),
  location: optionalText('location').describe('Meaning follows the state'),
  condition: optionalText('condition'),
}).strict().describe('All optional; the body itself may be left out.');
export const ResetSchema = z.object({
  counterKey: text('counterKey'),
  newValue: nonNegative('newValue').describe('Usually 0'),
}).strict();

/** The order of every component list (name, serial number, uid); the list's cursor continues it. */
export const COMPONENT_ORDER = ['name', 'serialNumber', 'uid'];

export const ComponentFilterSchema = z.object({
  state: stateEnum().optional().describe('Only components in this state'),
  type: z.string().min(1).optional().describe('Only components of this type'),
  parentUid: z.string().min(1).optional().describe('Only components fitted directly to this parent (aircraft, vehicle or component uid)'),
  rootAssetUid: z.string().min(1).optional().describe('Only components anywhere under this aircraft or vehicle'),
  partNumber: z.string().min(1).optional().describe('Only components with this part number'),
  serialNumber: z.string().min(1).optional().describe('Only components with this serial number'),
  includeDeleted: BoolParam('includeDeleted').optional().describe('Also list soft-deleted components (default false)'),
  ...pageArgs('component', COMPONENT_ORDER),
});
export type ComponentFilter = z.output<typeof ComponentFilterSchema>;
/**
 * The list of a component's children and its cursor's keys: the parent, then the components' order. A children
 * cursor names this list and carries its parent, so it is no cursor of `components` nor of another parent's children
 * (either would be read as a position in a list it was not made in), and a `components` cursor is none of these.
 */
export const CHILDREN_LIST = 'component-children';
export const CHILDREN_ORDER = ['parentUid', ...COMPONENT_ORDER];
/** A component's children, a page at a time (gaps.md §17: GraphQL list fields take `limit` and `cursor` too). */
export const ComponentChildrenArgsSchema = z.object({ ...pageArgs(CHILDREN_LIST, CHILDREN_ORDER) });
export type ComponentChildrenArgs = z.output<typeof ComponentChildrenArgsSchema>;


/** Parent fields get their own message: they change only through install and remove, never through a body. */
const BODY_KEYS = {
  serverControlled: SERVER_CONTROLLED,
  refused: Object.fromEntries(
    PARENT_FIELDS.map((k) => [k, `${k} cannot be set here: a component is fitted and removed with the install and remove operations`]),
  ),
};
/** A counter's value is the server's: it starts at initialValue and moves only through the reset operation. */
const COUNTER_KEYS = {
  noun: 'a counter',
  refused: Object.fromEntries(
    ['value', 'binding', 'sourceDecreased'].map((k) => [k, `${k} is set by the server: values start at initialValue and change only through the reset operation`]),
  ),
};

/** Every refused field is reported together with the schema's errors, so one 400 lists all that is wrong. */
export function parse<T extends z.ZodType>(what: string, schema: T, raw: unknown, allowed: readonly string[]): z.output<T> {
  if (!isPlainObject(raw)) throw new ValidationError(`${what}: the body must be a JSON object`);
  const errors: FieldError[] = checkKeys(raw, allowed, BODY_KEYS);
  if (Array.isArray(raw.counters)) {
    raw.counters.forEach((c, i) => {
      if (isPlainObject(c)) errors.push(...checkKeys(c, COUNTER_FIELDS, COUNTER_KEYS, `/counters/${i}`));
    });
  }
  // the schemas are closed (strict) as the documents show them; unknown keys are checkKeys' to report, with their
  // own messages, so zod sees only the known ones
  const body = pickKeys(raw, allowed);
  if (Array.isArray(body.counters)) body.counters = body.counters.map((c) => (isPlainObject(c) ? pickKeys(c, COUNTER_FIELDS) : c));
  const parsed = schema.safeParse(body);
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  if (errors.length || !parsed.success) invalid(what, errors);
  return parsed.data;
}


/**
 * The check of each write's input (no database), defined once (docs/decisions/0007-defined-once.md): the GraphQL
 * input types, the REST body documents and MCP schemas are read off the schemas, Pothos' validation plugin runs the
 * checks, and a value GraphQL's types refuse is explained by the same check, so every channel answers the same 400.
 */
export const CreateComponentCheck = serviceCheck('component', CreateSchema, (raw) => parse('component', CreateSchema, raw, BODY_FIELDS));
export const UpdateComponentCheck = serviceCheck('component', UpdateSchema, (raw) => parse('component', UpdateSchema, raw, BODY_FIELDS));
export const InstallComponentCheck = serviceCheck('install request', InstallSchema, (raw) =>
  parse('install request', InstallSchema, raw, Object.keys(InstallSchema.shape)),
);
export const RemoveComponentCheck = serviceCheck('remove request', RemoveSchema, (raw) =>
  parse('remove request', RemoveSchema, raw ?? {}, Object.keys(RemoveSchema.shape)),
);
export const ResetCounterCheck = serviceCheck('counter reset', ResetSchema, (raw) => parse('counter reset', ResetSchema, raw, Object.keys(ResetSchema.shape)));
export type NewComponent = z.output<typeof CreateSchema>;
export type ComponentPatch = z.output<typeof UpdateSchema>;
export type InstallRequest = z.output<typeof InstallSchema>;
export type RemoveRequest = z.output<typeof RemoveSchema>;
export type CounterReset = z.output<typeof ResetSchema>;

/** A stored state as the enum (a state outside it is stored by nothing: it reads as inStores). */
export const componentState = (v: string): ComponentState => COMPONENT_STATES.find((s) => s === v) ?? 'inStores';

/** A counter from create/update input (displayText and unit required); null with errors when invalid. */
export function newCounter(c: CounterInput, i: number, taken: Set<string>, errors: FieldError[]): StoredCounter | null {
  const at = `/counters/${i}`;
  const { displayText, unit } = c;
  if (displayText == null) errors.push({ path: `${at}/displayText`, message: 'displayText is required for a new counter' });
  if (unit == null) errors.push({ path: `${at}/unit`, message: `unit is required for a new counter (${COUNTER_UNITS.join(', ')})` });
  if (displayText == null || unit == null) return null;
  return {
    key: deriveKey(displayText, taken),
    displayText,
    unit,
    precision: c.precision ?? DEFAULT_PRECISION[unit],
    basis: c.basis ?? 'sinceNew',
    value: exact(c.initialValue ?? 0),
    binding: null,
  };
}
