// A time of day as ClockSelects posts it: pure, so the form mappers read it without React.

export type ClockValue = { hour: string; minute: string };

/** The form field of a part: "hour", or "fromHour" with a prefix. */
export function clockField(name: string, part: keyof ClockValue): string {
  return name === "" ? part : `${name}${part[0]!.toUpperCase()}${part.slice(1)}`;
}
