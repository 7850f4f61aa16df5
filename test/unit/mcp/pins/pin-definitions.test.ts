/**
 * Pinned tool definitions (main/mcp/pins/, docs/ARCHITECTURE.md "Pinned tool definitions"): the
 * stable hash, the readable diff, and the store and the check over real files in a temp state folder.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { definitionHash, definitionOf, diffDefinitions, PinStore, ToolPins } from '../../../../main/mcp/pins/index.js';
import { canonicalJson } from '../../../../main/chat/permissions/args-hash.js';
import { sameJson } from '../../../../main/mcp/pins/definition.js';
import { makeTempDir, removeDir } from '../../helpers.js';

const dirs: string[] = [];
const stores: PinStore[] = [];
afterEach(async () => {
  // Writes still under way would race the folder's removal.
  for (const s of stores.splice(0)) await s.flush();
  for (const d of dirs.splice(0)) await removeDir(d);
});
/** A store on `dir` whose writes are awaited before the folder is removed. */
function storeIn(dir: string): PinStore {
  const s = new PinStore(dir);
  stores.push(s);
  return s;
}
function stateDir(): string {
  const d = makeTempDir('op-pins-');
  dirs.push(d);
  return d;
}

const write: Tool = {
  name: 'write_note',
  title: 'Write a note',
  description: 'Append a note to the notebook.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'The note' }, options: { type: 'object', properties: { mode: { type: 'string', enum: ['append'] } } } }, required: ['text'] },
  annotations: { readOnlyHint: true, destructiveHint: false },
};

describe('definition hash', () => {
  it('is the same whatever the key order, and only the pinned fields count', () => {
    const reordered = JSON.parse(JSON.stringify({ annotations: { destructiveHint: false, readOnlyHint: true }, inputSchema: { required: ['text'], properties: { options: write.inputSchema.properties!.options, text: { description: 'The note', type: 'string' } }, type: 'object' }, description: write.description, title: write.title, name: write.name })) as Tool;
    expect(definitionHash(definitionOf(reordered))).toBe(definitionHash(definitionOf(write)));
    expect(definitionHash(definitionOf({ ...write, _meta: { anything: 1 }, icons: [{ src: 'https://x/i.png' }] } as Tool))).toBe(definitionHash(definitionOf(write)));
    expect(definitionHash(definitionOf({ ...write, description: 'Append a note.' }))).not.toBe(definitionHash(definitionOf(write)));
    expect(definitionHash(definitionOf({ ...write, outputSchema: { type: 'object' } }))).not.toBe(definitionHash(definitionOf(write)));
    expect(definitionHash(definitionOf(write))).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('sameJson (the re-list shortcut)', () => {
  it('is true only for values with equal canonical JSON, whatever the key order', () => {
    const a = { type: 'object', properties: { x: { type: 'string', enum: ['a', 'b'] } }, required: ['x'] };
    const b = JSON.parse('{"required":["x"],"properties":{"x":{"enum":["a","b"],"type":"string"}},"type":"object"}') as unknown;
    expect(sameJson(a, b)).toBe(true);
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    const unequal: [unknown, unknown][] = [
      [{ x: ['a', 'b'] }, { x: ['b', 'a'] }], // array order counts
      [{ x: 1 }, { x: '1' }],
      [{ x: 1 }, { x: 1, y: null }],
      [{ x: {} }, { x: [] }],
      [{ x: null }, { x: {} }],
      [[1, 2], [1, 2, 3]],
      [{ a: { b: { c: 1 } } }, { a: { b: { c: 2 } } }],
      [{ y: 1 }, { x: 1 }],
    ];
    for (const [x, y] of unequal) {
      expect(sameJson(x, y)).toBe(false);
      expect(sameJson(y, x)).toBe(false);
      expect(canonicalJson(x)).not.toBe(canonicalJson(y));
    }
  });

  it('says "hash again" (false) for what JSON would blur: undefined members, NaN, non-plain objects', () => {
    expect(sameJson({ x: undefined }, { y: undefined })).toBe(false);
    expect(sameJson({ x: Number.NaN }, { x: Number.NaN })).toBe(false);
    expect(sameJson({ d: new Date(0) }, { d: new Date(0) })).toBe(false);
    expect(sameJson([undefined], [undefined])).toBe(false);
  });
});

describe('definition diff', () => {
  it('names description, properties (nested by path), required and annotation changes', () => {
    const after: Tool = {
      ...write,
      description: 'Append a note, or wipe the notebook.',
      inputSchema: { type: 'object', properties: { text: { type: 'number' }, wipe: { type: 'boolean' }, options: { type: 'object', properties: { mode: { type: 'string', enum: ['append', 'replace'] } } } }, required: ['text', 'wipe'] },
      annotations: { readOnlyHint: false, destructiveHint: true },
    };
    expect(diffDefinitions(definitionOf(write), definitionOf(after))).toEqual([
      { kind: 'description', before: 'Append a note to the notebook.', after: 'Append a note, or wipe the notebook.' },
      { kind: 'property_changed', schema: 'input', path: 'options.mode', before: '{"enum":["append"],"type":"string"}', after: '{"enum":["append","replace"],"type":"string"}' },
      { kind: 'property_changed', schema: 'input', path: 'text', before: '{"description":"The note","type":"string"}', after: '{"type":"number"}' },
      { kind: 'property_added', schema: 'input', path: 'wipe', after: '{"type":"boolean"}' },
      { kind: 'required', schema: 'input', path: '', added: ['wipe'], removed: [] },
      { kind: 'annotation', hint: 'readOnlyHint', before: true, after: false },
      { kind: 'annotation', hint: 'destructiveHint', before: false, after: true },
    ]);
  });

  it('reports removed properties, title, the output schema appearing, and nothing for equal definitions', () => {
    const after: Tool = { ...write, title: undefined, inputSchema: { type: 'object', properties: { text: write.inputSchema.properties!.text }, required: ['text'] }, outputSchema: { type: 'object' } } as Tool;
    const d = diffDefinitions(definitionOf(write), definitionOf(after));
    expect(d).toContainEqual({ kind: 'title', before: 'Write a note', after: null });
    expect(d).toContainEqual({ kind: 'property_removed', schema: 'input', path: 'options', before: expect.stringContaining('"mode"') as string });
    expect(d).toContainEqual({ kind: 'schema', schema: 'output', before: null, after: '{"type":"object"}' });
    expect(diffDefinitions(definitionOf(write), definitionOf(structuredClone(write)))).toEqual([]);
  });

  it('cuts long schema text and bounds the number of entries', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(1000) }]));
    const d = diffDefinitions(definitionOf(write), definitionOf({ ...write, inputSchema: { type: 'object', properties: many } }));
    expect(d).toHaveLength(50);
    for (const e of d) if (e.kind === 'property_added') expect(e.after.length).toBeLessThanOrEqual(300);
  });
});

describe('pin store and check', () => {
  const ID_A = 'a'.repeat(64);
  const ID_B = 'b'.repeat(64);

  it("accepts a server's first listing, marks later tools new and changed ones with the diff, and keeps it all on disk", async () => {
    const dir = stateDir();
    const store = storeIn(dir);
    const pins = new ToolPins(store, () => 1000);
    const first = pins.check('notes', ID_A, [write]);
    expect(first.get('write_note')!.status).toEqual({ kind: 'pinned' });
    await store.flush();
    const file = store.fileOf('notes');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { server: string; tools: Record<string, { accepted: boolean; identity: string; hash: string }> };
    expect(doc.server).toBe('notes');
    expect(doc.tools.write_note).toMatchObject({ accepted: true, identity: ID_A, hash: definitionHash(definitionOf(write)) });

    const changed = { ...write, annotations: { readOnlyHint: false, destructiveHint: true } };
    const extra: Tool = { name: 'wipe', inputSchema: { type: 'object' } };
    const second = pins.check('notes', ID_A, [changed, extra]);
    expect(second.get('write_note')!.status).toEqual({
      kind: 'changed',
      program_changed: false,
      pinned_at: 1000,
      diff: [
        { kind: 'annotation', hint: 'readOnlyHint', before: true, after: false },
        { kind: 'annotation', hint: 'destructiveHint', before: false, after: true },
      ],
    });
    expect(second.get('wipe')!.status).toEqual({ kind: 'new' });

    // A fresh core on the same folder reads the same pins (the new tool stays new until accepted).
    await store.flush();
    const again = new ToolPins(storeIn(dir));
    const listing = [changed, extra];
    const third = again.check('notes', ID_A, listing);
    expect(third.get('write_note')!.status.kind).toBe('changed');
    expect(third.get('wipe')!.status).toEqual({ kind: 'new' });
    expect(again.check('notes', ID_A, listing)).toBe(third); // remembered while the listing is the same array

    // Accepting pins what is listed now; another restart keeps it.
    expect(await again.accept('notes', ID_A, ['write_note'], 'not-the-hash')).toEqual([]);
    expect(await again.accept('notes', ID_A)).toEqual(['write_note', 'wipe']);
    expect(again.check('notes', ID_A, listing).get('write_note')!.status).toEqual({ kind: 'pinned' });
    const fourth = new ToolPins(storeIn(dir)).check('notes', ID_A, [structuredClone(changed), structuredClone(extra)]);
    expect([...fourth.values()].map((c) => c.status.kind)).toEqual(['pinned', 'pinned']);
  });

  it('a re-list with fresh objects equal as JSON keeps its status; a change deep inside a schema is caught; one write per listing', async () => {
    const store = storeIn(stateDir());
    let saves = 0;
    const save = store.save.bind(store);
    store.save = (server: string) => {
      saves++;
      return save(server);
    };
    const pins = new ToolPins(store);
    const many = Array.from({ length: 20 }, (_, i): Tool => ({ ...structuredClone(write), name: `t${i}` }));
    pins.check('notes', ID_A, many);
    expect(saves).toBe(1); // the first listing pins 20 tools with one write
    await store.flush();
    const again = pins.check('notes', ID_A, structuredClone(many));
    expect([...again.values()].every((c) => c.status.kind === 'pinned')).toBe(true);
    expect(saves).toBe(1); // nothing new: no write
    const deep = structuredClone(many);
    (deep[3]!.inputSchema.properties!.options as { properties: { mode: { enum: string[] } } }).properties.mode.enum.push('wipe');
    const third = pins.check('notes', ID_A, deep);
    expect(third.get('t3')!.status).toMatchObject({ kind: 'changed', diff: [{ kind: 'property_changed', path: 'options.mode' }] });
    expect(third.get('t3')!.hash).toBe(definitionHash(definitionOf(deep[3]!)));
    expect(third.get('t4')!.status.kind).toBe('pinned');
    // Back to the pinned definition (new objects, reordered keys): pinned again, same hash as the pin.
    const back = structuredClone(many).map((t) => JSON.parse(JSON.stringify({ annotations: t.annotations, inputSchema: t.inputSchema, name: t.name, description: t.description, title: t.title })) as Tool);
    expect(pins.check('notes', ID_A, back).get('t3')!.status.kind).toBe('pinned');
  });

  it('a tool listed with the same definition by another program (config identity) is changed, with an empty diff', () => {
    const pins = new ToolPins(storeIn(stateDir()), () => 5);
    pins.check('notes', ID_A, [write]);
    expect(pins.check('notes', ID_B, [write]).get('write_note')!.status).toEqual({ kind: 'changed', diff: [], program_changed: true, pinned_at: 5 });
  });

  it('an unreadable pins file is kept aside and its tools must be accepted again (never trusted)', async () => {
    const dir = stateDir();
    const store = storeIn(dir);
    new ToolPins(store).check('notes', ID_A, [write]);
    await store.flush();
    writeFileSync(store.fileOf('notes'), '{not json');
    const fresh = new ToolPins(storeIn(dir));
    expect(fresh.check('notes', ID_A, [write]).get('write_note')!.status).toEqual({ kind: 'new' });
    expect(existsSync(`${store.fileOf('notes')}.unreadable`)).toBe(true);
  });

  it('keeps the hold-back setting, and a tool named __proto__ is an ordinary key', async () => {
    const dir = stateDir();
    const store = storeIn(dir);
    expect(store.settings()).toEqual({ hold_unaccepted: false });
    await store.setSettings({ hold_unaccepted: true });
    expect(storeIn(dir).settings()).toEqual({ hold_unaccepted: true });
    const proto: Tool = { name: '__proto__', inputSchema: { type: 'object' } };
    new ToolPins(store).check('odd', ID_A, [proto]);
    await store.flush();
    expect(new ToolPins(storeIn(dir)).check('odd', ID_A, [proto]).get('__proto__')!.status).toEqual({ kind: 'pinned' });
  });

  it('a removed server loses its pins: one added later under its name starts with its own first listing', async () => {
    const dir = stateDir();
    const store = storeIn(dir);
    const pins = new ToolPins(store);
    pins.check('notes', ID_A, [write]);
    await store.flush();
    expect(existsSync(store.fileOf('notes'))).toBe(true);
    await pins.drop('notes');
    expect(existsSync(store.fileOf('notes'))).toBe(false);
    expect(pins.check('notes', ID_B, [{ ...write, description: 'another program' }]).get('write_note')!.status).toEqual({ kind: 'pinned' });
  });
});

describe('one copy of a listing (docs/ARCHITECTURE.md "Memory per server")', () => {
  const ID = 'c'.repeat(64);

  it('a tool with only definition fields is its own definition; one with more gets a fresh object without them', () => {
    expect(definitionOf(write)).toBe(write);
    const withMeta = { ...write, _meta: { anything: 1 }, icons: [{ src: 'https://x/i.png' }] } as Tool;
    const d = definitionOf(withMeta);
    expect(d).not.toBe(withMeta);
    expect(Object.keys(d).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name', 'title']);
    expect(d.inputSchema).toBe(withMeta.inputSchema); // the listing's schema, not a copy
  });

  it('a pin read from disk equal to the listed definition shares the listed one, the file unchanged; a changed tool keeps its pin', async () => {
    const dir = stateDir();
    const first = storeIn(dir);
    new ToolPins(first).check('notes', ID, [write, { ...structuredClone(write), name: 'other' }]);
    await first.flush();
    const fileOf = (): string => readFileSync(first.fileOf('notes'), 'utf8');
    const onDisk = fileOf();
    // A later start: the pins come from the file, the listing from the server (fresh objects).
    const store = storeIn(dir);
    const pins = new ToolPins(store);
    const listed = structuredClone(write);
    const changed = { ...structuredClone(write), name: 'other', description: 'Something else now.' };
    const checked = pins.check('notes', ID, [listed, changed]);
    expect(checked.get('write_note')!.status).toEqual({ kind: 'pinned' });
    expect(store.get('notes').tools.get('write_note')!.definition).toBe(listed);
    expect(checked.get('write_note')!.definition).toBe(listed);
    // The changed tool's pin keeps what was accepted, so the diff still says what changed.
    expect(checked.get('other')!.status).toMatchObject({ kind: 'changed', diff: [{ kind: 'description' }] });
    expect(store.get('notes').tools.get('other')!.definition.description).toBe(write.description);
    await store.flush();
    expect(fileOf()).toBe(onDisk);
  });
});
