/**
 * The server catalog's one job here: the `${…}` placeholders of a bundle's `server.mcp_config`
 * (docs/ARCHITECTURE.md "Server catalog", bundles) — found with one exact parser, and filled with
 * it. Pure, no I/O.
 *
 * A placeholder is `${` + a name + `}`, the name running to the first `}`. Known names are
 * `__dirname`, `pathSeparator`, `/`, `HOME`, `DESKTOP`, `DOCUMENTS`, `DOWNLOADS` and
 * `user_config.<key>`. Filling is one pass: text put in (an answer, a default) is never read again
 * for placeholders, so a default of `${user_config.api_key}` stays that text.
 *
 * Why not @anthropic-ai/mcpb's getMcpConfigForManifest: it builds a RegExp from each key
 * (`\$\{user_config.KEY\}`, unescaped), so `${user_configXapi_key}` — or any name a key with regex
 * characters matches — gets the value, and it fills the text it put in again. The check below
 * refuses every spelling that function would fill with a sensitive value, so a bundle written
 * for it cannot move a secret onto the command line in any host.
 */

/** The variables to fill: by placeholder name, a string or (for a `multiple` user_config value) a list. */
export type BundleVariables = Map<string, string | string[]>;

/** User-config keys: plain names, so that the bundle library's RegExp of a key reads it as written, `.` aside. */
export const USER_CONFIG_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** Every placeholder name in `s`, in order (`${a}x${b}` → `a`, `b`). */
export function placeholderNames(s: string): string[] {
  const out: string[] = [];
  for (let i = s.indexOf('${'); i >= 0; i = s.indexOf('${', i + 2)) {
    const end = s.indexOf('}', i + 2);
    if (end < 0) break;
    out.push(s.slice(i + 2, end));
  }
  return out;
}

/** A string with its placeholders filled; `unfilled` when one had no (string) value. */
export function fillString(s: string, vars: BundleVariables): { text: string; unfilled: boolean } {
  let unfilled = false;
  let text = '';
  let at = 0;
  for (let i = s.indexOf('${'); i >= 0; i = s.indexOf('${', at)) {
    const end = s.indexOf('}', i + 2);
    if (end < 0) break;
    const v = vars.get(s.slice(i + 2, end));
    text += s.slice(at, i);
    if (typeof v === 'string') text += v;
    else {
      text += s.slice(i, end + 1);
      unfilled = true;
    }
    at = end + 1;
  }
  return { text: text + s.slice(at), unfilled };
}

/**
 * The arguments with their placeholders filled: an argument that is exactly `${user_config.k}`
 * with a list value becomes one argument per item; an argument left with an unfilled placeholder
 * (an optional answer not given) is left out.
 */
export function fillArgs(args: string[], vars: BundleVariables): string[] {
  const out: string[] = [];
  for (const a of args) {
    const whole = /^\$\{([^}]+)\}$/.exec(a)?.[1];
    const v = whole?.startsWith('user_config.') ? vars.get(whole) : undefined;
    if (Array.isArray(v)) {
      out.push(...v);
      continue;
    }
    const r = fillString(a, vars);
    if (!r.unfilled) out.push(r.text);
  }
  return out;
}

/**
 * Whether `s` refers to user-config key `key` — exactly (`${user_config.key}`), or in any spelling
 * @anthropic-ai/mcpb's getMcpConfigForManifest would fill with its value: its RegExp
 * `\$\{user_config.KEY\}` reads each `.` as any character but a line break, so
 * `${user_configXkey}` is filled too. Compared character by character (no RegExp is built from
 * the key); `key` must match {@link USER_CONFIG_KEY}, so `.` is its only character with a special
 * meaning there.
 */
export function refersTo(s: string, key: string): boolean {
  const pattern = `user_config.${key}`;
  const lineBreak = /[\n\r\u2028\u2029]/;
  const fills = (name: string): boolean => name.length === pattern.length && [...pattern].every((c, i) => (c === '.' ? !lineBreak.test(name[i]!) : name[i] === c));
  return placeholderNames(s).some((name) => name === pattern || fills(name));
}
