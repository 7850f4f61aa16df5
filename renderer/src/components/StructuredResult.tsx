/**
 * A tool result that is JSON — a tool's structured output (MCP "Structured content": tools with
 * an `outputSchema` return `structuredContent`, and its JSON text as a content block) — shown
 * readably: an array of records as a table, an object as fields, with the exact JSON text one
 * click away. Values are shown as text only; nothing in the data is interpreted as markup
 * (docs/ARCHITECTURE.md "Protocol features").
 */
import { useTranslation } from '../i18n';

/** Longest JSON text that is laid out (larger results stay plain text). */
const MAX_JSON = 256 * 1024;
/** Most rows, columns and fields laid out. */
const MAX_ROWS = 200;
const MAX_COLUMNS = 20;
const MAX_CELL = 300;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The parsed value when `text` is a JSON object or array of a size worth laying out, else null. */
export function parseStructured(text: string): Json | null {
  const s = text.trim();
  if (s.length < 2 || s.length > MAX_JSON || !((s[0] === '{' && s.endsWith('}')) || (s[0] === '[' && s.endsWith(']')))) return null;
  try {
    const v = JSON.parse(s) as Json;
    return typeof v === 'object' && v !== null ? v : null;
  } catch {
    return null;
  }
}

function cell(v: Json | undefined): string {
  if (v === undefined) return '';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > MAX_CELL ? `${s.slice(0, MAX_CELL)}…` : s;
}

const isRecord = (v: Json): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

function Table({ rows }: { rows: Array<{ [k: string]: Json }> }) {
  const { t } = useTranslation();
  const columns: string[] = [];
  for (const r of rows.slice(0, MAX_ROWS)) for (const k of Object.keys(r)) if (!columns.includes(k) && columns.length < MAX_COLUMNS) columns.push(k);
  return (
    <>
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_ROWS).map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>{cell(r[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_ROWS && <div className="muted small">{t('protocol.structuredMore', { count: rows.length - MAX_ROWS })}</div>}
    </>
  );
}

function Fields({ value }: { value: { [k: string]: Json } | Json[] }) {
  const { t } = useTranslation();
  const entries = Object.entries(value);
  return (
    <>
      <dl>
        {entries.slice(0, MAX_ROWS).map(([k, v]) => [<dt key={`k${k}`}>{k}</dt>, <dd key={`v${k}`}>{cell(v)}</dd>])}
      </dl>
      {entries.length > MAX_ROWS && <div className="muted small">{t('protocol.structuredMore', { count: entries.length - MAX_ROWS })}</div>}
    </>
  );
}

/** A JSON tool result: a table or fields, with the exact JSON text in a collapsed section. */
export function StructuredResult({ value, raw }: { value: Json; raw: string }) {
  const { t } = useTranslation();
  const table = Array.isArray(value) && value.length > 0 && value.every(isRecord);
  return (
    <div className="structured" data-testid="structured-result">
      <strong className="small">
        {t('protocol.structuredTitle')} · {table ? t('protocol.structuredTable') : t('protocol.structuredFields')}
      </strong>
      {table ? <Table rows={value as Array<{ [k: string]: Json }>} /> : <Fields value={value as { [k: string]: Json } | Json[]} />}
      <details>
        <summary>{t('protocol.structuredJson')}</summary>
        <pre className="tool-text">{raw}</pre>
      </details>
    </div>
  );
}
