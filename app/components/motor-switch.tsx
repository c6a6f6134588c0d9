// The dashboard's switch: one button per thing it can do, each named by what it does ("मोटर
// चालू करें", "मोटर बंद करें"), never by the state, which the line above it says. A stopped
// motor gets the start button, a running one the stop button, and a motor nobody can vouch for
// (or one whose start is still on its way) both: stopping is never held back. The buttons are
// a form's submit buttons (`command`), so a tap works before the page's script has arrived.
import type { RelayState } from "../../common/device-enums.ts";
import type { MotorStatus } from "../../common/pump-state.ts";
import { useT } from "../i18n/i18n.ts";

export function SwitchButtons({
  status,
  startPending,
  canStart,
  canStop,
}: {
  /** What the hub vouches for (offline: what it was when last heard). */
  status: MotorStatus;
  /** An ON of ours is on its way: it may be running any moment, so stopping is offered too. */
  startPending: boolean;
  canStart: boolean;
  canStop: boolean;
}) {
  const t = useT();
  const offers: RelayState[] = [];
  if (status !== "on") offers.push("on");
  if (status !== "off" || startPending) offers.push("off");
  return (
    <div className="switch-buttons">
      {offers.map((command) => (
        <button
          key={command}
          type="submit"
          name="command"
          value={command}
          className={`motor-switch ${command === "on" ? "start" : "stop"}`}
          disabled={command === "on" ? !canStart : !canStop}
          data-testid={command === "on" ? "motor-on" : "motor-off"}
        >
          {t(command === "on" ? "motor.turnOn" : "motor.turnOff")}
        </button>
      ))}
    </div>
  );
}
