import { z } from 'zod';
import type { ScopedPrisma } from '../../db/scoped.js';
import { ValidationError, fieldErrorsFromZod } from '../../errors.js';

/**
 * Form templates (api-v1 §2.8). The foundation only needs to store a template (demo data); the forms issue adds
 * the REST/GraphQL routes and validation of field objects against the field schema (gaps §9).
 */
export const FormCodeSchema = z.string().regex(/^[a-zA-Z0-9-]+$/, 'code may contain only letters, digits and -');

export const FormTemplateSchema = z
  .object({
    uid: z.string().min(1).max(128),
    name: z.string().min(1),
    code: FormCodeSchema,
    department: z.string().min(1),
    sections: z.array(
      z.object({ name: z.string().min(1), description: z.string().optional(), fields: z.array(z.record(z.string(), z.unknown())) }),
    ),
    status: z.enum(['active', 'inactive']).default('active'),
    toolset: z.string().optional(),
    publiclyAvailable: z.boolean().default(false),
    publicId: z.string().optional(),
  })
  .strict();
export type FormTemplateInput = z.input<typeof FormTemplateSchema>;

export class FormService {
  constructor(private readonly db: ScopedPrisma) {}

  async upsertTemplate(input: FormTemplateInput, pathPrefix = ''): Promise<'created' | 'updated'> {
    const parsed = FormTemplateSchema.safeParse(input);
    if (!parsed.success) throw new ValidationError('invalid form', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    const { uid, ...data } = parsed.data;
    const n = await this.db.form.updateMany({ where: { uid }, data: data as never });
    if (n.count === 0) await this.db.form.create({ data: { uid, ...data } as never });
    return n.count === 0 ? 'created' : 'updated';
  }
}
