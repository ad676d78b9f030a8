import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/**
 * Wraps a Prisma driver adapter factory so every SQL statement Prisma sends is reported to `onQuery`
 * (statement counting in tests, SQL tracing at LOG_LEVEL=trace). Transactions are wrapped too.
 */
export type QueryListener = (sql: string) => void;

function wrapQueryable<T extends object>(target: T, onQuery: QueryListener): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'queryRaw' || prop === 'executeRaw') {
        return (query: { sql: string }) => {
          onQuery(query.sql);
          return value.call(t, query);
        };
      }
      if (prop === 'startTransaction') {
        return async (...args: unknown[]) => wrapQueryable(await value.apply(t, args), onQuery);
      }
      return value.bind(t);
    },
  });
}

export function instrumentAdapter(
  factory: SqlMigrationAwareDriverAdapterFactory,
  onQuery: QueryListener,
): SqlMigrationAwareDriverAdapterFactory {
  return new Proxy(factory, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver);
      if (prop === 'connect' && typeof value === 'function') {
        return async (...args: unknown[]) => wrapQueryable(await value.apply(t, args), onQuery);
      }
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}
