/**
 * Prepared statements on PostgreSQL (docs/decisions/0014-prepared-statements.md). Prisma's pg adapter names a
 * statement when its `statementNameGenerator` option returns a name; pg then parses that statement once per pooled
 * connection and afterwards sends only bind and execute, and PostgreSQL may reuse its plan (the server's
 * `plan_cache_mode`: by default a generic plan after five custom ones when it costs no more).
 *
 * A text is named the second time it is sent, so one-off texts (an `IN` list of an unusual length, a rare aggregation)
 * never take a name; every name serves all connections. At most `max` texts are named, for the life of the process:
 * later or longer ones (over `maxLength`) run unnamed as before, so no connection holds more than `max` statements on
 * the server whatever SQL the process sends. A statement that opens with {@link PLAN_EACH_CALL} is never named: it is
 * planned for each call's values (an unnamed statement always is), for statements whose best plan depends on them.
 *
 * A named statement always goes by the extended protocol, which takes one statement per text: a raw text of several
 * statements separated by `;` must open with PLAN_EACH_CALL (nothing in src sends one).
 */
export const PLAN_EACH_CALL = '/* planned for each call */';

/** How many distinct statement texts are named (DATABASE_STATEMENT_CACHE); 0 names none. */
export const DEFAULT_STATEMENT_CACHE = 250;

/** A statement's name; `''` is PostgreSQL's unnamed statement (pg sends it as when no name is given). */
export function statementNames(max = DEFAULT_STATEMENT_CACHE, maxLength = 16_384): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  /** texts sent once and not named yet; forgotten all together when it holds 4 × max */
  const once = new Set<string>();
  return ({ sql }) => {
    // a statement planned for each call is told by its first characters, before its whole text is hashed
    if (sql.startsWith(PLAN_EACH_CALL)) return '';
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= max || sql.length > maxLength) return '';
      if (!once.has(sql)) {
        if (once.size >= 4 * max) once.clear();
        once.add(sql);
        return '';
      }
      once.delete(sql);
      name = `fleetops_${names.size}`;
      names.set(sql, name);
      if (names.size >= max) once.clear(); // no text is named any more: nothing to remember
    }
    return name;
  };
}
