// Changing the mobile number a device (and its account) answers to (SPEC §5): checked here as
// the spec asks, again on the server, and confirmed first because the box restarts.
import { type FormEvent, useState } from "react";
import { deviceConfigResponseSchema } from "../../../common/api-responses/admin.ts";
import { MOBILE_NO_PATTERN } from "../../../common/constants.ts";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { useAdminT } from "../../i18n/admin.ts";
import type { Ask } from "../dialog.tsx";
import { Field } from "../field.tsx";
import { useToast } from "../toast.tsx";
import { useAdminApi } from "./use-admin-api.ts";

/** SPEC §5: 10 digits with a first digit of 1 to 9, and not the current number. */
export function newMobileProblem(current: string, candidate: string): AdminMessageKey | null {
  if (!MOBILE_NO_PATTERN.test(candidate)) return "admin.settings.invalidMobile";
  if (candidate === current) return "admin.settings.sameMobile";
  return null;
}

export function MobileNumberSection({
  mobileNo,
  ask,
  onChanged,
}: {
  mobileNo: string;
  ask: Ask;
  onChanged: () => void;
}) {
  const t = useAdminT();
  const api = useAdminApi();
  const toast = useToast();
  const [newMobile, setNewMobile] = useState("");
  const [problem, setProblem] = useState<AdminMessageKey | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const candidate = newMobile.trim();
    const found = newMobileProblem(mobileNo, candidate);
    setProblem(found);
    if (found) return;
    ask(t("admin.settings.mobileConfirm", { from: mobileNo, to: candidate }), async () => {
      try {
        const answer = await api("/api/admin/device-config", deviceConfigResponseSchema, {
          method: "PUT",
          json: { mobileNo, newMobile: candidate },
        });
        if (answer.ok) {
          toast.show(t("admin.settings.mobileSent"), "success");
          setNewMobile("");
          onChanged();
          return;
        }
        if (answer.status === 409) setProblem("admin.settings.mobileTaken");
        toast.show(t("admin.settings.mobileFailed"), "error");
      } catch {
        toast.show(t("admin.settings.mobileFailed"), "error");
      }
    });
  }

  return (
    <section className="settings-section">
      <h3>{t("admin.settings.mobile")}</h3>
      <p>
        <strong>{mobileNo}</strong>
      </p>
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label={t("admin.settings.newMobile")}>
          <input
            name="newMobile"
            type="tel"
            inputMode="numeric"
            maxLength={10}
            autoComplete="off"
            value={newMobile}
            onChange={(event) => {
              setNewMobile(event.target.value);
              setProblem(null);
            }}
            aria-invalid={problem !== null}
          />
        </Field>
        <button type="submit" className="button small">
          {t("admin.settings.changeMobile")}
        </button>
      </form>
      {problem && (
        <p className="message error" role="alert">
          {t(problem)}
        </p>
      )}
    </section>
  );
}
