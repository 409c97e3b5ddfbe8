/**
 * JSON for values that came from the page: never throws. A BigInt becomes its decimal string, a
 * reference back to an enclosing object is cut (left out), and a value that still cannot be
 * written (a throwing getter or `toJSON`) becomes `"[unserializable]"`.
 */
export function safeJson(value: unknown): string {
  const open: unknown[] = [];
  try {
    return (
      JSON.stringify(value, function (this: unknown, _key, v: unknown) {
        if (typeof v === 'bigint') return v.toString();
        if (typeof v === 'object' && v !== null) {
          // `this` is the object holding `v`: what lies above it in `open` is closed already.
          while (open.length && open[open.length - 1] !== this) open.pop();
          if (open.includes(v)) return undefined;
          open.push(v);
        }
        return v;
      }) ?? 'undefined'
    );
  } catch {
    return '"[unserializable]"';
  }
}
