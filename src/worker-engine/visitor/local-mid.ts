/**
 * The MID the library makes up itself when the ID service cannot be reached (VisitorAPI.js 5.5.0: response fields):
 * 38 digits, the first 6 being the last 6 digits of the clock, reversed.
 */
export const LOCAL_MID_LENGTH = 38;

export function localMid(nowMs: number, random: () => number): string {
  const clock = String(Math.floor(nowMs)).slice(-6).split('').reverse().join('');
  let mid = clock;
  while (mid.length < LOCAL_MID_LENGTH) mid += String(Math.floor(random() * 10));
  return mid;
}
