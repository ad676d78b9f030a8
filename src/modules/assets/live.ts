import type { AircraftService } from '../aircraft/service.js';
import { totalsOf } from '../aircraft/service.js';
import type { VehicleService } from '../vehicles/service.js';
import { asTrackingMap } from '../tracking/schema.js';
import { TotalsMoves } from './totals-moves.js';

/**
 * Live usage totals of any asset that carries them, in one shape: aircraft (totals from flight logs), vehicles
 * (totals raised by odometer readings) and components (counter values computed from their parents). Components
 * bind to these values; maintenance status compares schedule thresholds with them.
 */
export type AssetType = 'aircraft' | 'vehicle' | 'component';

/** Each kind of asset's table, as lockRows (src/db/row-locks.ts) knows it: a write that checks an asset locks its row. */
export const ASSET_TABLE: Record<AssetType, string> = { aircraft: 'Aircraft', vehicle: 'Vehicle', component: 'Component' };

export interface LiveItem {
  key: string;
  displayText: string;
  precision?: number;
  /** components only: the counter's unit and basis */
  unit?: string;
  basis?: string;
  value: number;
}

export interface LiveAsset {
  type: AssetType;
  uid: string;
  name: string;
  items: LiveItem[];
  /** Soft-deleted (a vehicle or a component): still read, but nothing new may refer to it. */
  deleted?: boolean;
}

/** What the component service provides for component assets (its counters' current values). */
export interface ComponentLiveSource {
  live(uid: string): Promise<LiveAsset | null>;
}

export class AssetReader {
  constructor(
    private readonly aircraft: AircraftService,
    private readonly vehicles: VehicleService,
    private components?: ComponentLiveSource,
    /** The request's writes of totals, shared with the aircraft and vehicle services (src/context.ts). */
    readonly moves: TotalsMoves = new TotalsMoves(),
  ) {}

  /** Late binding: the component service itself reads its parents through this reader. */
  setComponents(components: ComponentLiveSource) {
    this.components = components;
  }

  async live(type: AssetType, uid: string): Promise<LiveAsset | null> {
    if (type === 'aircraft') {
      const a = await this.aircraft.find(uid);
      if (!a) return null;
      const totals = totalsOf(a);
      const items = asTrackingMap(a.maintenanceTrackingItems);
      return {
        type,
        uid,
        name: a.registration,
        items: Object.entries(items)
          .filter(([, m]) => m.type === 'number')
          .map(([key, m]) => ({ key, displayText: m.displayText, precision: m.precision, value: totals[key] ?? 0 })),
      };
    }
    if (type === 'vehicle') {
      const v = await this.vehicles.find(uid);
      if (!v) return null;
      const totals = totalsOf(v);
      const items = asTrackingMap(v.maintenanceTrackingItems);
      return {
        type,
        uid,
        name: v.registration,
        ...(v.status === 'deleted' ? { deleted: true } : {}),
        items: Object.entries(items)
          .filter(([, m]) => m.type === 'number')
          .map(([key, m]) => ({ key, displayText: m.displayText, precision: m.precision, value: totals[key] ?? 0 })),
      };
    }
    return this.components ? this.components.live(uid) : null;
  }
}
