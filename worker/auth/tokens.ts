// Session tokens: HS256 JWTs signed with the JWT_SECRET binding. The algorithm, issuer and
// audience are pinned on verification, so a token minted for one area never opens the other.
import { jwtVerify, SignJWT } from "jose";

export type Audience = "user" | "admin";

const ISSUER = "sinchai";
const ALGORITHM = "HS256";

/**
 * How long a session lasts: a farmer's from its last use (a user page renews it, see
 * `renewSession`), so a farmer who opens the app is never asked for the password again; an
 * admin's from the login, and short on purpose.
 */
export const SESSION_TTL_MS: Record<Audience, number> = {
  user: 90 * 24 * 60 * 60 * 1000,
  admin: 12 * 60 * 60 * 1000,
};

export type TokenClaims = { userId: number; sessionId: string; audience: Audience };

/** What a verified token says, with when it was signed (ms). */
export type VerifiedClaims = TokenClaims & { issuedAt: number };

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
  issuedAt = Date.now(),
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setIssuer(ISSUER)
    .setAudience(claims.audience)
    .setSubject(String(claims.userId))
    .setIssuedAt(Math.floor(issuedAt / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(signingKey(secret));
}

/** The token's claims, or null for any token that is malformed, tampered, expired (at `now`) or foreign. */
export async function verifySessionToken(
  secret: string | undefined,
  token: string,
  audience: Audience,
  now = Date.now(),
): Promise<VerifiedClaims | null> {
  const key = signingKey(secret);
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience,
      requiredClaims: ["exp", "iat", "sub", "sid"],
      currentDate: new Date(now),
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.sid !== "string") return null;
    return { userId, sessionId: payload.sid, audience, issuedAt: (payload.iat ?? 0) * 1000 };
  } catch {
    return null;
  }
}
