// The farmer's pumps, one tap to switch (docs/decisions/018-shared-pumps.md): a plain form
// whose buttons post the chosen box, so it works before the page's script has arrived. Each
// shows its name, what its hub vouches for about the motor, and whether the box is online.
import { Form, useLocation } from "react-router";
import type { PumpRole } from "../../common/pump-roles.ts";
import type { MotorStatus } from "../../common/pump-state.ts";
import type { DeviceStatus } from "../../common/realtime-protocol.ts";
import { useT } from "../i18n/i18n.ts";

export type SwitcherPump = {
  deviceId: string;
  name: string | null;
  role: PumpRole;
  ownerMobileNo: string | null;
  status: MotorStatus;
  deviceStatus: DeviceStatus;
};

/** A box without a name is called by the end of its id, as printed on it. */
export function usePumpName() {
  const t = useT();
  return (pump: { deviceId: string; name: string | null }) =>
    pump.name ?? t("pumps.unnamed", { id: pump.deviceId.slice(-4) });
}

export function PumpSwitcher({ pumps, chosenId }: { pumps: SwitcherPump[]; chosenId: string | null }) {
  const t = useT();
  const nameOf = usePumpName();
  const { pathname } = useLocation();
  return (
    <Form method="post" action="/pump" className="pump-switcher" aria-label={t("pumps.label")}>
      <input type="hidden" name="next" value={pathname} />
      {pumps.map((pump) => {
        const online = pump.deviceStatus === "online";
        return (
          <button
            key={pump.deviceId}
            type="submit"
            name="deviceId"
            value={pump.deviceId}
            className="pump-chip"
            aria-pressed={pump.deviceId === chosenId}
            data-testid={`pump-${pump.deviceId}`}
          >
            <span className={`pump-dot ${online ? "online" : "offline"}`} aria-hidden="true" />
            <span className="pump-chip-name">{nameOf(pump)}</span>
            <span className="pump-chip-state">
              {online ? t("pumps.state", { status: pump.status }) : t("pumps.offline")}
              {pump.role !== "owner" && ` · ${t("pumps.role", { role: pump.role })}`}
            </span>
          </button>
        );
      })}
    </Form>
  );
}
