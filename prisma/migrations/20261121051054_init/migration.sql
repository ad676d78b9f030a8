-- fleetops migration init

-- CreateTable
CREATE TABLE "Company" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Company_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "companyId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "userId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "firstName" TEXT,
    "lastName" TEXT,
    "status" TEXT NOT NULL,
    "roles" TEXT[],
    "phone" TEXT,
    "timezone" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "Aircraft" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "registration" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "manufacturer" TEXT,
    "model" TEXT,
    "engineType" TEXT NOT NULL,
    "engineCount" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "maintenanceTrackingItems" JSONB NOT NULL DEFAULT '{}',
    "logTrackingItems" JSONB NOT NULL DEFAULT '{}',
    "initialValues" JSONB NOT NULL DEFAULT '{}',
    "totals" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Aircraft_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "FlightLog" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "aircraftId" TEXT NOT NULL,
    "aircraftRegistration" TEXT NOT NULL,
    "timeDate" TIMESTAMPTZ(3) NOT NULL,
    "pilot" TEXT NOT NULL,
    "copilot" TEXT,
    "copilotType" TEXT,
    "flightNumber" TEXT,
    "startLocation" TEXT NOT NULL,
    "endLocation" TEXT NOT NULL,
    "pax" INTEGER,
    "notes" TEXT,
    "tracking" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FlightLog_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "Form" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "department" TEXT NOT NULL,
    "sections" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "revision" INTEGER,
    "revisionDate" TEXT,
    "signatories" TEXT[],
    "dynamicFields" TEXT[],
    "toolset" TEXT,
    "notification" BOOLEAN,
    "notificationRecipients" JSONB,
    "publiclyAvailable" BOOLEAN NOT NULL DEFAULT false,
    "publicId" TEXT,
    "webhooks" JSONB NOT NULL DEFAULT '[]',
    "extra" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Form_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "FormCompletion" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "submitterName" TEXT,
    "data" JSONB NOT NULL,
    "revision" INTEGER,
    "revisionDate" TEXT,
    "signatories" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FormCompletion_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "completionId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "statusCode" INTEGER,
    "durationMs" INTEGER,
    "error" TEXT,
    "resendOf" TEXT,
    "attemptedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "Vehicle" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "make" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "registration" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "vin" TEXT,
    "serialNumber" TEXT,
    "color" TEXT,
    "description" TEXT,
    "registrationState" TEXT,
    "engineNumber" TEXT,
    "previousRegistration" TEXT,
    "year" INTEGER,
    "fuelType" TEXT,
    "transmissionType" TEXT,
    "totalSeats" INTEGER,
    "passengerCapacity" INTEGER,
    "tracking" JSONB NOT NULL DEFAULT '{"kilometers": false, "miles": true, "hours": false}',
    "trackingDevice" JSONB,
    "maintenanceTrackingItems" JSONB NOT NULL DEFAULT '{}',
    "logTrackingItems" JSONB NOT NULL DEFAULT '{}',
    "initialValues" JSONB NOT NULL DEFAULT '{}',
    "totals" JSONB NOT NULL DEFAULT '{}',
    "location" TEXT,
    "thirdPartyUser" JSONB,
    "photos" JSONB,
    "statusBeforeDelete" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Vehicle_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "Component" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "partNumber" TEXT NOT NULL,
    "serialNumber" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "state" TEXT NOT NULL DEFAULT 'inStores',
    "manufacturer" TEXT,
    "description" TEXT,
    "condition" TEXT,
    "grn" TEXT,
    "notes" TEXT,
    "alternatePartNumbers" TEXT[],
    "location" TEXT,
    "parentKind" TEXT,
    "parentUid" TEXT,
    "installedAt" TIMESTAMPTZ(3),
    "rootAssetType" TEXT,
    "rootAssetUid" TEXT,
    "ancestorUids" TEXT[],
    "childCount" INTEGER NOT NULL DEFAULT 0,
    "canHaveChildren" BOOLEAN NOT NULL DEFAULT true,
    "parentType" TEXT,
    "counters" JSONB NOT NULL DEFAULT '[]',
    "statusBeforeDelete" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Component_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "ScheduleItem" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "documentation" TEXT[],
    "archivedDocumentation" TEXT[],
    "relatedTo" TEXT NOT NULL,
    "relatedToType" TEXT NOT NULL,
    "recurring" BOOLEAN NOT NULL,
    "recurringInterval" DECIMAL(20,6),
    "trackingItem" TEXT,
    "dueAtInterval" DECIMAL(20,6),
    "calendarDateDue" TIMESTAMPTZ(3),
    "calendarRecurring" INTEGER,
    "lastCarriedOutDate" TIMESTAMPTZ(3),
    "lastCarriedOutValue" JSONB,
    "status" TEXT NOT NULL DEFAULT 'active',
    "notes" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ScheduleItem_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateTable
CREATE TABLE "CompletedScheduleItem" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "scheduleItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "userDisplayName" TEXT NOT NULL,
    "completedAt" TIMESTAMPTZ(3) NOT NULL,
    "documents" TEXT[],
    "notes" TEXT,
    "trackingValue" DECIMAL(20,6),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CompletedScheduleItem_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_companyId_createdAt_idx" ON "ApiKey"("companyId", "createdAt");

-- CreateIndex
CREATE INDEX "User_companyId_status_idx" ON "User"("companyId", "status");

-- CreateIndex
CREATE INDEX "User_companyId_email_idx" ON "User"("companyId", "email");

-- CreateIndex
CREATE UNIQUE INDEX "Aircraft_companyId_registration_key" ON "Aircraft"("companyId", "registration");

-- CreateIndex
CREATE INDEX "FlightLog_companyId_timeDate_uid_idx" ON "FlightLog"("companyId", "timeDate" DESC, "uid" DESC);

-- CreateIndex
CREATE INDEX "FlightLog_companyId_aircraftId_timeDate_uid_idx" ON "FlightLog"("companyId", "aircraftId", "timeDate" DESC, "uid" DESC);

-- CreateIndex
CREATE INDEX "FlightLog_companyId_pilot_timeDate_idx" ON "FlightLog"("companyId", "pilot", "timeDate" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Form_publicId_key" ON "Form"("publicId");

-- CreateIndex
CREATE INDEX "Form_companyId_status_idx" ON "Form"("companyId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Form_companyId_code_key" ON "Form"("companyId", "code");

-- CreateIndex
CREATE INDEX "FormCompletion_companyId_createdAt_uid_idx" ON "FormCompletion"("companyId", "createdAt" DESC, "uid" DESC);

-- CreateIndex
CREATE INDEX "FormCompletion_companyId_formId_createdAt_idx" ON "FormCompletion"("companyId", "formId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "FormCompletion_companyId_userId_createdAt_idx" ON "FormCompletion"("companyId", "userId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "WebhookDelivery_companyId_formId_attemptedAt_idx" ON "WebhookDelivery"("companyId", "formId", "attemptedAt" DESC);

-- CreateIndex
CREATE INDEX "Vehicle_companyId_status_idx" ON "Vehicle"("companyId", "status");

-- CreateIndex
CREATE INDEX "Vehicle_companyId_registration_idx" ON "Vehicle"("companyId", "registration");

-- CreateIndex
CREATE INDEX "Component_companyId_parentUid_idx" ON "Component"("companyId", "parentUid");

-- CreateIndex
CREATE INDEX "Component_companyId_rootAssetUid_idx" ON "Component"("companyId", "rootAssetUid");

-- CreateIndex
CREATE INDEX "Component_companyId_state_idx" ON "Component"("companyId", "state");

-- CreateIndex
CREATE INDEX "Component_companyId_partNumber_serialNumber_idx" ON "Component"("companyId", "partNumber", "serialNumber");

-- CreateIndex
CREATE INDEX "ScheduleItem_companyId_relatedTo_status_idx" ON "ScheduleItem"("companyId", "relatedTo", "status");

-- CreateIndex
CREATE INDEX "ScheduleItem_companyId_status_type_idx" ON "ScheduleItem"("companyId", "status", "type");

-- CreateIndex
CREATE INDEX "CompletedScheduleItem_companyId_scheduleItemId_completedAt__idx" ON "CompletedScheduleItem"("companyId", "scheduleItemId", "completedAt" DESC, "uid" DESC);

-- CreateIndex
CREATE INDEX "CompletedScheduleItem_companyId_completedAt_uid_idx" ON "CompletedScheduleItem"("companyId", "completedAt" DESC, "uid" DESC);

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Aircraft" ADD CONSTRAINT "Aircraft_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlightLog" ADD CONSTRAINT "FlightLog_companyId_aircraftId_fkey" FOREIGN KEY ("companyId", "aircraftId") REFERENCES "Aircraft"("companyId", "uid") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Form" ADD CONSTRAINT "Form_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormCompletion" ADD CONSTRAINT "FormCompletion_companyId_formId_fkey" FOREIGN KEY ("companyId", "formId") REFERENCES "Form"("companyId", "uid") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Vehicle" ADD CONSTRAINT "Vehicle_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompletedScheduleItem" ADD CONSTRAINT "CompletedScheduleItem_companyId_scheduleItemId_fkey" FOREIGN KEY ("companyId", "scheduleItemId") REFERENCES "ScheduleItem"("companyId", "uid") ON DELETE RESTRICT ON UPDATE CASCADE;
