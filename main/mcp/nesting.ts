/**
 * The nesting bound of JSON values that come from outside (README, "Security"; docs/ARCHITECTURE.md
 * "Conversations"): tool arguments the model writes and tool results a server returns. Parsing
 * any depth is safe (JSON.parse does not recurse), but almost everything after it does —
 * `JSON.stringify` overflows the stack a few thousand levels down — so where such a value enters
 * main, the parts deeper than {@link MAX_NESTING} levels are replaced by {@link NESTED_TOO_DEEP}.
 * Pure functions, iterative (no recursion that a deep value could overflow).
 */
import { exceedsDepth } from './adapter.js';

/** Deepest nesting of arrays/objects kept in a tool's arguments or result (the value itself is level 0). */
export const MAX_NESTING = 64;

/** What stands in place of an array or object nested deeper than {@link MAX_NESTING} levels. */
export const NESTED_TOO_DEEP = `[nested deeper than ${MAX_NESTING} levels: not kept]`;

/**
 * `value` with every array or object at depth {@link MAX_NESTING} or more (the value itself is depth 0)
 * replaced by {@link NESTED_TOO_DEEP}. Returns `value` itself when nothing is that deep;
 * otherwise a copy (arrays stay arrays, object keys keep their order — a `__proto__` key stays
 * an own entry, never a prototype). Meant for JSON-shaped values (trees: a shared object is
 * copied once per place it appears). Never throws.
 */
export function boundDepth<T>(value: T): T {
  const max = MAX_NESTING;
  if (!exceedsDepth(value, max)) return value;
  const root: Record<string, unknown> = { v: undefined };
  // Each step copies one value into `into[key]`; containers push their members as further steps.
  const stack: Array<{ from: unknown; into: Record<string | number, unknown>; key: string | number; depth: number }> = [{ from: value, into: root, key: 'v', depth: 0 }];
  while (stack.length) {
    const { from, into, key, depth } = stack.pop()!;
    if (typeof from !== 'object' || from === null) {
      into[key] = from;
      continue;
    }
    if (depth >= max) {
      into[key] = NESTED_TOO_DEEP;
      continue;
    }
    if (Array.isArray(from)) {
      const out: unknown[] = new Array<unknown>(from.length);
      into[key] = out;
      for (let i = 0; i < from.length; i++) stack.push({ from: from[i], into: out as unknown as Record<number, unknown>, key: i, depth: depth + 1 });
      continue;
    }
    const out: Record<string, unknown> = {};
    into[key] = out;
    for (const [k, x] of Object.entries(from)) {
      // Defined now, in order (filled when its step runs); defineProperty keeps `__proto__` an own key.
      Object.defineProperty(out, k, { value: undefined, enumerable: true, writable: true, configurable: true });
      stack.push({ from: x, into: out, key: k, depth: depth + 1 });
    }
  }
  return root.v as T;
}
