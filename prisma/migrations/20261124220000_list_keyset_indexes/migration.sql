-- fleetops migration list_keyset_indexes (gaps.md §17: every list is bounded)
-- Each list pages by keyset over its documented order (src/db/keyset.ts): an index on (companyId, the order's
-- columns) lets a page seek to its cursor and read `limit + 1` rows instead of sorting the company's rows.

-- CreateIndex
CREATE INDEX "Component_companyId_name_serialNumber_uid_idx" ON "Component"("companyId", "name", "serialNumber", "uid");

-- CreateIndex
CREATE INDEX "ScheduleItem_companyId_name_uid_idx" ON "ScheduleItem"("companyId", "name", "uid");

-- CreateIndex
CREATE INDEX "Form_companyId_name_uid_idx" ON "Form"("companyId", "name", "uid");

-- CreateIndex
CREATE INDEX "User_companyId_displayName_uid_idx" ON "User"("companyId", "displayName", "uid");

-- DropIndex: the new index serves lookups by registration too
DROP INDEX "Vehicle_companyId_registration_idx";

-- CreateIndex
CREATE INDEX "Vehicle_companyId_registration_uid_idx" ON "Vehicle"("companyId", "registration", "uid");

-- DropIndex: the key list pages by (createdAt, id); the new index serves lookups by createdAt too
DROP INDEX "ApiKey_companyId_createdAt_idx";

-- CreateIndex
CREATE INDEX "ApiKey_companyId_createdAt_id_idx" ON "ApiKey"("companyId", "createdAt", "id");
