-- fleetops migration flight_log_utc_day

-- The flight logs of given UTC days, found by one index scan: aggregations read the days a period of the request's
-- time zone cuts through (its other days come from FlightLogDaily) with
--   "companyId" = $1 AND ("timeDate" AT TIME ZONE 'UTC')::date = ANY($2::date[])
-- (docs/aggregation.md). It carries "timeDate", so counting logs per period reads the index alone. An expression
-- index: prisma/schema.prisma cannot describe it, and the schema engine's diff leaves indexes on expressions alone.
CREATE INDEX "FlightLog_companyId_utcDay_idx" ON "FlightLog" ("companyId", (("timeDate" AT TIME ZONE 'UTC')::date)) INCLUDE ("timeDate");
