/**
 * A refusal of a channel's input schema (`IpcError.issue`, preload/contract `ValidationIssue`) in
 * the UI's language: a sentence chosen by the issue's code — and for `custom` its rule, for
 * `invalid_format` its format — naming the field by its path. Never by zod's message text (that
 * stays main's English detail). See docs/ARCHITECTURE.md "Languages".
 */
import type { ValidationIssue } from '../../../preload/contract/index.js';
import { t } from './index.js';

type Tr = (key: string, o?: Record<string, unknown>) => string;

/** Fields the window names; any other path reads as "This value". */
const FIELD_KEYS: ReadonlySet<string> = new Set(['text', 'name', 'model', 'base_url', 'provider', 'registry_url', 'url', 'command', 'token', 'api_key', 'system_prompt', 'context_window', 'env', 'headers', 'server_name', 'title', 'query', 'json', 'client_id', 'entry', 'type', 'args', 'auth', 'timeout_seconds', 'secret_args', 'url_secrets', 'sandbox', 'roots', 'tools']);

/** Fields made of entries (`env.MY_VAR`, `sandbox.read.0`): a problem inside one is named by the field. */
const CONTAINERS: ReadonlySet<string> = new Set(['env', 'headers', 'url_secrets', 'sandbox', 'roots', 'tools']);

/** The field's name for a sentence (`validation.field.<name>`), from the last named part of the path. */
function fieldName(path: string[]): string {
  const tt = t as unknown as Tr;
  const named = [...path].reverse().find((p) => !/^\d+$/.test(p));
  const mapAt = path.findIndex((p) => CONTAINERS.has(p));
  const key = mapAt >= 0 ? path[mapAt]! : named;
  return tt(`validation.field.${key && FIELD_KEYS.has(key) ? key : 'default'}`);
}

/** The `validation.*` key of an issue. */
function sentenceKey(i: ValidationIssue): string {
  switch (i.code) {
    case 'too_big':
      return i.origin === 'string' ? 'tooLong' : i.origin === 'array' || i.origin === 'set' || i.origin === 'object' ? 'tooMany' : 'tooLarge';
    case 'too_small':
      if (i.origin === 'string' || i.origin === 'array') return i.minimum === undefined || i.minimum <= 1 ? 'required' : i.origin === 'string' ? 'tooShort' : 'tooFew';
      return 'tooSmall';
    case 'invalid_format':
      if (i.format === 'url') return 'url';
      if (i.format === 'regex' && i.path[i.path.length - 1] === 'name' && i.path.length === 1) return 'serverName';
      return 'format';
    case 'invalid_type':
      return 'type';
    case 'invalid_value':
      return 'choice';
    case 'unrecognized_keys':
      return 'unknownKeys';
    case 'custom':
      return i.rule ? `rule_${i.rule}` : 'invalid';
    default:
      return 'invalid';
  }
}

/**
 * The sentence for one schema refusal, e.g. `too_big` of the `text` string with `maximum` 200000
 * → "The message is too long: at most 200,000 characters." Numbers are grouped for the current
 * language (the window's one formatter, ./format.ts).
 */
export function describeIssue(i: ValidationIssue): string {
  const tt = t as unknown as Tr;
  // The bounds are numbers: the sentence's `{{max, number}}` groups them (./format.ts).
  return tt(`validation.${sentenceKey(i)}`, { field: fieldName(i.path), max: i.maximum ?? '', min: i.minimum ?? '', interpolation: { escapeValue: false } });
}
