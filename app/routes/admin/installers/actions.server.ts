// The installers page's intents, on the server: make an installer, give boxes to their stock or
// take unused ones back, set their region, tag boxes with a region. The same services as
// /api/admin/installers* (worker/services/admin-installers.ts), the same schemas; each write is
// on the audit trail as the API's is, under the page's own action.
import { data } from "react-router";
import { userIdSchema } from "../../../../common/admin-schemas.ts";
import { DEVICE_ID_PATTERN } from "../../../../common/credentials.ts";
import type { AdminMessageKey } from "../../../../common/i18n/admin-en.ts";
import {
  boxRegionRequestSchema,
  installerRegionRequestSchema,
  installerRequestSchema,
  installerStockRequestSchema,
} from "../../../../common/installer-schemas.ts";
import {
  giveStock,
  makeInstaller,
  setRegion,
  tagBoxes,
  takeBackStock,
} from "../../../../worker/services/admin-installers.ts";
import type { AuthenticatedUser } from "../../../../worker/services/page-session.ts";
import { ADMIN_INSTALLER_PAGE_ACTIONS, recordAdminAudit } from "../../../../worker/services/record-admin-action.ts";
import { type Refusal, settle } from "../../../../worker/services/refusal.ts";
import { field } from "../../../form.server.ts";

export type Intent = keyof typeof ADMIN_INSTALLER_PAGE_ACTIONS;

/**
 * What became of a post: done (with the ids it took and those it left out, for the box forms)
 * or refused, by a key of the admin catalogue; `userId` keeps the installer's forms open on it.
 */
export type Outcome =
  | {
      ok: true;
      intent: Intent;
      userId: number | null;
      name?: string;
      region?: string | null;
      done?: string[];
      leftOut?: string[];
    }
  | {
      ok: false;
      intent: Intent | null;
      userId: number | null;
      error: AdminMessageKey;
      values?: Record<string, string>;
    };

const REFUSALS: Partial<Record<string, AdminMessageKey>> = {
  userNotFound: "admin.installers.error.userNotFound",
  numberNotVerified: "admin.installers.error.numberNotVerified",
  notAnInstaller: "admin.installers.error.notAnInstaller",
};

const INTENTS = new Set<string>(Object.keys(ADMIN_INSTALLER_PAGE_ACTIONS));

/** Box ids as typed: one a line, or with commas or spaces; the sticker's form, in any case. */
function typedBoxIds(text: string): { ids: string[]; bad: string[] } {
  const words = text
    .split(/[\s,;]+/)
    .map((word) => word.trim().toUpperCase())
    .filter(Boolean);
  const ids = [...new Set(words.map((word) => (word.startsWith("SNC-") ? word : `SNC-${word}`)))];
  return { ids, bad: ids.filter((id) => !DEVICE_ID_PATTERN.test(id)) };
}

type Done = { status: number; outcome: Outcome; target: string | null; details: Record<string, unknown> };

/** Runs one intent; the caller records it and answers. */
async function run(env: Env, admin: AuthenticatedUser, intent: Intent, form: FormData): Promise<Done> {
  const refusedAs = (
    status: number,
    error: AdminMessageKey,
    userId: number | null,
    details: Record<string, unknown>,
    target: string | null,
    values?: Record<string, string>,
  ): Done => ({ status, outcome: { ok: false, intent, userId, error, values }, target, details });
  const byRefusal = (
    refusal: Refusal,
    userId: number | null,
    details: Record<string, unknown>,
    target: string | null,
  ) =>
    refusedAs(
      refusal.status,
      REFUSALS[refusal.code] ?? "admin.installers.error.failed",
      userId,
      { ...details, error: refusal.code },
      target,
    );

  if (intent === "makeInstaller") {
    const input = installerRequestSchema.safeParse({ mobileNo: field(form, "mobileNo"), name: field(form, "name") });
    const details = { mobileNo: field(form, "mobileNo"), name: field(form, "name") };
    if (!input.success)
      return refusedAs(400, "admin.installers.error.invalid", null, { ...details, error: "invalidInput" }, null);
    let target: string | null = null;
    const made = await settle(() =>
      makeInstaller(env, {
        ...input.data,
        adminUserId: admin.id,
        onTarget: (named) => {
          target = named;
        },
      }),
    );
    if (!made.ok) return byRefusal(made, null, input.data, target);
    return {
      status: 201,
      outcome: { ok: true, intent, userId: made.value.userId, name: made.value.name },
      target,
      details: input.data,
    };
  }

  if (intent === "tagBoxes") {
    const { ids, bad } = typedBoxIds(field(form, "deviceIds"));
    const input = boxRegionRequestSchema.safeParse({ deviceIds: ids, region: field(form, "region") });
    const details = { deviceIds: ids, region: field(form, "region") };
    if (bad.length > 0) {
      return refusedAs(400, "admin.installers.error.badBoxIds", null, { ...details, error: "invalidInput" }, null, {
        ids: bad.join(", "),
      });
    }
    if (!input.success)
      return refusedAs(400, invalidKey(input.error), null, { ...details, error: "invalidInput" }, null);
    const tagged = await tagBoxes(env, input.data.deviceIds, input.data.region);
    return {
      status: 200,
      outcome: {
        ok: true,
        intent,
        userId: null,
        region: input.data.region,
        done: tagged,
        leftOut: input.data.deviceIds.filter((id) => !tagged.includes(id)),
      },
      target: null,
      details: input.data,
    };
  }

  const id = userIdSchema.safeParse(field(form, "userId"));
  if (!id.success) return refusedAs(400, "admin.installers.error.invalid", null, { error: "invalidInput" }, null);
  const userId = id.data;
  const target = `user:${userId}`;

  if (intent === "setRegion") {
    const input = installerRegionRequestSchema.safeParse({ region: field(form, "region") });
    const details = { region: field(form, "region") };
    if (!input.success)
      return refusedAs(400, invalidKey(input.error), userId, { ...details, error: "invalidInput" }, target);
    const saved = await settle(() => setRegion(env, userId, input.data.region));
    if (!saved.ok) return byRefusal(saved, userId, input.data, target);
    return {
      status: 200,
      outcome: { ok: true, intent, userId, name: saved.value.name, region: saved.value.region },
      target,
      details: input.data,
    };
  }

  // giveStock, takeBackStock: the same box ids, given or taken back.
  const { ids, bad } = typedBoxIds(field(form, "deviceIds"));
  if (bad.length > 0) {
    return refusedAs(
      400,
      "admin.installers.error.badBoxIds",
      userId,
      { deviceIds: ids, error: "invalidInput" },
      target,
      {
        ids: bad.join(", "),
      },
    );
  }
  const input = installerStockRequestSchema.safeParse({ deviceIds: ids });
  if (!input.success) {
    return refusedAs(400, "admin.installers.error.noBoxIds", userId, { deviceIds: ids, error: "invalidInput" }, target);
  }
  const work = intent === "giveStock" ? giveStock : takeBackStock;
  const moved = await settle(() => work(env, userId, input.data.deviceIds));
  if (!moved.ok) return byRefusal(moved, userId, input.data, target);
  return {
    status: 200,
    outcome: {
      ok: true,
      intent,
      userId,
      done: moved.value,
      leftOut: input.data.deviceIds.filter((deviceId) => !moved.value.includes(deviceId)),
    },
    target,
    details: input.data,
  };
}

/** A region refused by its schema, or anything else typed wrong. */
function invalidKey(error: { issues: { path: PropertyKey[] }[] }): AdminMessageKey {
  return error.issues.some((issue) => issue.path.includes("region"))
    ? "admin.installers.error.badRegion"
    : "admin.installers.error.invalid";
}

/** The page's action: one intent, recorded on the audit trail whatever its outcome. */
export async function installersAction(env: Env, request: Request, admin: AuthenticatedUser, form: FormData) {
  const intent = field(form, "intent");
  if (!INTENTS.has(intent)) {
    return data<Outcome>(
      { ok: false, intent: null, userId: null, error: "admin.installers.error.failed" },
      { status: 400 },
    );
  }
  const done = await run(env, admin, intent as Intent, form);
  await recordAdminAudit(env, request, {
    admin: { id: admin.id, mobileNo: admin.mobileNo },
    action: ADMIN_INSTALLER_PAGE_ACTIONS[intent as Intent],
    target: done.target,
    status: done.status,
    details: done.details,
  });
  return data<Outcome>(done.outcome, { status: done.status });
}
