/**
 * The permission decision table (main/chat/permissions/policy.ts), row by row and exhaustively:
 * every mode × per-tool setting × read-only hint × conversation grant.
 */
import { describe, expect, it } from 'vitest';
import type { PermissionMode, ToolAnnotations } from '../../../../preload/contract/index.js';
import { decide, DEFAULT_PERMISSION_MODE, type PolicyDecision, type ToolPolicySetting } from '../../../../main/chat/permissions/policy.js';

const MODES: PermissionMode[] = ['ask_all', 'ask_unless_read_only', 'never_ask'];
const SETTINGS: Array<ToolPolicySetting | undefined> = [
  undefined,
  {},
  { enabled: true },
  { enabled: false },
  { approval: 'ask' },
  { approval: 'always_allow' },
  { enabled: false, approval: 'always_allow' },
  { enabled: true, approval: 'ask' },
];
const ANNOTATIONS: ToolAnnotations[] = [{}, { readOnlyHint: true }, { readOnlyHint: false, destructiveHint: true }, { readOnlyHint: true, destructiveHint: true }];

/** The table written out independently of the implementation's order of checks. */
function expected(mode: PermissionMode, s: ToolPolicySetting | undefined, a: ToolAnnotations, grant: boolean): PolicyDecision['kind'] {
  if (s?.enabled === false) return 'refuse';
  if (s?.approval === 'always_allow' || grant) return 'allow';
  if (s?.approval === 'ask') return 'ask';
  if (mode === 'never_ask') return 'allow';
  if (mode === 'ask_all') return 'ask';
  return a.readOnlyHint === true ? 'allow' : 'ask';
}

describe('policy table', () => {
  it('the default mode asks unless the tool says it is read-only', () => {
    expect(DEFAULT_PERMISSION_MODE).toBe('ask_unless_read_only');
  });

  it('covers every combination (3 modes × 8 settings × 4 annotation sets × grant)', () => {
    let n = 0;
    for (const mode of MODES)
      for (const setting of SETTINGS)
        for (const annotations of ANNOTATIONS)
          for (const conversationGrant of [false, true]) {
            const d = decide({ mode, setting, annotations, conversationGrant, pin: 'pinned' });
            expect(d.kind, JSON.stringify({ mode, setting, annotations, conversationGrant })).toBe(expected(mode, setting, annotations, conversationGrant));
            n++;
          }
    expect(n).toBe(3 * 8 * 4 * 2);
  });

  it('gives the reason of each row', () => {
    const base = { annotations: {}, conversationGrant: false, pin: 'pinned' as const };
    expect(decide({ ...base, mode: 'never_ask', setting: { enabled: false } })).toEqual({ kind: 'refuse', reason: 'disabled' });
    expect(decide({ ...base, mode: 'ask_all', setting: { approval: 'always_allow' } })).toEqual({ kind: 'allow', why: 'always_allow' });
    expect(decide({ ...base, mode: 'ask_all', setting: undefined, conversationGrant: true })).toEqual({ kind: 'allow', why: 'conversation_grant' });
    expect(decide({ ...base, mode: 'never_ask', setting: { approval: 'ask' } })).toEqual({ kind: 'ask', why: 'tool_setting' });
    expect(decide({ ...base, mode: 'never_ask', setting: undefined })).toEqual({ kind: 'allow', why: 'mode_never_ask' });
    expect(decide({ ...base, mode: 'ask_unless_read_only', setting: undefined, annotations: { readOnlyHint: true } })).toEqual({ kind: 'allow', why: 'read_only_hint' });
    expect(decide({ ...base, mode: 'ask_unless_read_only', setting: undefined })).toEqual({ kind: 'ask', why: 'mode' });
    expect(decide({ ...base, mode: 'ask_all', setting: undefined, annotations: { readOnlyHint: true } })).toEqual({ kind: 'ask', why: 'mode' });
  });

  it('per-tool choices override the mode in both directions', () => {
    expect(decide({ mode: 'never_ask', setting: { approval: 'ask' }, annotations: { readOnlyHint: true }, conversationGrant: false, pin: 'pinned' }).kind).toBe('ask');
    expect(decide({ mode: 'ask_all', setting: { approval: 'always_allow' }, annotations: { destructiveHint: true }, conversationGrant: false, pin: 'pinned' }).kind).toBe('allow');
  });

  it('nothing — not always-allow, not a grant, not never-ask — runs a disabled tool', () => {
    for (const mode of MODES)
      expect(decide({ mode, setting: { enabled: false, approval: 'always_allow' }, annotations: { readOnlyHint: true }, conversationGrant: true, pin: 'pinned' })).toEqual({ kind: 'refuse', reason: 'disabled' });
  });

  it('only readOnlyHint === true counts as read-only (a truthy non-boolean does not)', () => {
    const a = { readOnlyHint: 'yes' } as unknown as ToolAnnotations;
    expect(decide({ mode: 'ask_unless_read_only', setting: undefined, annotations: a, conversationGrant: false, pin: 'pinned' }).kind).toBe('ask');
  });

  it('a changed tool always asks and a new one is never allowed by an earlier allow (docs/ARCHITECTURE.md "Pinned tool definitions")', () => {
    for (const mode of MODES)
      for (const conversationGrant of [false, true]) {
        expect(decide({ mode, setting: { approval: 'always_allow' }, annotations: { readOnlyHint: true }, conversationGrant, pin: 'changed' })).toEqual({ kind: 'ask', why: 'definition_changed' });
        expect(decide({ mode, setting: { enabled: false }, annotations: {}, conversationGrant, pin: 'changed' })).toEqual({ kind: 'refuse', reason: 'disabled' });
      }
    expect(decide({ mode: 'ask_all', setting: { approval: 'always_allow' }, annotations: {}, conversationGrant: true, pin: 'new' })).toEqual({ kind: 'ask', why: 'mode' });
    expect(decide({ mode: 'ask_unless_read_only', setting: { approval: 'always_allow' }, annotations: {}, conversationGrant: true, pin: 'new' })).toEqual({ kind: 'ask', why: 'mode' });
    // A new tool otherwise follows the mode, like any tool without a per-tool choice.
    expect(decide({ mode: 'never_ask', setting: undefined, annotations: {}, conversationGrant: false, pin: 'new' })).toEqual({ kind: 'allow', why: 'mode_never_ask' });
  });
});
