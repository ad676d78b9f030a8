/**
 * Text a client sends, handled in time linear in its length (issue 21: one 200,000-character display text held
 * the event loop for two minutes in a backtracking regular expression). The rule for `src/`: user text goes
 * through no regular expression that can backtrack more than a constant per character. An anchored pattern of
 * plain character classes (`^[A-Za-z_][A-Za-z0-9_]{0,63}$`) is fine; a quantified run that can fail after the
 * run and be retried from each position (`/\/+$/`, `/([A-Z]+)([A-Z][a-z])/g`, `/0+$/`) is not: such a job is a
 * loop here. docs/api-notes.md ("Text") lists the length limits.
 */

/** Longest one-line text field (names, part numbers, locations, registrations, ...). */
export const SHORT_TEXT_MAX = 1000;
/** Longest free text (notes, descriptions, string tracking values). */
export const LONG_TEXT_MAX = 10_000;
/** Longest display text of a tracking item or counter (a label; a counter's key is derived from it). */
export const LABEL_MAX = 200;

/** The message of a text over its limit. */
export const tooLong = (what: string, max: number) => `${what} is too long (${max} characters at most)`;

/**
 * `text` cut to at most `max` characters (code points, as text limits are counted), ending in `mark` when cut. Never
 * inside a character: a cut by UTF-16 units could split an emoji's surrogate pair, and text holding half of one is
 * not text (PostgreSQL refused the row).
 */
export function clipText(text: string, max: number, mark = '\u2026'): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - Array.from(mark).length).join('') + mark;
}

/** `text` without the trailing run of `ch` (one character), e.g. `https://a.example//` → `https://a.example`. */
export function trimTrailing(text: string, ch: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === ch) end--;
  return text.slice(0, end);
}

/** Line breaks: CR, LF, vertical tab, form feed, NEL, line and paragraph separators. */
function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c || code === 0x85 || code === 0x2028 || code === 0x2029;
}

/**
 * `text` on one line: each run of line breaks becomes one space. Every text that goes into an email (subject,
 * body lines, header values) or an SMS goes through this, so a value a client sent (a submitter's name, a form
 * name, an answer) cannot add a header or a line of its own.
 */
export function oneLine(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isLineBreak(text.charCodeAt(i))) continue;
    out += text.slice(from, i) + ' ';
    while (i + 1 < text.length && isLineBreak(text.charCodeAt(i + 1))) i++;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `1 flight log`, `2 flight logs`: a count and its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * One webhook endpoint however its URL is written (scheme and host in any case, a default port or not): the URL as
 * `new URL` reads it. A form and the alert settings hold each endpoint once by it, and a stored secret or a
 * pending attempt follows the endpoint when its URL is re-saved in another spelling.
 */
export function endpointOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * The key a message target is known by however it is written: an email address in any case, a phone (E.164) as
 * written, a webhook URL as `endpointOf` reads it. A form's recipients and webhooks, the alert settings' recipients
 * and the dispatcher's "still listed" checks all compare targets by it, so each mailbox, phone and endpoint is one.
 */
export const targetKey = {
  email: (address: string) => `email:${address.toLowerCase()}`,
  phone: (phone: string) => `phone:${phone}`,
  url: (url: string) => `url:${endpointOf(url)}`,
};

/**
 * The entries that repeat a key an earlier entry has: each entry gives its keys with what they name (a property, for
 * the error's path); for every key met before, its entry's index, what it names and the first entry's index.
 */
export function repeatedKeys<P>(entries: readonly (readonly (readonly [P, string])[])[]): { index: number; prop: P; first: number }[] {
  const seen = new Map<string, number>();
  const out: { index: number; prop: P; first: number }[] = [];
  entries.forEach((keys, index) => {
    for (const [prop, key] of keys) {
      const first = seen.get(key);
      if (first !== undefined) out.push({ index, prop, first });
      else seen.set(key, index);
    }
  });
  return out;
}
