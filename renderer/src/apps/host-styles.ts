/**
 * The window's look as MCP App style variables (ext-apps spec "Theming": `hostContext.styles.
 * variables`, names like `--color-background-primary`), so a view that applies them matches the
 * app in either theme. Values are read from the window's own CSS custom properties
 * (renderer/src/styles.css) at the moment they are sent; docs/ARCHITECTURE.md "MCP Apps".
 */
import type { McpUiHostStyles, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/** Spec variable → the window's own custom property it takes its value from. */
const FROM_WINDOW: Record<string, string> = {
  '--color-background-primary': '--bg',
  '--color-background-secondary': '--panel',
  '--color-background-tertiary': '--panel2',
  '--color-background-inverse': '--text',
  '--color-background-info': '--user-bg',
  '--color-background-danger': '--err-bg',
  '--color-background-warning': '--warn-bg',
  '--color-text-primary': '--text',
  '--color-text-secondary': '--muted',
  '--color-text-tertiary': '--muted',
  '--color-text-inverse': '--bg',
  '--color-text-info': '--link',
  '--color-text-danger': '--err',
  '--color-text-warning': '--warn',
  '--color-text-success': '--ok',
  '--color-border-primary': '--border',
  '--color-border-secondary': '--border',
  '--color-border-info': '--accent',
  '--color-border-danger': '--err',
  '--color-border-warning': '--warn',
  '--color-border-success': '--ok',
  '--color-ring-primary': '--accent',
};

/** Spec variables with the same value in both themes (the window's type and shape scale). */
const FIXED: Record<string, string> = {
  '--font-sans': "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  '--font-mono': "ui-monospace, 'SF Mono', Menlo, Consolas, monospace",
  '--font-text-sm-size': '12.5px',
  '--font-text-md-size': '14px',
  '--font-text-md-line-height': '1.45',
  '--font-weight-normal': '400',
  '--font-weight-semibold': '600',
  '--border-radius-sm': '4px',
  '--border-radius-md': '6px',
  '--border-radius-lg': '8px',
  '--border-radius-xl': '10px',
  '--border-radius-full': '9999px',
  '--border-width-regular': '1px',
};

/**
 * The style variables to send. @param readVar the window's value of one of its custom properties
 * (empty when unset; unset ones are left out). Pure.
 */
export function styleVariables(readVar: (name: string) => string): McpUiStyles {
  const out: Record<string, string> = { ...FIXED };
  for (const [spec, own] of Object.entries(FROM_WINDOW)) {
    const v = readVar(own).trim();
    if (v) out[spec] = v;
  }
  return out as McpUiStyles;
}

/** The window's current styles (`hostContext.styles`), read from its root element. */
export function currentHostStyles(): McpUiHostStyles {
  const css = getComputedStyle(document.documentElement);
  return { variables: styleVariables((name) => css.getPropertyValue(name)) };
}
