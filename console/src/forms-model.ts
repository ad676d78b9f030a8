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
