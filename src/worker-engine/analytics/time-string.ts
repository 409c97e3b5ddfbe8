/**
 * The `t` parameter (AppMeasurement 2.27.0: beacon URL and parameters): `D/M/YYYY H:m:s W O`, month 0-based, nothing padded,
 * W the weekday (0 = Sunday), O `getTimezoneOffset()`. It is the page's local time, so it is
 * computed from the snapshot's clock and zone, never from the worker's zone.
 */
export function timeString(epochMs: number, tzOffsetMinutes: number): string {
  // Shift to the page's wall clock and read it with the UTC getters, which ignore the worker's zone.
  const local = new Date(epochMs - tzOffsetMinutes * 60_000);
  return [
    `${local.getUTCDate()}/${local.getUTCMonth()}/${local.getUTCFullYear()}`,
    `${local.getUTCHours()}:${local.getUTCMinutes()}:${local.getUTCSeconds()}`,
    String(local.getUTCDay()),
    String(tzOffsetMinutes),
  ].join(' ');
}
