/**
 * mcp/apps/view-instances: every shown view is an instance main issued, bound to one call and one
 * server, with an origin label no other call's view shares; its requests live no longer than the
 * instance, nor than the page that asked for it (docs/ARCHITECTURE.md "MCP Apps: isolation").
 */
import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_VIEWS, VIEW_LABEL, ViewInstances } from '../../../../main/mcp/apps/view-instances.js';

const call = (call_id: string, over: Partial<{ conversation_id: string; run_id: string; server: string }> = {}) => ({
  conversation_id: 'c1',
  run_id: 'r1',
  call_id,
  server: 'maps',
  tool: 'show',
  csp: {},
  ...over,
});

describe('ViewInstances', () => {
  it('issues random instance ids bound to their call and server; labels are per call, distinct for other calls, stable for the same call', () => {
    const views = new ViewInstances();
    const a = views.open(call('call-a'));
    const a2 = views.open(call('call-a'));
    const b = views.open(call('call-b', { server: 'charts' }));
    const sameIdOtherRun = views.open(call('call-a', { run_id: 'r2' }));
    const sameIdOtherConversation = views.open(call('call-a', { conversation_id: 'c2' }));
    expect(new Set([a.id, a2.id, b.id]).size).toBe(3);
    expect(a.id).toMatch(/^[0-9a-f]{32}$/);
    for (const v of [a, b, sameIdOtherRun]) expect(v.label).toMatch(VIEW_LABEL);
    // The same call's view keeps its origin (its storage survives a reload); no other view shares it.
    expect(a2.label).toBe(a.label);
    expect(new Set([a.label, b.label, sameIdOtherRun.label, sameIdOtherConversation.label]).size).toBe(4);
    expect(views.get(b.id)).toMatchObject({ server: 'charts', call_id: 'call-b', conversation_id: 'c1' });
    // Another core (an app restart) gives the same call another label.
    expect(new ViewInstances().labelFor(a)).not.toBe(a.label);
  });

  it('answers a label with its view’s policy only while a view with that label is shown', () => {
    const views = new ViewInstances();
    const a = views.open({ ...call('call-a'), csp: { connectDomains: ['https://a.example.com'] } });
    expect(views.cspForLabel(a.label)).toEqual({ connectDomains: ['https://a.example.com'] });
    expect(views.cspForLabel(`v${'0'.repeat(32)}`)).toBeNull();
    expect(views.cspForLabel('not-a-label')).toBeNull();
    views.release(a.id);
    expect(views.cspForLabel(a.label)).toBeNull();
  });

  it('a request of an instance never issued is refused; release aborts that instance’s requests only and refuses its later ones', () => {
    const views = new ViewInstances();
    expect(views.begin('made-up-instance')).toBeNull();
    const a = views.open(call('a'));
    const b = views.open(call('b'));
    const a1 = views.begin(a.id)!;
    const a2 = views.begin(a.id)!;
    const b1 = views.begin(b.id)!;
    expect(a1.view).toBe(views.get(a.id));
    expect(views.inFlight).toBe(3);
    expect(views.release(a.id)).toBe(2);
    expect(a1.signal.aborted).toBe(true);
    expect(a2.signal.aborted).toBe(true);
    expect(b1.signal.aborted).toBe(false);
    expect(views.inFlight).toBe(1);
    expect(views.begin(a.id)).toBeNull();
    expect(views.get(a.id)).toBeNull();
    // Releasing twice, or an id never issued, is harmless.
    expect(views.release(a.id)).toBe(0);
    expect(views.release('never-issued')).toBe(0);
  });

  it('a finished request is forgotten (release then aborts nothing); done is idempotent', () => {
    const views = new ViewInstances();
    const a = views.open(call('a'));
    const r = views.begin(a.id)!;
    r.done();
    r.done();
    expect(views.inFlight).toBe(0);
    expect(views.release(a.id)).toBe(0);
    expect(r.signal.aborted).toBe(false);
  });

  it("the page that asked for a view going away releases it; a request's own signal aborts only that request", () => {
    const views = new ViewInstances();
    const page = new AbortController();
    const a = views.open(call('a'), page.signal);
    const other = views.open(call('b'));
    const request = new AbortController();
    const r = views.begin(a.id, request.signal)!;
    const r2 = views.begin(a.id)!;
    request.abort();
    expect(r.signal.aborted).toBe(true);
    expect(r2.signal.aborted).toBe(false);
    page.abort();
    expect(r2.signal.aborted).toBe(true);
    expect(views.get(a.id)).toBeNull();
    expect(views.get(other.id)).not.toBeNull();
    // A page already gone gets an instance that is released at once.
    expect(views.get(views.open(call('c'), page.signal).id)).toBeNull();
  });

  it(`keeps at most ${MAX_SHOWN_VIEWS} views shown: the oldest is released`, () => {
    const views = new ViewInstances();
    const first = views.open(call('first'));
    const pending = views.begin(first.id)!;
    for (let i = 0; i < MAX_SHOWN_VIEWS; i++) views.open(call(`v${i}`));
    expect(views.shown).toBe(MAX_SHOWN_VIEWS);
    expect(views.get(first.id)).toBeNull();
    expect(pending.signal.aborted).toBe(true);
  });
});
