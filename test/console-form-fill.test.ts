// The console's fill-in page reads its inputs into the answers the API takes (console/src/forms-model.ts `collect`):
// text without the spaces around it, a select's option exactly as the template writes it.
import { describe, expect, it } from 'vitest';
import { collect, type FormField } from '../console/src/forms-model.js';

describe('the console reads a filled-in form into answers', () => {
  const fields: FormField[] = [
    { name: 'grade', label: 'Grade', type: 'select', options: ['Good ', 'Poor'] },
    { name: 'remarks', label: 'Remarks', type: 'text' },
    { name: 'count', label: 'Count', type: 'number' },
  ];
  it('an option ending in a space is sent as that option; text is trimmed; blanks are left out', () => {
    expect(collect(fields, { grade: 'Good ', remarks: '  all fine  ', count: '' }, 'UTC')).toEqual({ grade: 'Good ', remarks: 'all fine' });
    expect(collect(fields, { grade: '', remarks: '   ' }, 'UTC')).toEqual({});
  });
});
