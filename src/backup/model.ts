import { getDatamodel } from '../generated/pothos-types.js';

/**
 * Which tables a backup holds, read from the Prisma data model (the generated datamodel of prisma/schema.prisma), so
 * a model added later is backed up without editing this code: every model with a `companyId` column holds company
 * data and is backed up whole (all of its columns), `Company` by its `id`. A model without `companyId` must be named
 * in NOT_COMPANY_DATA with the reason, or test/backup-model.test.ts fails: nobody adds a table that a backup
 * silently leaves out.
 */
export const NOT_COMPANY_DATA: Record<string, string> = {};

export interface BackupTable {
  /** The model's name, which is its table's name (the schema maps none: test/backup-model.test.ts checks). */
  name: string;
  /** The column that names the company: `id` for Company, `companyId` for all others. */
  companyColumn: 'id' | 'companyId';
  /** Primary-key columns, in key order. */
  primaryKey: string[];
  /** Scalar columns (what a row holds). */
  columns: string[];
  /** Models this one refers to through a foreign key (restored before it). */
  refersTo: string[];
}

interface DmmfField {
  name: string;
  kind: string;
  type: string;
  isId?: boolean;
  relationFromFields?: readonly string[];
}
export interface DmmfModel {
  fields: readonly DmmfField[];
  primaryKey: { fields: readonly string[] } | null;
}
export type Datamodel = Record<string, DmmfModel>;

/** The models of prisma/schema.prisma, as its generated datamodel describes them. */
export function datamodel(): Datamodel {
  return getDatamodel().datamodel.models; // Pothos' PothosPrismaDatamodel declares every field read here
}

/** Every model of the data model with what a backup needs to know of it; company tables only, in restore order. */
export function companyTables(models: Datamodel = datamodel()): BackupTable[] {
  const out: BackupTable[] = [];
  for (const [name, m] of Object.entries(models)) {
    const scalars = m.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum');
    const companyColumn = name === 'Company' ? 'id' : scalars.some((f) => f.name === 'companyId') ? 'companyId' : null;
    if (!companyColumn) continue;
    const primaryKey = m.primaryKey ? [...m.primaryKey.fields] : scalars.filter((f) => f.isId).map((f) => f.name);
    if (!primaryKey.length) throw new Error(`backup: model ${name} has no primary key`);
    out.push({
      name,
      companyColumn,
      primaryKey,
      columns: scalars.map((f) => f.name),
      refersTo: [...new Set(m.fields.filter((f) => f.kind === 'object' && f.relationFromFields?.length).map((f) => f.type))].filter((t) => t !== name),
    });
  }
  return inDependencyOrder(out);
}

/** Models that are not company tables (neither Company nor carrying companyId). */
export function otherModels(models: Datamodel = datamodel()): string[] {
  const company = new Set(companyTables(models).map((t) => t.name));
  return Object.keys(models).filter((n) => !company.has(n));
}

/** Parents before children (a foreign key's target first), otherwise in the data model's order. */
function inDependencyOrder(tables: BackupTable[]): BackupTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: BackupTable[] = [];
  const visit = (t: BackupTable) => {
    if (done.has(t.name)) return;
    if (visiting.has(t.name)) throw new Error(`backup: foreign keys form a cycle through ${t.name}`);
    visiting.add(t.name);
    for (const p of t.refersTo) {
      const parent = byName.get(p);
      if (parent) visit(parent);
    }
    visiting.delete(t.name);
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}

/** `"name"` as an SQL identifier. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
