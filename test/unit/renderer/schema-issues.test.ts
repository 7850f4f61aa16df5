/**
 * The card's sentence for a tool left out for a provider family (renderer/src/i18n): every family
 * and reason of the contract has its words in English and Chinese, and the sentence fills in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { i18next, t } from '../../../renderer/src/i18n/index.js';
import type { SchemaFamily, SchemaFitReason } from '../../../preload/contract/index.js';

const FAMILIES: SchemaFamily[] = ['openai', 'gemini', 'anthropic'];
const REASONS: SchemaFitReason[] = ['not_object', 'recursive', 'untyped_value', 'free_form_object', 'too_large'];
const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('tool_left_out_for_provider on the card', () => {
  it.each(['en', 'zh-CN'])('%s: each family and reason is worded and the sentence fills in', async (lng) => {
    await i18next.changeLanguage(lng);
    for (const family of FAMILIES)
      for (const reason of REASONS) {
        const text = tt('servers.issue.leftOutFor', { tool: 'tree', family: tt(`servers.schemaFamily.${family}`), why: tt(`servers.schemaFit.${reason}`) });
        expect(text).toContain('tree');
        expect(text).not.toMatch(/\{\{|servers\./);
      }
    expect(tt('servers.issue.leftOutFor', { tool: 'x', family: tt('servers.schemaFamily.gemini'), why: tt('servers.schemaFit.recursive') })).toContain(lng === 'en' ? 'Gemini models' : 'Gemini 模型');
  });
});
