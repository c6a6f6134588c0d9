// The fleet never loses its last admin: not by demotion, not by deletion, not by two admins
// demoting each other at once. Its own file, because it needs to know every admin there is
// (worker test storage is per file).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { getDb } from "../../../worker/db/client.ts";
import { users } from "../../../worker/db/schema.ts";
import { createUser, loginToken } from "../helpers/accounts.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { deleteJson, getJson, putJson } from "../helpers/http.ts";

freshStorageForThisFile();

const adminCount = async () => (await getDb(env.DB).select().from(users).where(eq(users.isAdmin, true))).length;

const deleteUser = (mobileNo: string, token: string) => deleteJson("/api/admin/delete-user", { mobileNo }, token);

it("keeps at least one admin whatever the admins do", async () => {
  expect(await adminCount()).toBe(0);
  const first = await createUser({ isAdmin: true });
  const firstToken = await loginToken(first, "admin");

  // The only admin cannot remove their own role.
  const selfDemotion = await putJson("/api/admin/update-user-role", { userId: first.id, isAdmin: false }, firstToken);
  expect(selfDemotion.status).toBe(409);
  expect((await readJson(selfDemotion, apiErrorSchema)).message).toMatch(/last admin/);
  expect(await adminCount()).toBe(1);

  // With a second admin, the first may step down, and is signed out of the admin area.
  const second = await createUser();
  expect((await putJson("/api/admin/update-user-role", { userId: second.id, isAdmin: true }, firstToken)).status).toBe(
    200,
  );
  const secondToken = await loginToken(second, "admin");
  expect((await putJson("/api/admin/update-user-role", { userId: first.id, isAdmin: false }, firstToken)).status).toBe(
    200,
  );
  expect((await getJson("/api/admin/users", firstToken)).status).toBe(401);

  // Now the second is the last one: neither demotion nor deletion of them goes through.
  expect(
    (await putJson("/api/admin/update-user-role", { userId: second.id, isAdmin: false }, secondToken)).status,
  ).toBe(409);
  expect(await adminCount()).toBe(1);

  // Two admins demoting each other at the same moment: one may win, never both.
  const third = await createUser({ isAdmin: true });
  const thirdToken = await loginToken(third, "admin");
  const [a, b] = await Promise.all([
    putJson("/api/admin/update-user-role", { userId: third.id, isAdmin: false }, secondToken),
    putJson("/api/admin/update-user-role", { userId: second.id, isAdmin: false }, thirdToken),
  ]);
  expect([a.status, b.status].filter((status) => status === 200).length).toBeLessThanOrEqual(1);
  expect(await adminCount()).toBe(1);

  // Deletion: an admin cannot delete themselves, so only two admins deleting each other at
  // once could remove the last one. The statement's own condition stops the second.
  const [survivor] = await getDb(env.DB).select().from(users).where(eq(users.isAdmin, true));
  const survivorToken = survivor!.id === second.id ? secondToken : thirdToken;
  const rival = await createUser({ isAdmin: true });
  const rivalToken = await loginToken(rival, "admin");
  const [x, y] = await Promise.all([
    deleteUser(rival.mobileNo, survivorToken),
    deleteUser(survivor!.mobileNo, rivalToken),
  ]);
  expect([x.status, y.status].filter((status) => status === 200)).toHaveLength(1);
  expect(await adminCount()).toBe(1);
});
