// Migration tests write old rows into an empty database of their own, migrated up to just
// before the migration under test, then apply the rest.
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const migrationDb = env.MIGRATION_TEST_DB;

/** Migrates the test database up to just before `name`; the returned function applies the rest. */
async function migrateUpTo(name: string): Promise<() => Promise<void>> {
  const migrations = env.TEST_MIGRATIONS;
  expect(migrations.map((migration) => migration.name)).toContain(name);
  await applyD1Migrations(
    migrationDb,
    migrations.filter((migration) => migration.name < name),
  );
  return () => applyD1Migrations(migrationDb, migrations);
}

/**
 * The test of migration `name`: `test` is given the database (`db`) migrated up to just before
 * it, writes the old rows, applies the rest with `applyRest`, and checks what became of them.
 */
export function testMigration(
  name: string,
  title: string,
  test: (migration: { db: D1Database; applyRest: () => Promise<void> }) => Promise<void>,
) {
  describe(`migration ${name}`, () => {
    it(title, async () => test({ db: migrationDb, applyRest: await migrateUpTo(name) }));
  });
}
