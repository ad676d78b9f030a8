/**
 * Text read from a file as UTF-8 that was not UTF-8 (browser-safe: the console's CSV import uses it too). A decoder
 * puts U+FFFD for bytes that are not UTF-8 (a Latin-1 or Windows-1252 `é`, as a spreadsheet's plain "CSV" saves it;
 * UTF-16's byte order mark): imported, the names and notes would keep the replacement characters for good, so such a
 * file is refused whole, at the line of the first one. UTF-16 text without a byte order mark reads as UTF-8 with a
 * NUL after each letter: a NUL in the first line says so (a NUL further down is a cell's, which the API refuses in
 * its row).
 */
export function notUtf8Line(text: string): number | null {
  const at = text.indexOf('\uFFFD');
  if (at >= 0) return text.slice(0, at).split(/\r\n?|\n/).length;
  return /^[^\r\n]*\u0000/.test(text) ? 1 : null;
}

/** What a file that is not UTF-8 is told (after `fleetops <command>: ` or on the console's import page). */
export const notUtf8Message = (line: number) =>
  `the file is not UTF-8 text (line ${line} holds bytes that are not): save it as UTF-8 (a spreadsheet's "CSV UTF-8", an editor's "UTF-8") and import it again; nothing was imported`;

/** A file's text without the byte order mark a UTF-8 file may begin with. */
export const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
