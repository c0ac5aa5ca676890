import { describe, expect, it } from 'vitest';
import {
  conversationFileName,
  conversationToJson,
  conversationToMarkdown,
} from '../../../src/features/chat/export-conversation';
import { DEFAULT_SETTINGS } from '../../../src/features/chat/stores/conversations-store';

const conversation = {
  id: 'conv_1',
  title: 'Invoice totals: Q3?',
  createdAt: Date.UTC(2026, 0, 2),
  settings: { ...DEFAULT_SETTINGS, model: 'svc-small', system: 'Be brief.' },
  messages: [
    { id: 'm1', role: 'user' as const, content: 'What is the total?', images: ['data:image/png;base64,AAAA'] },
    {
      id: 'm2',
      role: 'assistant' as const,
      content: '42 EUR',
      images: [],
      model: 'svc-small',
      status: 'done' as const,
    },
    { id: 'm3', role: 'assistant' as const, content: '', images: [], status: 'error' as const, error: 'upstream down' },
  ],
};

describe('conversation export', () => {
  it('Markdown has the title, model, system prompt and every turn with failures marked', () => {
    const md = conversationToMarkdown(conversation);
    expect(md).toContain('# Invoice totals: Q3?\n');
    expect(md).toContain('- Model: `svc-small`');
    expect(md).toContain('## System\n\nBe brief.');
    expect(md).toContain('## User\n\nWhat is the total?\n_1 image attached_');
    expect(md).toContain('## Assistant (svc-small)\n\n42 EUR');
    expect(md).toContain('_Failed: upstream down_');
  });

  it('Markdown has each tool call of an answer with its arguments and output fenced, whatever backticks they hold', () => {
    const md = conversationToMarkdown({
      ...conversation,
      messages: [
        {
          id: 'm4',
          role: 'assistant' as const,
          content: 'Done.',
          images: [],
          tools: [
            {
              kind: 'call' as const,
              id: 'mcp_1',
              server: 'everything',
              name: 'echo',
              arguments: '{"message":"hi"}',
              state: 'completed' as const,
              output: 'Echo: ```\n# not a heading',
              durationMs: 12.4,
            },
          ],
        },
      ],
    });
    expect(md).toContain(
      '## Assistant\n\n_Tool call `everything · echo` (completed, 12 ms)_\n\n```\n{"message":"hi"}\n```\n\nOutput:\n\n````\nEcho: ```\n# not a heading\n````\n\nDone.',
    );
  });

  it('JSON keeps settings and messages, images included', () => {
    const parsed = JSON.parse(conversationToJson(conversation));
    expect(parsed.createdAt).toBe('2026-01-02T00:00:00.000Z');
    expect(parsed.settings.model).toBe('svc-small');
    expect(parsed.messages[0].images).toEqual(['data:image/png;base64,AAAA']);
  });

  it('file names are slugs of the title', () => {
    expect(conversationFileName(conversation, 'md')).toBe('invoice-totals-q3.md');
    expect(conversationFileName({ ...conversation, title: '???' }, 'json')).toBe('conversation.json');
  });
});
