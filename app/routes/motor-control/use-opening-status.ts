// SPEC §8: the page asks for the motor's details when it opens and says what it found, when the
// hub can vouch for it (offline or unconfirmed, the status line says what is known) and nothing
// the page learned since (the farmer's own confirmed tap) says otherwise; what it said goes as
// soon as that is no longer so (a tap on its way, a change the socket brought). The health it gets is
// remembered by this browser for a bad day, and shown from there when the ask fails (SPEC §3
// health cache).
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { HealthData } from "../../../common/realtime-protocol.ts";
import { callApi } from "../../call-api.ts";
import { motorStatusResponseCheck } from "../../checks/generated.ts";
import { useToast } from "../../components/toast.tsx";
import { readCachedHealth, saveCachedHealth } from "../../health-cache.ts";
import { useT } from "../../i18n/i18n.ts";
import { type StatusAnswer, statusAnswerStillTrue } from "../../realtime/status-answer.ts";
import type { useDeviceRealtime } from "../../realtime/use-device-realtime.ts";

export function useOpeningStatus(
  /** The pump shown; null without a box, when there is nothing to ask. */
  deviceId: string | null,
  cacheKey: string,
  [live, setLive]: ReturnType<typeof useDeviceRealtime>,
  sending: boolean,
): HealthData | null {
  const t = useT();
  const toast = useToast();
  const [cachedHealth, setCachedHealth] = useState<HealthData | null>(null);

  useEffect(() => {
    if (deviceId && live.health) saveCachedHealth(cacheKey, live.health);
  }, [deviceId, cacheKey, live.health]);

  // What the page knows when the answer to its opening request arrives, however late.
  const known = useRef({ pump: live.pump, commandInFlight: sending });
  useEffect(() => {
    known.current = { pump: live.pump, commandInFlight: sending };
  });

  // The toast that said what the answer found, while it is up. A layout effect: the toast goes
  // before the screen is painted with the state that contradicts it.
  const said = useRef<{ toastId: number; answer: StatusAnswer } | null>(null);
  useLayoutEffect(() => {
    if (said.current && !statusAnswerStillTrue(said.current.answer, live.pump, sending)) {
      toast.dismiss(said.current.toastId);
      said.current = null;
    }
  }, [live.pump, sending, toast]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when the page opens (SPEC §8)
  useEffect(() => {
    if (!deviceId) return;
    let cancelled = false;
    void callApi(`/api/pumps/${deviceId}/status`, motorStatusResponseCheck).then((result) => {
      if (cancelled || result.status === 401) return;
      if (!result.ok) {
        toast.show(t("status.failed"), "error");
        setCachedHealth(readCachedHealth(cacheKey));
        return;
      }
      const { status, healthLogs } = result.data;
      if (statusAnswerStillTrue(result.data, known.current.pump, known.current.commandInFlight)) {
        const toastId = toast.show(
          t("status.current", { status: status === "on" ? t("motor.on") : t("motor.off") }),
          "success",
        );
        said.current = { toastId, answer: result.data };
      }
      setCachedHealth(null);
      // A report the socket brought meanwhile is newer than the one in this answer.
      if (healthLogs)
        setLive((current) => ({
          ...current,
          health:
            current.health?.reportedAt && (healthLogs.reportedAt ?? "") < current.health.reportedAt
              ? current.health
              : healthLogs,
        }));
    });
    return () => {
      cancelled = true;
    };
    // Once per page visit, whatever the language or toasts do later.
  }, []);

  return cachedHealth;
}
