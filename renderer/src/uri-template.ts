/**
 * Expanding a resource template's URI with the values the user entered (RFC 6570 levels 1–3:
 * `{var}`, `{+var}`, `{#var}`, `{/var}`, `{.var}`, `{;var}`, `{?a,b}`, `{&a}`). Pure.
 */

const OPS: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

/** Expand `template` with `values`; an absent or empty value leaves its variable out. */
export function expandUriTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_, op: string, list: string) => {
    const o = OPS[op] ?? OPS['']!;
    const parts: string[] = [];
    for (const raw of list.split(',')) {
      const name = raw.replace(/(\*|:\d+)$/, '').trim();
      const v = values[name];
      if (v === undefined || v === '') continue;
      const enc = o.reserved ? encodeURI(v) : encodeURIComponent(v);
      parts.push(o.named ? `${name}=${enc}` : enc);
    }
    return parts.length ? o.first + parts.join(o.sep) : '';
  });
}
