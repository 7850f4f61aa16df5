/**
 * Server configuration (docs/ARCHITECTURE.md "Config file"): one import path for the rooms of
 * ./config/ — schema.ts (types, parsing), patch.ts (PATCH semantics), secret-refs.ts (secret
 * references), store.ts (mcp_servers.json load/save) and identity.ts (what makes two configurations
 * the same server). Kept because many modules import it.
 */
export * from './config/schema.js';
export * from './config/patch.js';
export * from './config/secret-refs.js';
export * from './config/store.js';
export * from './config/identity.js';
export * from './config/url-parts.js';
export * from './config/secret-args.js';
