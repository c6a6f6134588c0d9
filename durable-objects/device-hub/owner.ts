// Whose pump this is, and the settings the box must enforce (the box's own, not its owner's):
// read from D1 (the Worker writes them there) into the hub's state, at each hello and whenever
// ownership may have changed.
import { DEFAULT_MOTOR_CONFIG } from "../../common/constants.ts";
import { getDb } from "../../worker/db/client.ts";
import { findDeviceWithOwner, motorConfigOf } from "../../worker/db/devices.ts";
import type { HubContext } from "./context.ts";

/** Loads owner and settings from D1. False when D1 could not be read (the last known ones stay). */
export async function loadOwnerAndConfig(hub: HubContext): Promise<boolean> {
  const { state } = hub;
  try {
    const found = await findDeviceWithOwner(getDb(hub.env.DB), hub.deviceId);
    const owner = found?.owner ?? null;
    state.save({
      owner: owner ? { userId: owner.id, mobileNo: owner.mobileNo } : null,
      config: {
        ...state.current.config,
        ...(found ? motorConfigOf(found.device) : DEFAULT_MOTOR_CONFIG),
        mobileNo: owner?.mobileNo ?? null,
      },
    });
    return true;
  } catch (error) {
    // Keep the last known owner and settings; the box still gets a consistent welcome.
    hub.logError("could not load owner and config from D1", error);
    return false;
  }
}

/** Whether `userId` owns the pump, asking D1 again before saying no (an admin may have just linked it). */
export async function isOwnedBy(hub: HubContext, userId: number): Promise<boolean> {
  if (hub.state.current.owner?.userId === userId) return true;
  await loadOwnerAndConfig(hub);
  return hub.state.current.owner?.userId === userId;
}
