import { trimTrailing } from '../../lib/text.js';

/** Where a front end shows a submission: `<appBaseUrl>/forms/completions/<uid>` (docs/forms.md). */
export function submissionLink(appBaseUrl: string, uid: string): string {
  return `${trimTrailing(appBaseUrl, '/')}/forms/completions/${encodeURIComponent(uid)}`;
}
