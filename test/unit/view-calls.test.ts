/**
 * mcp/apps/view-calls: a view's requests live no longer than the view instance that asked, nor
 * than the page that holds it (docs/ARCHITECTURE.md "MCP Apps").
 */
import { describe, expect, it } from 'vitest';
import { ViewCalls } from '../../main/mcp/apps/view-calls.js';

describe('ViewCalls', () => {
  it("release aborts every request of that instance only, and refuses the instance's later requests", () => {
    const calls = new ViewCalls();
    const a1 = calls.begin('view-a')!;
    const a2 = calls.begin('view-a')!;
    const b = calls.begin('view-b')!;
    expect(calls.size).toBe(3);
    expect(calls.release('view-a')).toBe(2);
    expect(a1.signal.aborted).toBe(true);
    expect(a2.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
    expect(calls.size).toBe(1);
    expect(calls.begin('view-a')).toBeNull();
    // Releasing twice, or an instance that never asked, is harmless.
    expect(calls.release('view-a')).toBe(0);
    expect(calls.release('never-asked')).toBe(0);
    expect(calls.begin('never-asked')).toBeNull();
  });

  it('a finished request is forgotten (release then aborts nothing); done is idempotent', () => {
    const calls = new ViewCalls();
    const r = calls.begin('view-a')!;
    r.done();
    r.done();
    expect(calls.size).toBe(0);
    expect(calls.release('view-a')).toBe(0);
    expect(r.signal.aborted).toBe(false);
  });

  it("the page's signal aborting (a reload) aborts the request; an already aborted page starts none alive", () => {
    const calls = new ViewCalls();
    const page = new AbortController();
    const r = calls.begin('view-a', page.signal)!;
    const other = calls.begin('view-b')!;
    page.abort();
    expect(r.signal.aborted).toBe(true);
    expect(other.signal.aborted).toBe(false);
    const late = calls.begin('view-c', page.signal)!;
    expect(late.signal.aborted).toBe(true);
    late.done();
    r.done();
    other.done();
    expect(calls.size).toBe(0);
  });

  it('remembers a bounded number of released instances (the oldest are forgotten)', () => {
    const calls = new ViewCalls();
    for (let i = 0; i < 1100; i++) calls.release(`view-${i}`);
    expect(calls.begin('view-1099')).toBeNull();
    expect(calls.begin('view-0')).not.toBeNull();
  });
});
