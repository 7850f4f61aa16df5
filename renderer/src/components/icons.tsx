/**
 * Small line icons for icon buttons (message actions, the server card's "more" menu). Each is
 * decorative (`aria-hidden`): the button that holds it carries the accessible name (aria-label)
 * and a tooltip (title). Drawn with `currentColor`, so they follow the button's text colour.
 */
import type { ReactNode } from 'react';

/** The icons there are. */
export type IconName = 'copy' | 'check' | 'edit' | 'regenerate' | 'more' | 'alert';

const PATHS: Record<IconName, ReactNode> = {
  copy: (
    <>
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 5.5V3.5A1.5 1.5 0 0 0 9 2H3.5A1.5 1.5 0 0 0 2 3.5V9a1.5 1.5 0 0 0 1.5 1.5h2" />
    </>
  ),
  check: <path d="M3 8.5l3 3 7-7" />,
  edit: <path d="M10.5 2.5l3 3L6 13H3v-3l7.5-7.5z" />,
  regenerate: (
    <>
      <path d="M13 8a5 5 0 1 1-1.5-3.5" />
      <path d="M13 2.5V5h-2.5" />
    </>
  ),
  more: (
    <>
      <circle cx="3.5" cy="8" r="1.1" fill="currentColor" />
      <circle cx="8" cy="8" r="1.1" fill="currentColor" />
      <circle cx="12.5" cy="8" r="1.1" fill="currentColor" />
    </>
  ),
  alert: (
    <>
      <circle cx="8" cy="8" r="6" />
      <path d="M8 4.8v3.6M8 10.9v.1" />
    </>
  ),
};

/** One 16×16 icon, hidden from assistive technology. */
export function Glyph({ name }: { name: IconName }) {
  return (
    <svg className="glyph" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {PATHS[name]}
    </svg>
  );
}
