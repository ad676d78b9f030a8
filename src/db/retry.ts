/** Retries a transaction that lost a deadlock or serialization race (PostgreSQL 40P01/40001, Prisma P2034). */
export async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const msg = String((e as Error)?.message ?? '') + ((e as { code?: string }).code ?? '');
      if (!/40P01|40001|deadlock detected|could not serialize|P2034/.test(msg) || attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}
