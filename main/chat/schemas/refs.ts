/**
 * Local references of a JSON Schema (`$ref: "#/…"`, JSON Pointer, RFC 6901) resolved against the
 * schema's own root, and the names under which a recursive target is kept in `$defs`. Pure.
 * docs/ARCHITECTURE.md "Schemas every provider accepts".
 */

/** Whether `v` is a JSON object (not an array, not null). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `ref` points into the same document (`#` or `#/…`). */
export function isLocalRef(ref: unknown): ref is string {
  return typeof ref === 'string' && (ref === '#' || ref.startsWith('#/'));
}

/**
 * The value at local pointer `ref` (`#/$defs/Node`, `#/properties/a/items`) inside `root`, or
 * undefined when nothing is there. `~1` and `~0` are unescaped, `%xx` decoded.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (isPlainObject(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

/**
 * A `$defs` name for pointer `ref`, unique among `taken` (pointer → name): the last segment of
 * `#/$defs/X` or `#/definitions/X`, else the pointer's characters outside `[A-Za-z0-9_]` as `_`.
 */
export function defName(ref: string, taken: ReadonlyMap<string, string>): string {
  const m = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
  const base = (m ? m[1]! : ref.slice(2)).replace(/[^A-Za-z0-9_]/g, '_') || 'def';
  const used = new Set(taken.values());
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  return name;
}
