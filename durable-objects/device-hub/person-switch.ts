// A person's switch of the motor, however it reached the hub: the Worker's RPC (the HTTP API,
// the dashboard's form and the stop key of an alert's call, the person resolved from D1 by
// worker/services/pump-access.ts) or the page's open socket (the person is the socket's viewer,
// resolved here from the hub's copy of owner and members). One method for all, so all check the
// same rules, start the same command (commands.ts sendSwitch) and log the same words.
import type { RelayState } from "../../common/device-protocol.ts";
import type { MotorCommandResult, PersonChannel, PumpPerson } from "../../common/hub-contract.ts";
import type { MotorCommands } from "./commands.ts";
import { confirmedRoleOf, labelOf, personMay } from "./owner.ts";
import { NOT_ALLOWED } from "./pump-model.ts";
import { Room } from "./room.ts";
import type { BrowserAttachment } from "./sockets.ts";

export class PersonSwitch extends Room<{ commands: MotorCommands }> {
  /**
   * Switches the motor if `person` may (checked here against the hub's own copy of owner and
   * members, whatever the caller resolved); succeeds only when the box confirms. The log names
   * them and how they asked (`via`): the origin is built here, never taken from the caller.
   * `forMinutes` (an ON from a phone): the hub switches the motor off by itself after that long.
   */
  async handleSwitchRequest(
    person: PumpPerson,
    action: RelayState,
    via: PersonChannel = "app",
    forMinutes: number | null = null,
  ): Promise<MotorCommandResult> {
    if (!(await personMay(this.hub, person, "switch"))) return NOT_ALLOWED;
    const role = person.role === "operator" ? "operator" : "owner";
    // From a phone the log always says who and how ("राम ने SMS से"): nobody saw the tap.
    if (via === "sms" || via === "missedCall" || via === "voiceMenu") {
      const timed = action === "on" && forMinutes !== null ? forMinutes : null;
      return this.rooms.commands.sendSwitch({
        action,
        origin: { by: "phone", via, userId: person.userId, role, label: person.label, forMinutes: timed },
        ...(timed === null ? {} : { timedRun: { offAfterMinutes: timed } }),
      });
    }
    // A key on a call always says whose phone it was.
    if (via === "call") {
      return this.rooms.commands.sendSwitch({
        action,
        origin: { by: "call", userId: person.userId, role, label: person.label },
      });
    }
    // A pump only its owner uses says "from the app" as it always has; once others may use
    // it, every tap names who made it ("by Ram from the app").
    const shared = role !== "owner" || this.hub.state.current.members.length > 0;
    return this.rooms.commands.sendSwitch({
      action,
      origin: shared ? { by: "app", userId: person.userId, role, label: person.label } : { by: "app" },
    });
  }

  /**
   * Who a browser socket's viewer is to the pump now, by the hub's copy (D1 is asked again when
   * the copy does not know them, or predates members' names); null when they are nobody to it.
   * An admin's role comes from the admin session the Worker verified when the socket opened.
   */
  async personOfSocket(viewer: BrowserAttachment): Promise<PumpPerson | null> {
    if (viewer.viewerRole === "admin") return { userId: viewer.viewerId, role: "admin", label: null };
    const { state } = this.hub;
    const named = (role: string | null) => {
      const member = state.current.members.find((entry) => entry.userId === viewer.viewerId);
      return role !== null && (member === undefined || member.label !== undefined);
    };
    const role = await confirmedRoleOf(this.hub, viewer.viewerId, named);
    return role === null ? null : { userId: viewer.viewerId, role, label: labelOf(state.current, viewer.viewerId) };
  }
}
