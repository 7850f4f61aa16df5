/**
 * Heap snapshots for the memory benchmark: write one (`v8.writeHeapSnapshot`) and sum its JS
 * heap by kind, so two snapshots taken before and after opening k connections give the bytes
 * each connection added, by constructor. Machine code, bytecode and feedback (snapshot type
 * `code`) are summed apart: they grow while V8 compiles hot functions, whatever the number of
 * connections, so they are not memory a connection holds. Native (C++) and synthetic nodes are
 * left out: they are not in V8's heapUsed.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

/** Bytes and object counts of one snapshot's JS heap, by kind (`Client`, `closure`, `string`, …). */
export interface HeapSummary {
  /** Every JS heap object that is not code, in bytes (self sizes). */
  objects: number;
  /** Machine code, bytecode, feedback vectors and their metadata, bytes. */
  code: number;
  byKind: Record<string, { count: number; bytes: number }>;
}

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** The kind a node is counted under: objects by constructor name, everything else by type. */
function kindOf(type: string, name: string): string {
  if (type === 'object') return name.startsWith('system /') ? 'system' : name;
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return 'string';
  if (type === 'closure') return 'closure';
  if (type === 'array') return name === '(object properties)' ? 'properties' : name === '(object elements)' ? 'elements' : 'array';
  return type;
}

/** Sum a written snapshot by kind (see {@link HeapSummary}). */
export function summarize(file: string): HeapSummary {
  const s = JSON.parse(readFileSync(file, 'utf8')) as RawSnapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const nf = fields.length;
  const [iType, iName, iSize] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  const byKind: HeapSummary['byKind'] = {};
  let objects = 0;
  let code = 0;
  for (let i = 0; i < s.nodes.length; i += nf) {
    const type = types[s.nodes[i + iType]!]!;
    if (type === 'native' || type === 'synthetic') continue;
    const size = s.nodes[i + iSize]!;
    if (type === 'code') {
      code += size;
      continue;
    }
    objects += size;
    const k = kindOf(type, s.strings[s.nodes[i + iName]!]!);
    const e = (byKind[k] ??= { count: 0, bytes: 0 });
    e.count++;
    e.bytes += size;
  }
  return { objects, code, byKind };
}

/** Write a snapshot into `dir`, summarize it, delete the file. */
export function snapshotSummary(dir: string, label: string): HeapSummary {
  const file = writeHeapSnapshot(path.join(dir, `${label}.heapsnapshot`));
  try {
    return summarize(file);
  } finally {
    rmSync(file, { force: true });
  }
}

/** What `after` holds beyond `before`, per connection: objects, code, and the kinds that grew most. */
export function perConnection(before: HeapSummary, after: HeapSummary, count: number, top = 8): { objects: number; code: number; top: Array<{ kind: string; count: number; bytes: number }> } {
  const kinds = Object.entries(after.byKind).map(([kind, a]) => {
    const b = before.byKind[kind] ?? { count: 0, bytes: 0 };
    return { kind, count: (a.count - b.count) / count, bytes: (a.bytes - b.bytes) / count };
  });
  kinds.sort((x, y) => y.bytes - x.bytes);
  return { objects: (after.objects - before.objects) / count, code: (after.code - before.code) / count, top: kinds.slice(0, top) };
}
