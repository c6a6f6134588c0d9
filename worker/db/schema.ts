// D1 tables (drizzle), one file a group of tables in ./schema/. Migrations in ../../migrations
// are generated from this file with `npm run db:generate`; never edit a migration that has been
// applied anywhere.
export * from "./schema/accounts.ts";
export * from "./schema/admin-audit.ts";
export * from "./schema/alerts.ts";
export * from "./schema/billing.ts";
export * from "./schema/devices.ts";
export * from "./schema/installers.ts";
export * from "./schema/telephony.ts";
