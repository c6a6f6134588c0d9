// MACs under keys derived from the Worker's JWT_SECRET, one key per use: what D1 keeps of a
// secret that is short enough to guess (a 6-digit code, a 4-digit SMS PIN) is its HMAC, so a
// copy of D1 without the Worker's secret does not give it away.

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key for `use` (its HKDF info, which names it), derived once per secret. */
export function secretMacKey(secret: string | undefined, use: string): Promise<CryptoKey> {
  if (!secret || secret.length < 32) throw new Error("JWT_SECRET must be at least 32 characters.");
  const cacheKey = `${use}\n${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(use) },
        material,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign", "verify"],
      );
    })();
    keys.set(cacheKey, key);
  }
  return key;
}

export function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}
