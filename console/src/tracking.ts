/** Tracking items of aircraft and vehicles (maps of key → metadata, as the API gives them in JSON fields). */
export interface TrackingMeta {
  displayText: string;
  type: 'number' | 'string';
  precision?: number;
}

export type TrackingMap = Record<string, TrackingMeta>;

export const trackingMap = (v: unknown): TrackingMap => (v && typeof v === 'object' ? (v as TrackingMap) : {});
export const numberMap = (v: unknown): Record<string, number> => (v && typeof v === 'object' ? (v as Record<string, number>) : {});
