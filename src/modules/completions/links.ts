/** Where a front end shows a submission: `<appBaseUrl>/forms/completions/<uid>` (docs/forms.md). */
export function submissionLink(appBaseUrl: string, uid: string): string {
  return `${appBaseUrl.replace(/\/+$/, '')}/forms/completions/${encodeURIComponent(uid)}`;
}
