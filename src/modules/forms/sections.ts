import { fieldErrorsFromZod, invalid, isPlainObject, type FieldError } from '../../errors.js';
import { FIELD_TYPE_NAMES, fieldObjectSchema, fieldTypeDef, type Field, type FieldType } from './fields.js';
import { SectionSchema } from './schema.js';
import type { Section } from './template.js';

/**
 * Sections and their field objects against the field types (docs/contract/gaps.md §9): shape, unknown type, missing or wrongly
 * typed property, unique field names, and `vehicleField`/`assetField` naming a field of the right type.
 * Returns the sections as stored (defaults such as `required: false` filled in).
 */
export function checkSections(sections: unknown[]): Section[] {
  const errors: FieldError[] = [];
  // each section that parsed, with its index in the body: one that did not is skipped, so a later one's index is
  // not its position here
  const out: { si: number; section: Section }[] = [];
  const byName = new Map<string, { field: Field; path: string }>();
  sections.forEach((raw, si) => {
    const at = `/sections/${si}`;
    const s = SectionSchema.safeParse(raw);
    if (!s.success) {
      errors.push(...fieldErrorsFromZod(s.error.issues, at));
      return;
    }
    const fields: Field[] = [];
    s.data.fields.forEach((f, fi) => {
      const fp = `${at}/fields/${fi}`;
      if (!isPlainObject(f)) return void errors.push({ path: fp, message: 'a field must be an object' });
      const type = f.type;
      if (typeof type !== 'string' || !(FIELD_TYPE_NAMES as string[]).includes(type)) {
        return void errors.push({
          path: `${fp}/type`,
          message: type === undefined ? 'type is required' : `unknown field type ${JSON.stringify(type)} (one of ${FIELD_TYPE_NAMES.join(', ')})`,
        });
      }
      const parsed = fieldObjectSchema(type as FieldType).safeParse(f);
      if (!parsed.success) {
        return void errors.push(
          ...fieldErrorsFromZod(parsed.error.issues, fp).map((e) =>
            e.message.startsWith('unknown field') ? { ...e, message: `${e.message.replace('unknown field', 'unknown property')} for a ${type} field (UI-specific settings go in ui)` } : e,
          ),
        );
      }
      const field = parsed.data as Field;
      const problem = fieldTypeDef(field.type).check?.(field);
      if (problem) errors.push({ path: `${fp}/${problem.property}`, message: problem.message });
      const names = new Set<string>();
      for (const [ci, c] of (field.companions ?? []).entries()) {
        if (names.has(c.name)) errors.push({ path: `${fp}/companions/${ci}/name`, message: `companion ${c.name} is given twice` });
        names.add(c.name);
      }
      const dup = byName.get(field.name);
      if (dup) errors.push({ path: `${fp}/name`, message: `field name ${field.name} is already used at ${dup.path}` });
      else byName.set(field.name, { field, path: fp });
      fields.push(field);
    });
    out.push({ si, section: { ...s.data, fields } });
  });
  // references between fields, once every name is known
  out.forEach(({ si, section }) =>
    section.fields.forEach((f, fi) => {
      const ref = f.type === 'odometer' ? { prop: 'vehicleField', types: ['vehicle'] } : f.type === 'defect' ? { prop: 'assetField', types: ['aircraft', 'vehicle'] } : null;
      if (!ref) return;
      const target = f[ref.prop] as string;
      const found = byName.get(target);
      const path = `/sections/${si}/fields/${fi}/${ref.prop}`;
      if (!found) errors.push({ path, message: `${ref.prop} ${JSON.stringify(target)} is not a field of this form` });
      else if (!ref.types.includes(found.field.type)) {
        errors.push({ path, message: `${ref.prop} ${JSON.stringify(target)} must name a ${ref.types.join(' or ')} field (it is a ${found.field.type} field)` });
      }
    }),
  );
  if (errors.length) invalid('form', errors);
  return out.map((o) => o.section);
}

