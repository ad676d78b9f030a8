/**
 * CSV cells for exports. A text cell that a spreadsheet would read as a formula (starting with =, +, -, @, tab or
 * carriage return) is prefixed with a single quote (OWASP CSV injection advice); numbers stay numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvText(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/** A JSON value as one cell: arrays of plain values joined with "; ", other objects as JSON. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') return csvText(v);
  if (Array.isArray(v) && v.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x))) {
    return csvText(v.map((x) => (x === null ? '' : String(x))).join('; '));
  }
  return csvText(JSON.stringify(v));
}
