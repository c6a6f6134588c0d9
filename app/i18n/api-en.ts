// Texts only the API words (its `message`), kept apart so pages never download them. The
// refusals a page words itself (and motor logs) are in ./en.ts. Hindi in ./api-hi.ts.
export const apiEn = {
  "failure.otaBusy": "A firmware update to {version} is already in progress.",
  "failure.otaRejected": "The device refused the update: {hasError, select, yes {{error}} other {the box refused it}}.",
  "failure.noDevice": "No device is linked to this account yet.",
  "failure.scheduleConflict": "Another schedule is already set for {time}.",
  "failure.scheduleLimit": "A device can have at most {max} schedules.",
  "failure.scheduleNotFound": "Schedule not found.",
  "api.motorSwitched": "Motor turned {relay, select, on {ON} other {OFF}}.",
  "api.scheduleSaved": "Schedule saved.",
  "api.scheduleUpdated": "Schedule updated.",
  "api.scheduleDeleted": "Schedule deleted.",
} as const;

export type ApiMessageKey = keyof typeof apiEn;
