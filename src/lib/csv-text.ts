/**
 * Text in CSV files, both ways (browser-safe: the console's export and import use it too). Written (an export), text
 * a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return: OWASP's CSV injection
 * advice) gets a leading single quote, and so does text that already starts with quotes before such a character.
 * Read (an import), one leading quote before quotes and such a character is taken off. So an export loads back as it
 * was: `=SUM(A1)` is written `'=SUM(A1)` and read `=SUM(A1)`; `'=x` is written `''=x` and read `'=x`; `'x` is left
 * as it is both ways.
 */
const WRITTEN_WITH_QUOTE = /^'*[=+\-@\t\r]/;
const READ_WITHOUT_QUOTE = /^'+[=+\-@\t\r]/;

export const csvTextWritten = (s: string): string => (WRITTEN_WITH_QUOTE.test(s) ? `'${s}` : s);

export const csvTextRead = (s: string): string => (READ_WITHOUT_QUOTE.test(s) ? s.slice(1) : s);
