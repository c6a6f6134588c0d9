// The one-time claim code printed on a box's sticker beside its id (docs/decisions/033-installers.md).
// Runtime-neutral: `npm run device -- label` makes one and stores its hash, the Worker checks it.
// 10 characters of the box id's alphabet (no 0/O, 1/I): 50 random bits, so a code cannot be
// guessed, and one SHA-256 of box id and code is enough to keep (as for a box's key).
import { z } from "./zod.ts";

const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const CLAIM_CODE_LENGTH = 10;
const CLAIM_CODE_PATTERN = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{10}$/;

/** A claim code as typed: spaces and dashes dropped, lower case raised, so "k7q9-zp2m 4x" is read as printed. */
export const claimCodeSchema = z
  .string()
  .transform((typed) => typed.replace(/[\s-]/g, "").toUpperCase())
  .pipe(z.string().regex(CLAIM_CODE_PATTERN, { error: "Not a claim code." }));

export function generateClaimCode(): string {
  // 32 letters: a byte modulo 32 is uniform.
  return Array.from(crypto.getRandomValues(new Uint8Array(CLAIM_CODE_LENGTH)), (byte) => ALPHABET[byte % 32]).join("");
}

export async function hashClaimCode(deviceId: string, code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${deviceId}\n${code}`));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
