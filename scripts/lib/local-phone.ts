// Where the local telephony provider of a local Worker listens, kept next to that Worker's local
// database (<persist dir>/sinchai-phone.json, git-ignored): `npm start` picks a free port for it
// and writes it here, so tests and scripts that did not start it can read what it received
// (telephony-sim/client.ts).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "../../common/zod.ts";

const phoneFileSchema = z.object({ url: z.string() });

export function localPhoneFile(persistTo: string): string {
  return join(persistTo, "sinchai-phone.json");
}

export async function writeLocalPhoneUrl(persistTo: string, url: string): Promise<void> {
  const file = localPhoneFile(persistTo);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ url })}\n`);
}

export async function readLocalPhoneUrl(persistTo: string): Promise<string> {
  return phoneFileSchema.parse(JSON.parse(await readFile(localPhoneFile(persistTo), "utf8"))).url;
}
