/**
 * OAuth for remote MCP servers: provider over the secret store, loopback callback, sign-in flow,
 * guarded fetch, URL rules, and an OAuth-capable remote transport factory.
 */
export * from './errors.js';
export * from './url-safety.js';
export * from './safe-fetch.js';
export * from './provider.js';
export * from './callback.js';
export * from './flow.js';
export * from './transport.js';
