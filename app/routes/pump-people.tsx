// /pump-people: the owner names the pump the pages show and invites others to use it, as an
// operator (switch, schedules, see everything) or a viewer (see only); each person shows as
// invited or accepted (an invitation gives nothing until its number accepts). Plain forms posted
// to this route's action, so every change works before (or without) JavaScript; the same
// services as /api/pumps/{deviceId}/name and /members. Removing a number closes its live pages
// (the hub drops its sockets), and the page says so only once the hub has confirmed it.
import { data, Form, useNavigation } from "react-router";
import type { PumpMember } from "../../common/api-responses/pumps.ts";
import { MAX_PUMP_MEMBERS, type MemberRole, roleMay } from "../../common/pump-roles.ts";
import {
  memberChangeRequestSchema,
  memberInviteRequestSchema,
  pumpNameRequestSchema,
} from "../../common/pump-schemas.ts";
import {
  changePumpMember,
  invitePumpMember,
  listPumpMembers,
  removePumpMember,
} from "../../worker/services/pump-members.ts";
import { pumpName, renamePump } from "../../worker/services/pump-names.ts";
import type { Refusal } from "../../worker/services/refusal.ts";
import { Field } from "../components/field.tsx";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { type MessageKey, useT } from "../i18n/i18n.ts";
import { pumpContext, pumpInForm } from "../pump-choice.server.ts";
import { envOf, waitUntilOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/pump-people";

export const meta: Route.MetaFunction = () => [{ title: "Pump and people · Sinchai" }];

export async function loader({ context }: Route.LoaderArgs) {
  const { chosen } = context.get(pumpContext);
  const isOwner = chosen !== null && roleMay(chosen.role, "invite");
  if (!chosen || !isOwner) return { pump: chosen && { deviceId: chosen.device.id, name: null }, isOwner, members: [] };
  const env = envOf(context);
  // Read again: the choice was resolved before this request's action (a new name) ran.
  const [name, members] = await Promise.all([pumpName(env, chosen.device.id), listPumpMembers(env, chosen.device.id)]);
  return { pump: { deviceId: chosen.device.id, name }, isOwner, members };
}

type Notice = { key: MessageKey; values?: Record<string, string | number>; tone: "success" | "error" };

const REFUSALS: Record<string, MessageKey> = {
  alreadyMember: "people.error.alreadyMember",
  ownNumber: "people.error.ownNumber",
  memberLimit: "people.error.memberLimit",
  memberNotFound: "people.error.memberNotFound",
  throttled: "people.error.throttled",
  notAllowed: "people.ownerOnly",
  noDevice: "motor.noDevice",
};

/**
 * What the invite form says about a field the server refused, in the page's language: the form
 * leaves checking to the server (noValidate), so no browser's English bubble shows.
 */
function inviteRefusal(form: FormData, path: PropertyKey | undefined): MessageKey {
  if (path === "mobileNo") return "auth.mobileInvalid";
  if (path === "label")
    return field(form, "label").trim() === "" ? "people.error.labelRequired" : "people.error.invalidInput";
  return "people.error.invalidInput";
}

export async function action({ request, context }: Route.ActionArgs) {
  const refused = (key: MessageKey, status: number, values?: Record<string, string | number>) =>
    data<{ notice: Notice }>({ notice: { key, values, tone: "error" } }, { status });
  if (!isSameOriginRequest(request)) return refused("error.crossSite", 403);
  const form = await readForm(request);
  const user = context.get(userContext);
  const env = envOf(context);
  const intent = field(form, "intent");
  const access = await pumpInForm(env, user, form, intent === "rename" ? "rename" : "invite");
  if (!access.ok) return refused(REFUSALS[access.code]!, 403);
  const deviceId = access.pump.device.id;
  const refusedBy = (refusal: Refusal) =>
    refused(REFUSALS[refusal.code] ?? "people.error.failed", refusal.status, { max: MAX_PUMP_MEMBERS });
  switch (intent) {
    case "rename": {
      const parsed = pumpNameRequestSchema.safeParse({ name: field(form, "name") });
      if (!parsed.success) return refused("people.error.invalidInput", 400);
      await renamePump(env, deviceId, parsed.data.name);
      return { notice: { key: "people.nameSaved", tone: "success" } satisfies Notice };
    }
    case "invite": {
      const parsed = memberInviteRequestSchema.safeParse({
        mobileNo: field(form, "mobileNo"),
        role: field(form, "role"),
        label: field(form, "label"),
      });
      if (!parsed.success) return refused(inviteRefusal(form, parsed.error.issues[0]?.path[0]), 400);
      const owner = { deviceId, ownerMobileNo: user.mobileNo, invitedByUserId: user.id };
      const invited = await invitePumpMember(env, owner, parsed.data, waitUntilOf(context));
      if (!invited.ok) return refusedBy(invited);
      const values = { label: invited.member.label };
      return { notice: { key: "people.invited", values, tone: "success" } satisfies Notice };
    }
    case "change": {
      const parsed = memberChangeRequestSchema.safeParse({ role: field(form, "role"), label: field(form, "label") });
      if (!parsed.success) return refused("people.error.invalidInput", 400);
      const changed = await changePumpMember(env, deviceId, field(form, "mobileNo"), parsed.data);
      if (!changed.ok) return refusedBy(changed);
      const key = changed.hubConfirmed ? "people.changed" : "people.changedPending";
      return { notice: { key, tone: "success" } satisfies Notice };
    }
    case "remove": {
      const removed = await removePumpMember(env, deviceId, field(form, "mobileNo"));
      if (!removed.ok) return refusedBy(removed);
      const key = removed.hubConfirmed ? "people.removed" : "people.removedPending";
      return { notice: { key, values: { label: field(form, "label") }, tone: "success" } satisfies Notice };
    }
    default:
      return refused("people.error.failed", 400);
  }
}

export default function PumpPeople({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const { pump, isOwner, members } = loaderData;
  const notice = actionData?.notice;
  return (
    <main className="page narrow-wide">
      <h1>{t("people.title")}</h1>
      {notice && (
        <p
          className={`message ${notice.tone}`}
          role={notice.tone === "error" ? "alert" : "status"}
          data-testid="people-notice"
        >
          {t(notice.key, notice.values)}
        </p>
      )}
      {!pump ? (
        <p className="card message info">{t("motor.noDevice")}</p>
      ) : !isOwner ? (
        <p className="card message info" data-testid="owner-only">
          {t("people.ownerOnly")}
        </p>
      ) : (
        <>
          <section className="card">
            <Form method="post" className="stack">
              <input type="hidden" name="intent" value="rename" />
              <input type="hidden" name="pump" value={pump.deviceId} />
              <Field label={t("people.name")}>
                <input
                  name="name"
                  defaultValue={pump.name ?? ""}
                  placeholder={t("people.namePlaceholder")}
                  maxLength={40}
                  data-testid="pump-name"
                />
              </Field>
              <button type="submit" className="button" disabled={busy}>
                {t("people.saveName")}
              </button>
            </Form>
          </section>

          <section className="card" aria-labelledby="members-title">
            <h2 id="members-title">{t("people.members")}</h2>
            {members.length === 0 ? (
              <p className="muted">{t("people.none")}</p>
            ) : (
              <ul className="member-list" data-testid="member-list">
                {members.map((member) => (
                  <MemberRow key={member.mobileNo} member={member} deviceId={pump.deviceId} busy={busy} />
                ))}
              </ul>
            )}
          </section>

          <section className="card" aria-labelledby="invite-title">
            <h2 id="invite-title">{t("people.invite")}</h2>
            <p className="muted">{t("people.limit", { max: MAX_PUMP_MEMBERS })}</p>
            <Form
              method="post"
              className="stack"
              key={notice?.tone === "success" ? notice.key : "invite"}
              noValidate
              data-testid="invite-form"
            >
              <input type="hidden" name="intent" value="invite" />
              <input type="hidden" name="pump" value={pump.deviceId} />
              <Field label={t("auth.mobileNo")}>
                <input name="mobileNo" inputMode="numeric" maxLength={10} required data-testid="invite-mobile" />
              </Field>
              <Field label={t("people.label")}>
                <input
                  name="label"
                  placeholder={t("people.labelPlaceholder")}
                  maxLength={40}
                  required
                  data-testid="invite-label"
                />
              </Field>
              <RoleChoice name="role" initial="operator" />
              <button type="submit" className="button primary" disabled={busy} data-testid="invite-submit">
                {t("people.add")}
              </button>
            </Form>
          </section>
        </>
      )}
    </main>
  );
}

function MemberRow({ member, deviceId, busy }: { member: PumpMember; deviceId: string; busy: boolean }) {
  const t = useT();
  return (
    <li className="member" data-testid="member" data-mobile={member.mobileNo}>
      <p>
        <strong>{member.label}</strong> · {member.mobileNo}
      </p>
      <p className="muted member-status" data-testid="member-status" data-accepted={member.acceptedAt !== null}>
        {t(member.acceptedAt === null ? "people.pending" : "people.accepted")}
      </p>
      <Form method="post" className="stack">
        <input type="hidden" name="pump" value={deviceId} />
        <input type="hidden" name="mobileNo" value={member.mobileNo} />
        <input type="hidden" name="label" value={member.label} />
        <RoleChoice name="role" initial={member.role} />
        <div className="form-actions">
          <button type="submit" name="intent" value="change" className="button small" disabled={busy}>
            {t("people.save")}
          </button>
          <button
            type="submit"
            name="intent"
            value="remove"
            className="button small danger"
            disabled={busy}
            data-testid="member-remove"
          >
            {t("people.remove")}
          </button>
        </div>
      </Form>
    </li>
  );
}

function RoleChoice({ name, initial }: { name: string; initial: MemberRole }) {
  const t = useT();
  return (
    <fieldset className="choices role-choices">
      <legend>{t("people.role")}</legend>
      {(["operator", "viewer"] as const).map((role) => (
        <label key={role} className="choice">
          <input type="radio" name={name} value={role} defaultChecked={initial === role} />
          <span className="choice-label">{t(`people.role.${role}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}
