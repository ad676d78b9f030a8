/**
 * Counts the writes of a request that moved an aircraft's or a vehicle's totals (flight logs, odometer readings,
 * initial values, items): what a request derived from totals earlier (component counters) is stale once it moves.
 */
export class TotalsMoves {
  count = 0;
  moved(): void {
    this.count++;
  }
}
