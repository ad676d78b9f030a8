/**
 * Prepared statements on PostgreSQL (docs/decisions/0014-prepared-statements.md). Prisma's pg adapter names a
 * statement when its `statementNameGenerator` option returns a name; pg then parses that statement once per pooled
 * connection and afterwards sends only bind and execute, and PostgreSQL may reuse its plan (the server's
 * `plan_cache_mode`: by default a generic plan after five custom ones when it costs no more).
 *
 * Every distinct text gets one name, for all connections, up to `max` names: a later new text, or one longer than
 * `maxLength`, runs unnamed as before. So no connection holds more than `max` statements on the server, whatever SQL
 * the process sends. A statement that opens with {@link PLAN_EACH_CALL} is never named: it is planned for each call's
 * values (an unnamed statement always is), because one plan does not suit every company (aggregation over a few
 * hundred logs or a million).
 */
export const PLAN_EACH_CALL = '/* planned for each call */';

/** How many distinct statement texts are named (DATABASE_STATEMENT_CACHE); 0 names none. */
export const DEFAULT_STATEMENT_CACHE = 250;

/** A statement's name; `''` is PostgreSQL's unnamed statement (pg sends it as when no name is given). */
export function statementNames(max = DEFAULT_STATEMENT_CACHE, maxLength = 16_384): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= max || sql.length > maxLength || sql.startsWith(PLAN_EACH_CALL)) return '';
      name = `fleetops_${names.size}`;
      names.set(sql, name);
    }
    return name;
  };
}
