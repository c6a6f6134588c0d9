// Session tokens: HS256 JWTs signed with the JWT_SECRET binding. The algorithm, issuer and
// audience are pinned on verification, so a token minted for one area never opens the other.
import { jwtVerify, SignJWT } from "jose";

export type Audience = "user" | "admin";

const ISSUER = "sinchai";
const ALGORITHM = "HS256";

/** Farmers should not have to log in every week; admin sessions are short on purpose. */
export const SESSION_TTL_MS: Record<Audience, number> = {
  user: 30 * 24 * 60 * 60 * 1000,
  admin: 12 * 60 * 60 * 1000,
};

export type TokenClaims = { userId: number; sessionId: string; audience: Audience };

function signingKey(secret: string | undefined): Uint8Array {
  if (!secret || secret.length < 32) {
    // A short or missing secret is an operator mistake, not a client error: fail loudly.
    throw new Error("JWT_SECRET is missing or shorter than 32 characters.");
  }
  return new TextEncoder().encode(secret);
}

export async function signSessionToken(
  secret: string | undefined,
  claims: TokenClaims,
  expiresAt: number,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setIssuer(ISSUER)
    .setAudience(claims.audience)
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(signingKey(secret));
}

/** The token's claims, or null for any token that is malformed, tampered, expired or foreign. */
export async function verifySessionToken(
  secret: string | undefined,
  token: string,
  audience: Audience,
): Promise<TokenClaims | null> {
  const key = signingKey(secret);
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience,
      requiredClaims: ["exp", "sub", "sid"],
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.sid !== "string") return null;
    return { userId, sessionId: payload.sid, audience };
  } catch {
    return null;
  }
}
