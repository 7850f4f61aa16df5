/**
 * The shared rules (docs/ARCHITECTURE.md "Shared rules"): one definition of each rule main and the
 * window both apply, in plain TypeScript without dependencies, so the window may import values
 * from here (from the rest of the contract it imports only types).
 */
export { isHttpsOrLoopbackHttp, isLoopbackHost, keyWouldTravelInClear } from './loopback.js';
export { SERVER_NAME_MAX_LENGTH, SERVER_NAME_PATTERN, isValidServerName } from './server-name.js';
export { MAX_RESOURCE_URI_LENGTH, classifyResourceUri, mayReadFromServer, ownSchemes, readRefusal, uriScheme, type ResourceLinkKind, type ResourceReadRefusal } from './resource-link.js';
export { PERMISSION_MODES, TOOL_APPROVALS, isPermissionMode, isToolApproval, type PermissionMode, type ToolApproval } from './approval-modes.js';
export { BRIDGE_MESSAGE_BYTES } from './bridge-message.js';
export { toolDefinitionBytes, toolDefinitionTokens, type ToolDefinitionLike } from './tool-tokens.js';
export { isTaskActive } from './task-status.js';
export { ANSWER_RESERVE_TOKENS, MESSAGE_CONTEXT_CHARS, answerReserveTokens, textTokens } from './context-estimate.js';
