/**
 * Which pending request an oversized stdout line answers (main/mcp/stdio-overflow.ts): the id at
 * a response's start or end counts only when it is a request this client still waits for.
 */
import { describe, expect, it } from 'vitest';
import { oversizedReplyError, oversizedReplyId } from '../../../main/mcp/stdio-overflow.js';

const b = (s: string): Buffer => Buffer.from(s);

describe('oversizedReplyId', () => {
  it('finds the id written first or last', () => {
    expect(oversizedReplyId(b('{"jsonrpc":"2.0","id":7,"result":{"content":[{"text":"xxx'), b('xxx"}]}}'), new Set([7]))).toBe(7);
    expect(oversizedReplyId(b('{"result":{"content":[{"text":"xxx'), b('xxx"}]},"jsonrpc":"2.0","id":"r-9"}'), new Set(['r-9']))).toBe('r-9');
    expect(oversizedReplyId(b('{"id": 3 , "result":'), b('}'), new Set([3]))).toBe(3);
  });

  it('ignores ids nobody waits for and ids nested in the result', () => {
    expect(oversizedReplyId(b('{"jsonrpc":"2.0","id":7,"result":'), b('}}'), new Set([8]))).toBeNull();
    // A nested "id" at the start of the result's text, and one at the end of a nested object.
    expect(oversizedReplyId(b('{"result":{"id":5,"x":"'), b('","item":{"id":5}}}'), new Set([5]))).toBeNull();
    expect(oversizedReplyId(b('{"jsonrpc":"2.0","method":"notifications/message","params":{"id":1'), b('"}}'), new Set([1]))).toBeNull();
    expect(oversizedReplyId(b('garbage'), b('garbage'), new Set([1]))).toBeNull();
  });

  it('makes a JSON-RPC error with the sizes', () => {
    expect(oversizedReplyError(4, 5 * 1024 * 1024, 1024 * 1024)).toMatchObject({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32603, data: { reason: 'message_too_large', bytes: 5 * 1024 * 1024, limit: 1024 * 1024 } },
    });
  });
});
