/**
 * How a server's log notification (MCP spec "Utilities: Logging", `notifications/message`) reads
 * as one line of its Logs view. Pure; no imports of the connection, so the connection can use it.
 */
import type { LoggingLevel } from '../../../preload/contract/index.js';

/**
 * The text of one `notifications/message`: `level logger: data` (data that is not a string is
 * shown as JSON; a value that cannot be encoded is described).
 */
export function formatLogMessage(params: { level: LoggingLevel | string; logger?: string; data?: unknown }): string {
  let data: string;
  if (typeof params.data === 'string') data = params.data;
  else {
    try {
      data = JSON.stringify(params.data) ?? String(params.data);
    } catch {
      data = '[a value that could not be shown]';
    }
  }
  const logger = typeof params.logger === 'string' && params.logger ? ` ${params.logger.slice(0, 128)}` : '';
  return `${String(params.level).slice(0, 16)}${logger}: ${data}`;
}

