// A VAPID key pair (RFC 8292) for Web Push, as the Worker reads it: the public key as the
// uncompressed P-256 point and the private key as the JWK "d" value, both base64url.
import { generateKeyPairSync } from "node:crypto";

export type VapidKeys = { publicKey: string; privateKey: string };

export function generateVapidKeys(): VapidKeys {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = privateKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]);
  return { publicKey: point.toString("base64url"), privateKey: jwk.d! };
}
