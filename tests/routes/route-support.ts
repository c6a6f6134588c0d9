// What the route tests hand a route module's loader, action or middleware: the router context the
// Worker gives React Router (worker/http/router-context.ts), with the signed-in user or admin the
// shells would set; and accounts and boxes made straight in D1. (These tests type-check with the
// pages, so they cannot use tests/worker/helpers/, which needs the worker tests' types.)
import { env } from "cloudflare:workers";
import { RouterContextProvider } from "react-router";
import { adminContext } from "../../app/admin-session.server.ts";
import { userContext } from "../../app/user-context.ts";
import { generateDeviceId, hashPassword } from "../../common/credentials.ts";
import type { DeviceKind } from "../../common/device-enums.ts";
import { authenticateToken } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, users } from "../../worker/db/schema.ts";
import { cloudflareContext } from "../../worker/http/router-context.ts";

export const ORIGIN = "http://sinchai.test";

export function uniqueMobileNo(): string {
  return `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

/** A form POSTed to a page of ours, as a browser on `origin` sends it. */
export function formPost(path: string, fields: Record<string, string>, origin = ORIGIN): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return new Request(`${ORIGIN}${path}`, { method: "POST", body: form, headers: { Origin: origin } });
}

/** The context with the Worker's env; `waitUntil` gets the work a route leaves running. */
export function workerContext(waitUntil: (promise: Promise<unknown>) => void = () => {}): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, {
    env,
    ctx: { waitUntil, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
  });
  return context;
}

/** The context as the user shell (or the admin shell) leaves it for the session `token`. */
export async function signedInContext(token: string, audience: "user" | "admin"): Promise<RouterContextProvider> {
  const context = workerContext();
  const session = (await authenticateToken(env, token, audience))!;
  if (audience === "admin") context.set(adminContext, session);
  else context.set(userContext, session);
  return context;
}

/** An account with a password it can sign in with, its number verified or not. */
export async function accountWithPassword(verified: boolean) {
  const mobileNo = uniqueMobileNo();
  const password = `pw-${crypto.randomUUID()}`;
  const [row] = await getDb(env.DB)
    .insert(users)
    .values({
      mobileNo,
      passwordHash: await hashPassword(password),
      createdAt: Date.now(),
      numberVerifiedAt: verified ? Date.now() : null,
    })
    .returning();
  return { id: row!.id, mobileNo, password };
}

/** An account (an admin's with `isAdmin`) with no password to hash: it is only given sessions. */
export async function accountWithoutPassword(isAdmin = false) {
  const [row] = await getDb(env.DB)
    .insert(users)
    .values({ mobileNo: uniqueMobileNo(), passwordHash: "unused", isAdmin, createdAt: Date.now() })
    .returning();
  return row!;
}

/** A box of `ownerUserId` (none: in stock) that never connected; its id. */
export async function boxOf(ownerUserId: number | null, kind: DeviceKind = "3phase"): Promise<string> {
  const id = generateDeviceId();
  await getDb(env.DB).insert(devices).values({ id, ownerUserId, kind, keyHash: "unused", createdAt: Date.now() });
  return id;
}
