import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../src/core/documents/chunk-document.js';
import { extractiveAnswer } from '../../../src/core/documents/extractive-answer.js';
import { rankPassages } from '../../../src/core/documents/rank-passages.js';
import { createTesseractProvider } from '../../../src/providers/tesseract/create-tesseract-provider.js';
import type { OcrResult } from '../../../src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import { makeTextPdf } from '../../support/draw-text.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const lines = (texts: string[]): { text: string; x: number; y: number; size: number }[] =>
  texts.map((text, i) => ({ text, x: 60, y: 80 + i * 16, size: 11 }));

describe('document question answering helpers', () => {
  let provider: ProviderInstance;
  let result: OcrResult;

  beforeAll(async () => {
    provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1 },
      dataDir: '/tmp',
      logger,
    });
    const made = await makeTextPdf([
      {
        lines: lines([
          'Northwind Traders annual report.',
          'The company opened three new warehouses in Ohio.',
          'Staff numbers grew to 412 employees by December.',
        ]),
      },
      {
        lines: lines([
          'Financial summary.',
          'Revenue for the year was 8.2 million dollars.',
          'The board approved a dividend of 40 cents per share.',
        ]),
      },
    ]);
    result = await provider.capabilities.ocr!.ocr({
      model: 'svc-ocr-3-2512',
      document: made.pdf,
      mimeType: 'application/pdf',
      signal: new AbortController().signal,
    });
  });
  afterAll(() => provider.close());

  it('chunks pages into passages whose offsets point into the page text', () => {
    const passages = chunkDocument(result);
    expect(new Set(passages.map((p) => p.page))).toEqual(new Set([0, 1]));
    for (const passage of passages) {
      expect(result.pages[passage.page].text.slice(passage.start, passage.end)).toBe(passage.text);
    }
  });

  it('splits long pages into passages under the size limit', () => {
    const passages = chunkDocument(result, 60);
    expect(passages.length).toBeGreaterThan(2);
    expect(passages.every((p) => p.text.length <= 60)).toBe(true);
  });

  it('ranks the passage on the page that answers the question first and picks the sentence', () => {
    const passages = chunkDocument(result, 60);
    const revenue = rankPassages(passages, 'What was the revenue for the year?', 3);
    expect(revenue[0].passage.page).toBe(1);
    expect(revenue[0].passage.text).toContain('8.2 million');
    expect(extractiveAnswer('What was the revenue for the year?', revenue)?.text).toBe(
      'Revenue for the year was 8.2 million dollars.',
    );

    const staff = rankPassages(passages, 'How many employees did the company have?', 3);
    expect(staff[0].passage.page).toBe(0);
    const answer = extractiveAnswer('How many employees did the company have?', staff);
    expect(answer?.text).toBe('Staff numbers grew to 412 employees by December.');
    expect(result.pages[answer!.page].text.slice(answer!.start, answer!.end)).toBe(answer!.text);
  });

  it('finds nothing for a question unrelated to the document', () => {
    const passages = chunkDocument(result);
    expect(rankPassages(passages, 'zebra migration patterns', 3)).toEqual([]);
    expect(extractiveAnswer('zebra migration patterns', [])).toBeNull();
  });
});
