import { and, desc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { type FirmwareImageRow, firmwareImages } from "./schema.ts";

export function latestFirmware(db: Db, deviceType: "wifi" | "sim"): Promise<FirmwareImageRow | undefined> {
  return db.query.firmwareImages.findFirst({
    where: eq(firmwareImages.deviceType, deviceType),
    orderBy: [desc(firmwareImages.uploadedAt), desc(firmwareImages.id)],
  });
}

export function findFirmware(db: Db, id: number): Promise<FirmwareImageRow | undefined> {
  return db.query.firmwareImages.findFirst({ where: eq(firmwareImages.id, id) });
}

export function findFirmwareVersion(db: Db, deviceType: "wifi" | "sim", version: string) {
  return db.query.firmwareImages.findFirst({
    where: and(eq(firmwareImages.deviceType, deviceType), eq(firmwareImages.version, version)),
  });
}

export function listFirmware(db: Db) {
  return db.select().from(firmwareImages).orderBy(desc(firmwareImages.uploadedAt), desc(firmwareImages.id));
}

export async function insertFirmware(db: Db, values: Omit<FirmwareImageRow, "id">): Promise<FirmwareImageRow> {
  const rows = await db.insert(firmwareImages).values(values).returning();
  return rows[0]!;
}
