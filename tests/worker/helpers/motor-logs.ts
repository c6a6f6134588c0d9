// A box's motor log written straight into D1, as the hub would have written it at those times:
// for tests of what reads it back (the archive, who may see which entries).
import { env } from "cloudflare:workers";
import { getDb } from "../../../worker/db/client.ts";
import { motorLogs } from "../../../worker/db/schema.ts";

/**
 * Writes one entry for `deviceId` at each of `times`, in that order (ids grow with them), each
 * saying `words(at, index)`; answers their ids.
 */
export async function logsAt(
  deviceId: string,
  times: number[],
  words: (at: number, index: number) => string = (at, index) => `at ${at} #${index}`,
): Promise<number[]> {
  const rows = await getDb(env.DB)
    .insert(motorLogs)
    .values(
      times.map((createdAt, index) => ({
        deviceId,
        userId: null,
        mobileNo: null,
        action: "other" as const,
        kind: "legacy",
        params: JSON.stringify({ text: words(createdAt, index) }),
        message: words(createdAt, index),
        createdAt,
        hubRef: `${deviceId}:written-${createdAt}-${index}`,
      })),
    )
    .returning({ id: motorLogs.id });
  return rows.map((row) => row.id);
}
