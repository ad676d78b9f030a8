-- fleetops migration flight_log_rollup

-- CreateTable
CREATE TABLE "FlightLogRollup" (
    "companyId" TEXT NOT NULL,
    "aircraftId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "total" DECIMAL(65,30) NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "FlightLogRollup_pkey" PRIMARY KEY ("companyId","aircraftId","key","bucket")
);

-- CreateIndex
CREATE INDEX "FlightLogRollup_companyId_key_bucket_idx" ON "FlightLogRollup"("companyId", "key", "bucket");

-- Backfill from the flight logs already stored (the same rule as src/modules/flight-logs/rollup.ts)
INSERT INTO "FlightLogRollup" ("companyId", "aircraftId", "key", "bucket", "total", "n")
SELECT l."companyId", l."aircraftId", k.key, date_bin('15 minutes', l."timeDate", TIMESTAMPTZ '2000-01-01 00:00:00+00'), SUM(k.v), COUNT(*)
FROM "FlightLog" l
CROSS JOIN LATERAL (
  SELECT e.key, (e.value)::numeric AS v FROM jsonb_each(l.tracking) e WHERE jsonb_typeof(e.value) = 'number'
  UNION ALL SELECT '', 0
) k
GROUP BY 1, 2, 3, 4;
