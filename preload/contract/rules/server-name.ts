/**
 * The server-name rule (docs/ARCHITECTURE.md "Shared rules"): what a server may be called in the
 * config file, the add form, the catalog's install form and every channel that names a server.
 * Dependency-free: main and the window import these values alike.
 */

/** Longest server name, in characters. */
export const SERVER_NAME_MAX_LENGTH = 64;

/** A server name's characters: letters, digits, `_`, `-`, `.`, starting with a letter or digit. */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Whether `name` is a valid server name: 1–{@link SERVER_NAME_MAX_LENGTH} characters matching
 * {@link SERVER_NAME_PATTERN}. The name is taken as given (the forms trim before asking).
 */
export function isValidServerName(name: string): boolean {
  return name.length >= 1 && name.length <= SERVER_NAME_MAX_LENGTH && SERVER_NAME_PATTERN.test(name);
}
