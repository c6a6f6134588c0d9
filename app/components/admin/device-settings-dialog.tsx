// The Device Settings modal of the user detail page (SPEC §2, §4, §5): debug mode with the live
// debug log, the device's mobile number, provisioning and firmware. Its questions go to the
// page's one confirm dialog (`ask`), a sibling of this one, so no close event crosses over.
import { useEffect, useRef, useState } from "react";
import type { AdminUserView } from "../../../common/admin-user-views.ts";
import { deviceConfigResponseSchema } from "../../../common/api-responses/admin.ts";
import { useAdminT } from "../../i18n/admin.ts";
import type { Ask } from "../dialog.tsx";
import { useToast } from "../toast.tsx";
import { DebugConsole, type DebugLine } from "./debug-console.tsx";
import { DeviceSection } from "./device-section.tsx";
import { ClosingDialog } from "./dialogs.tsx";
import { FirmwareSection } from "./firmware-section.tsx";
import { MobileNumberSection } from "./mobile-number-section.tsx";
import { useAdminApi } from "./use-admin-api.ts";

/** Switches debug mode off even while the page is going away (keepalive outlives the page). */
function debugOffOnExit(mobileNo: string) {
  void fetch("/api/admin/device-config", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ mobileNo, debug: false }),
    keepalive: true,
  }).catch(() => undefined); // the hub's 30-minute limit ends it anyway
}

export function DeviceSettingsDialog({
  open,
  onClose,
  user,
  online,
  deviceDebug,
  debugLines,
  onAccountChanged,
  ask,
}: {
  open: boolean;
  onClose: () => void;
  user: Pick<AdminUserView, "id" | "mobileNo" | "device">;
  online: boolean;
  /** Debug mode as the hub has it now (another admin, or the 30-minute limit, may change it). */
  deviceDebug: boolean;
  debugLines: DebugLine[];
  /** The account or its device changed on the server: reload the page's data. */
  onAccountChanged: () => void;
  ask: Ask;
}) {
  const t = useAdminT();
  const api = useAdminApi();
  const toast = useToast();
  const [debug, setDebug] = useState(deviceDebug);
  const [debugBusy, setDebugBusy] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reopening the dialog shows the hub's value again, changed or not
  useEffect(() => setDebug(deviceDebug), [deviceDebug, open]);

  // Debug mode streams over the farmer's SIM: never leave it on behind a closed page.
  const debugRef = useRef({ on: false, mobileNo: user.mobileNo });
  debugRef.current = { on: debug, mobileNo: user.mobileNo };
  useEffect(() => {
    const onPageHide = () => debugRef.current.on && debugOffOnExit(debugRef.current.mobileNo);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      onPageHide();
    };
  }, []);

  async function setDebugMode(next: boolean) {
    setDebugBusy(true);
    try {
      const answer = await api("/api/admin/device-config", deviceConfigResponseSchema, {
        method: "PUT",
        json: { mobileNo: user.mobileNo, debug: next },
      });
      if (answer.ok) setDebug(next);
      else toast.show(t("admin.settings.debugFailed"), "error");
    } catch {
      toast.show(t("admin.settings.debugFailed"), "error");
    } finally {
      setDebugBusy(false);
    }
  }

  function close() {
    // SPEC §4: debug mode is turned off when the dialog closes.
    if (debugRef.current.on) {
      setDebug(false);
      void api("/api/admin/device-config", deviceConfigResponseSchema, {
        method: "PUT",
        json: { mobileNo: user.mobileNo, debug: false },
      }).catch(() => undefined);
    }
    onClose();
  }

  return (
    <ClosingDialog open={open} title={t("admin.settings.title")} onClose={close} testId="device-settings-dialog">
      <div className="dialog-scroll settings-sections">
        {user.device && (
          <section className="settings-section">
            <h3>{t("admin.settings.debug")}</h3>
            <label className="switch">
              <input
                type="checkbox"
                role="switch"
                aria-checked={debug}
                checked={debug}
                disabled={debugBusy}
                onChange={(event) => setDebugMode(event.target.checked)}
              />
              <span>{t("admin.settings.debug")}</span>
            </label>
            <p className="muted small-text">{t("admin.settings.debugHint")}</p>
            <DebugConsole lines={debugLines} />
          </section>
        )}
        {user.device && <MobileNumberSection mobileNo={user.mobileNo} ask={ask} onChanged={onAccountChanged} />}
        <DeviceSection user={user} online={online} ask={ask} onChanged={onAccountChanged} open={open} />
        <FirmwareSection open={open} />
      </div>
    </ClosingDialog>
  );
}
