import type { Component } from '../../generated/prisma/client.js';
import { lockRowsInOrder } from '../../db/row-locks.js';
import type { ScopedPrisma } from '../../db/scoped.js';

/**
 * Locks a component where it stands: the components above it from the top down, then the component itself (read
 * under those locks, again until its ancestors are the ones locked), so that no move of a subtree holding it can
 * begin or be in flight until this transaction ends, and nothing read through its ancestors changes meanwhile.
 * Every write that moves a subtree or reads through one locks in this order, top down (a move locks the component
 * it moves, then its UPDATE the rows under it): two of them then wait for each other in turn, where locking the
 * component before its ancestors had each hold what the other needed (a deadlock, which PostgreSQL breaks only after
 * a second). A read through the component that must agree with one serial order of those writes (a schedule
 * completion's default tracking value: src/modules/schedule/service.ts) locks it the same way. Null when there is no
 * such component.
 */
export async function lockPlace(tx: ScopedPrisma, uid: string): Promise<Component | null> {
  const held = new Set<string>();
  for (;;) {
    const seen = await tx.component.findFirst({ where: { uid }, select: { ancestorUids: true } });
    if (!seen) return null;
    // the chain's first entry may be an aircraft or a vehicle: only the components among them are locked
    const order = [...seen.ancestorUids, uid].filter((u) => !held.has(u));
    await lockRowsInOrder(tx, 'Component', order);
    order.forEach((u) => held.add(u));
    const self = await tx.component.findFirst({ where: { uid } });
    if (!self) return null;
    if (self.ancestorUids.every((u) => held.has(u))) return self;
  }
}

