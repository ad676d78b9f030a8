-- fleetops migration admin_audit_log

-- CreateTable
CREATE TABLE "AuditEntry" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "keyId" TEXT,
    "userId" TEXT,
    "channel" TEXT NOT NULL,
    "entity" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "changes" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateIndex
CREATE INDEX "AuditEntry_companyId_at_uid_idx" ON "AuditEntry"("companyId", "at" DESC, "uid" DESC);

-- CreateIndex
CREATE INDEX "AuditEntry_companyId_entity_entityId_at_idx" ON "AuditEntry"("companyId", "entity", "entityId", "at" DESC);

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;
