-- fleetops migration flight_log_daily

-- CreateTable
CREATE TABLE "FlightLogDaily" (
    "companyId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "aircraftId" TEXT NOT NULL,
    "sum" DECIMAL(65,30) NOT NULL DEFAULT 0,
    "numbers" INTEGER NOT NULL DEFAULT 0,
    "present" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "FlightLogDaily_pkey" PRIMARY KEY ("companyId","key","day","aircraftId")
);

-- CreateIndex
CREATE INDEX "FlightLogDaily_companyId_key_aircraftId_day_idx" ON "FlightLogDaily"("companyId", "key", "aircraftId", "day");

-- The rollup follows every write to FlightLog in the same transaction: statement-level triggers aggregate the
-- changed rows (transition tables) into signed differences per (company, key, UTC day, aircraft) and add them, in
-- key order, to the rollup rows. key '' counts logs (present); a tracking key sums its numeric values exactly
-- (sum, numbers) and counts its non-null values (present). Rows that fall to zero stay; readers skip them.
CREATE FUNCTION "flight_log_daily_apply"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "FlightLogDaily" AS d ("companyId", "key", "day", "aircraftId", "sum", "numbers", "present")
    SELECT ch."companyId", e.k, (ch."timeDate" AT TIME ZONE 'UTC')::date, ch."aircraftId",
           COALESCE(sum(ch.sg * e.v), 0), sum(CASE WHEN e.v IS NULL THEN 0 ELSE ch.sg END), sum(ch.sg)
    FROM (SELECT 1 AS sg, "companyId", "aircraftId", "timeDate", tracking FROM new_rows) ch
    CROSS JOIN LATERAL (
      SELECT ''::text AS k, NULL::numeric AS v
      UNION ALL
      SELECT j.key, CASE WHEN jsonb_typeof(j.value) = 'number' THEN j.value::numeric END
      FROM jsonb_each(CASE WHEN jsonb_typeof(ch.tracking) = 'object' THEN ch.tracking ELSE '{}'::jsonb END) j
      WHERE jsonb_typeof(j.value) <> 'null'
    ) e
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ("companyId", "key", "day", "aircraftId") DO UPDATE
      SET "sum" = d."sum" + EXCLUDED."sum", "numbers" = d."numbers" + EXCLUDED."numbers", "present" = d."present" + EXCLUDED."present";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "FlightLogDaily" AS d ("companyId", "key", "day", "aircraftId", "sum", "numbers", "present")
    SELECT ch."companyId", e.k, (ch."timeDate" AT TIME ZONE 'UTC')::date, ch."aircraftId",
           COALESCE(sum(ch.sg * e.v), 0), sum(CASE WHEN e.v IS NULL THEN 0 ELSE ch.sg END), sum(ch.sg)
    FROM (SELECT -1 AS sg, "companyId", "aircraftId", "timeDate", tracking FROM old_rows) ch
    CROSS JOIN LATERAL (
      SELECT ''::text AS k, NULL::numeric AS v
      UNION ALL
      SELECT j.key, CASE WHEN jsonb_typeof(j.value) = 'number' THEN j.value::numeric END
      FROM jsonb_each(CASE WHEN jsonb_typeof(ch.tracking) = 'object' THEN ch.tracking ELSE '{}'::jsonb END) j
      WHERE jsonb_typeof(j.value) <> 'null'
    ) e
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ("companyId", "key", "day", "aircraftId") DO UPDATE
      SET "sum" = d."sum" + EXCLUDED."sum", "numbers" = d."numbers" + EXCLUDED."numbers", "present" = d."present" + EXCLUDED."present";
  ELSE
    INSERT INTO "FlightLogDaily" AS d ("companyId", "key", "day", "aircraftId", "sum", "numbers", "present")
    SELECT ch."companyId", e.k, (ch."timeDate" AT TIME ZONE 'UTC')::date, ch."aircraftId",
           COALESCE(sum(ch.sg * e.v), 0), sum(CASE WHEN e.v IS NULL THEN 0 ELSE ch.sg END), sum(ch.sg)
    FROM (SELECT -1 AS sg, "companyId", "aircraftId", "timeDate", tracking FROM old_rows UNION ALL SELECT 1, "companyId", "aircraftId", "timeDate", tracking FROM new_rows) ch
    CROSS JOIN LATERAL (
      SELECT ''::text AS k, NULL::numeric AS v
      UNION ALL
      SELECT j.key, CASE WHEN jsonb_typeof(j.value) = 'number' THEN j.value::numeric END
      FROM jsonb_each(CASE WHEN jsonb_typeof(ch.tracking) = 'object' THEN ch.tracking ELSE '{}'::jsonb END) j
      WHERE jsonb_typeof(j.value) <> 'null'
    ) e
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
    ON CONFLICT ("companyId", "key", "day", "aircraftId") DO UPDATE
      SET "sum" = d."sum" + EXCLUDED."sum", "numbers" = d."numbers" + EXCLUDED."numbers", "present" = d."present" + EXCLUDED."present";
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "FlightLog_daily_insert" AFTER INSERT ON "FlightLog"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "flight_log_daily_apply"();
CREATE TRIGGER "FlightLog_daily_update" AFTER UPDATE ON "FlightLog"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "flight_log_daily_apply"();
CREATE TRIGGER "FlightLog_daily_delete" AFTER DELETE ON "FlightLog"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "flight_log_daily_apply"();

-- the logs that exist already
INSERT INTO "FlightLogDaily" ("companyId", "key", "day", "aircraftId", "sum", "numbers", "present")
SELECT ch."companyId", e.k, (ch."timeDate" AT TIME ZONE 'UTC')::date, ch."aircraftId",
       COALESCE(sum(e.v), 0), count(e.v), count(*)
FROM "FlightLog" ch
CROSS JOIN LATERAL (
  SELECT ''::text AS k, NULL::numeric AS v
  UNION ALL
  SELECT j.key, CASE WHEN jsonb_typeof(j.value) = 'number' THEN j.value::numeric END
  FROM jsonb_each(CASE WHEN jsonb_typeof(ch.tracking) = 'object' THEN ch.tracking ELSE '{}'::jsonb END) j
  WHERE jsonb_typeof(j.value) <> 'null'
) e
GROUP BY 1, 2, 3, 4;
