// Why the page stopped watching the pump (a close of ../../../common/pump-state.ts), and the way
// back in when signing in again can help.
import { useT } from "../../i18n/i18n.ts";
import type { LiveDeviceState } from "../../realtime/live-device.ts";

export function LiveEnded({ ended }: { ended: NonNullable<LiveDeviceState["ended"]> }) {
  const t = useT();
  return (
    <div className="message warning" role="alert" data-testid="live-ended" data-reason={ended}>
      <p>{t(`pump.ended.${ended}`)}</p>
      {ended !== "deviceUnlinked" && (
        <a href="/login" className="button small">
          {t("pump.logInAgain")}
        </a>
      )}
    </div>
  );
}
