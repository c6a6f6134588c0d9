// Password and device-key hashing on WebCrypto, so the Worker and the Node scripts
// (seeding, provisioning) produce and check the very same strings.

/**
 * Deployed Workers refuse PBKDF2 above 100,000 iterations (local workerd does not, so no
 * local test would catch a higher count); docs/decisions/002-password-hashing.md.
 */
export const PBKDF2_ITERATIONS = 100_000;
const PASSWORD_HASH_PREFIX = "pbkdf2-sha256";

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Whether two byte strings are equal, in time that does not depend on where they differ. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

async function pbkdf2(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/**
 * Returns `pbkdf2-sha256$<iterations>$<salt>$<hash>` with a fresh 16-byte salt. Every account the
 * product makes gets the full count; the test suites' own fixtures pass fewer (the stored count
 * is what `verifyPassword` uses, so their logins take the same path at a fraction of the CPU).
 */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(password, salt, iterations);
  return [PASSWORD_HASH_PREFIX, iterations, toBase64Url(salt), toBase64Url(hash)].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [prefix, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (prefix !== PASSWORD_HASH_PREFIX || !saltText || !hashText) return false;
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
  const actual = await pbkdf2(password, fromBase64Url(saltText), iterations);
  return constantTimeEqual(actual, fromBase64Url(hashText));
}

/**
 * A password hash to check against when the account does not exist, so a wrong number
 * costs the same time as a wrong password and login does not reveal who is registered.
 */
export const DECOY_PASSWORD_HASH =
  "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/** A device secret: 160 random bits, shown once at provisioning, stored only as a hash. */
export function generateDeviceKey(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(20)));
}

/**
 * Device keys are long random secrets, not passwords: one SHA-256 is enough to make a
 * leaked table useless, and it keeps the per-connection check cheap.
 */
export async function hashDeviceKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(key));
  return toBase64Url(new Uint8Array(digest));
}

export async function verifyDeviceKey(key: string, storedHash: string): Promise<boolean> {
  return constantTimeEqual(encoder.encode(await hashDeviceKey(key)), encoder.encode(storedHash));
}

/** A stable, human-readable device id such as `SNC-7K3Q9ZP2`, printed on the box. */
export function generateDeviceId(): string {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `SNC-${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("")}`;
}

export const DEVICE_ID_PATTERN = /^SNC-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/;
