/**
 * Sampling (MCP spec 2025-06-18 "Sampling"): a server asks the host's model for a completion.
 * The user sees which server asks and what it sends, and approves or declines each request
 * (human in the loop); on approval the configured model answers through the AI SDK. Without a
 * configured model the request fails with a clear error.
 */
import { generateText, type ModelMessage } from 'ai';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { EventPayloads } from '../../preload/contract/index.js';
import type { SamplingRequest, SamplingResult } from '../mcp/connection.js';
import { UserRequestBroker } from '../mcp/elicitation.js';
import { truncateText } from './agent.js';
import { createModel } from './providers.js';
import type { ProfileStore } from './profiles.js';

/** Most output tokens a server may ask for at once. */
export const SAMPLING_MAX_TOKENS = 4096;

/** JSON-RPC error code for "the user declined" (the spec's examples use -1). */
export const USER_DECLINED = -1;

type SamplingEvent = Omit<EventPayloads['sampling.request'], 'id'>;

function previewOf(m: SamplingRequest['messages'][number]): string {
  const c = m.content;
  if (c.type === 'text') return truncateText(c.text ?? '', 20_000);
  return `[${c.type}${c.mimeType ? `: ${c.mimeType}` : ''}]`;
}

function toModelMessages(req: SamplingRequest): ModelMessage[] {
  return req.messages.map((m): ModelMessage => {
    const c = m.content;
    if (m.role === 'assistant') return { role: 'assistant', content: c.type === 'text' ? (c.text ?? '') : `[${c.type}]` };
    if (c.type === 'image' && c.data && c.mimeType) return { role: 'user', content: [{ type: 'image', image: c.data, mediaType: c.mimeType }] };
    return { role: 'user', content: c.type === 'text' ? (c.text ?? '') : `[${c.type}]` };
  });
}

/** Approves (via the user) and answers sampling requests with the configured model. */
export class SamplingService {
  readonly broker: UserRequestBroker<SamplingEvent, boolean>;

  constructor(
    /** Sampling uses the DEFAULT profile, with that profile's own key. */
    private readonly profiles: Pick<ProfileStore, 'getDefault'>,
    emitRequest: (e: EventPayloads['sampling.request']) => void,
    emitClosed: (id: string) => void,
  ) {
    this.broker = new UserRequestBroker<SamplingEvent, boolean>(emitRequest, emitClosed, false);
  }

  /**
   * Handle one request. @throws McpError (declined by the user, no model configured, model error).
   */
  async sample(server: string, req: SamplingRequest, signal: AbortSignal): Promise<SamplingResult> {
    const d = await this.profiles.getDefault();
    const s = d?.profile;
    if (!d || !s || !s.base_url || !s.model) throw new ProtocolError(-32603, 'The host has no model configured for sampling.');
    const maxTokens = Math.max(1, Math.min(req.maxTokens || SAMPLING_MAX_TOKENS, SAMPLING_MAX_TOKENS));
    const approved = await this.broker.ask(
      {
        server,
        system_prompt: req.systemPrompt ? truncateText(req.systemPrompt, 20_000) : null,
        messages: req.messages.map((m) => ({ role: m.role, text: previewOf(m) })),
        max_tokens: maxTokens,
      },
      signal,
    );
    if (!approved) throw new ProtocolError(USER_DECLINED, 'The user declined the sampling request.');
    try {
      const r = await generateText({
        model: createModel(s, d.apiKey),
        system: req.systemPrompt,
        messages: toModelMessages(req),
        maxOutputTokens: maxTokens,
        temperature: req.temperature,
        abortSignal: signal,
        maxRetries: 1,
      });
      return { model: s.model, text: r.text, stopReason: r.finishReason === 'length' ? 'maxTokens' : 'endTurn' };
    } catch (err) {
      throw new ProtocolError(-32603, `The host's model failed: ${(err as Error).message.slice(0, 300)}`);
    }
  }
}
