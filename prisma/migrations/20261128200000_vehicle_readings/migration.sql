-- fleetops migration vehicle_readings

-- A vehicle keeps its highest odometer reading per number maintenance item (docs/api-notes.md "Vehicles"), so its
-- total is always the higher of its initial value and that reading. Before, a total a reading had set could not be
-- told from one an initial value had set: an initial value raised above a reading and set back lowered the total
-- under the reading. Existing vehicles: a total that differs from its initial value was set by a reading (or by an
-- earlier release's rule), and is kept as the reading, so no total is ever lowered under it.

-- AlterTable
ALTER TABLE "Vehicle" ADD COLUMN "readings" JSONB NOT NULL DEFAULT '{}';

UPDATE "Vehicle" AS v
SET "readings" = r.readings
FROM (
  SELECT x."companyId", x.uid, jsonb_object_agg(t.key, t.value) AS readings
  FROM "Vehicle" AS x, jsonb_each(x.totals) AS t
  WHERE jsonb_typeof(t.value) = 'number'
    AND t.value IS DISTINCT FROM COALESCE(x."initialValues" -> t.key, '0'::jsonb)
  GROUP BY x."companyId", x.uid
) AS r
WHERE v."companyId" = r."companyId" AND v.uid = r.uid;
