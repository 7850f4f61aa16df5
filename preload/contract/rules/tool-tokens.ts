/**
 * What one tool definition costs in a model request, in estimated tokens (docs/ARCHITECTURE.md
 * "Context budget"): the UTF-8 bytes of its JSON function definition (name, description, input
 * schema) divided by four, rounded up. No tokenizer library is installed, so this is the same
 * ~4-bytes-per-token estimate main uses for messages; main's budget and the tool picker's cost
 * both use this one function.
 */

/** The fields of a tool that go to the model with every request. */
export interface ToolDefinitionLike {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a tool's function definition as sent (`{name, description, parameters}`). */
export function toolDefinitionBytes(t: ToolDefinitionLike): number {
  return encoder.encode(JSON.stringify({ name: t.name, description: t.description, parameters: t.input_schema })).length;
}

/** Estimated tokens of a tool definition: `ceil(bytes / 4)`. */
export function toolDefinitionTokens(t: ToolDefinitionLike): number {
  return Math.ceil(toolDefinitionBytes(t) / 4);
}
