/**
 * SEP-2243 (MCP 2026-07-28, "Custom headers from tool parameters"): a tool's input schema may
 * mark primitive parameters with `x-mcp-header: <Name>`, which a Streamable HTTP client mirrors
 * into an `Mcp-Param-<Name>` request header. A client MUST exclude a tool whose declarations break
 * the rules, so it is never offered or called. This file's one job: check those declarations.
 */

/** RFC 9110 §5.6.2 `token`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** JSON Schema types a mirrored parameter may have. */
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords under which a declaration is not statically reachable through `properties`. */
const NESTED = ['items', 'prefixItems', 'additionalProperties', 'patternProperties', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', '$defs', 'definitions', 'dependentSchemas', 'contains'];

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Why the `x-mcp-header` declarations of `inputSchema` are invalid, or null when they are valid
 * (or there are none): each must be a non-empty RFC 9110 token, unique case-insensitively, on a
 * property of type string, integer or boolean reached from the root only through `properties`.
 */
export function invalidHeaderDeclaration(inputSchema: unknown): string | null {
  const seen = new Map<string, string>();
  const walk = (node: unknown, path: string[], reachable: boolean): string | null => {
    if (Array.isArray(node)) {
      for (const item of node) {
        const r = walk(item, path, false);
        if (r) return r;
      }
      return null;
    }
    if (!isObject(node)) return null;
    if ('x-mcp-header' in node) {
      const where = path.length ? path.join('.') : '(root)';
      if (!reachable || path.length === 0) return `${where}: x-mcp-header is allowed only on a property reached through "properties"`;
      const name = node['x-mcp-header'];
      if (typeof name !== 'string' || name.length === 0) return `${where}: x-mcp-header must be a non-empty string`;
      if (!TOKEN.test(name)) return `${where}: x-mcp-header "${name}" is not an HTTP token`;
      if (typeof node.type !== 'string' || !PRIMITIVE.has(node.type)) return `${where}: x-mcp-header needs a string, integer or boolean property`;
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined) return `x-mcp-header "${name}" is declared twice (also "${prior}")`;
      seen.set(name.toLowerCase(), name);
    }
    if (isObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const r = walk(child, [...path, key], reachable);
        if (r) return r;
      }
    }
    for (const k of NESTED) {
      if (k in node) {
        const r = walk(node[k], [...path, k], false);
        if (r) return r;
      }
    }
    return null;
  };
  return walk(inputSchema, [], true);
}
