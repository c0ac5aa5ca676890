import type { OcrResult } from '../../providers/contracts/ocr.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ChatService } from '../chat/chat-service.js';
import type { ModelRoute } from '../routing/model-registry.js';
import { chunkDocument } from './chunk-document.js';
import { extractiveAnswer } from './extractive-answer.js';
import { rankPassages, type RankedPassage } from './rank-passages.js';
import type { Citation } from '../../wire/citation-schema.js';

export interface DocumentAnswer {
  answer: string;
  method: 'language_model' | 'extractive';
  citations: Citation[];
  documentText: string;
  usage: TokenUsage;
  chatRoute?: ModelRoute;
}

const PAGE_SEPARATOR = '\n\n';

/** Offsets of each page's text inside the joined document text. */
function pageOffsets(result: OcrResult): number[] {
  const offsets: number[] = [];
  let cursor = 0;
  for (const page of result.pages) {
    offsets.push(cursor);
    cursor += page.text.length + PAGE_SEPARATOR.length;
  }
  return offsets;
}

function citation(ranked: RankedPassage, offsets: number[], pages: OcrResult['pages']): Citation {
  const pageNumber = pages.findIndex((page) => page.index === ranked.passage.page);
  const base = offsets[Math.max(0, pageNumber)] ?? 0;
  return {
    page: ranked.passage.page,
    text: ranked.passage.text,
    start: base + ranked.passage.start,
    end: base + ranked.passage.end,
    score: Math.round(ranked.score * 1000) / 1000,
  };
}

/**
 * Document question answering: the passages most relevant to the question (BM25 over the recognised
 * text), answered by a chat route (`writer`, by default the default chat model) that must cite them
 * when there is one, or else the best supporting sentence itself (extractive).
 */
export async function answerQuestion(
  chatService: ChatService,
  result: OcrResult,
  question: string,
  meter: UsageMeter,
  signal: AbortSignal,
  writer = chatService.helperRoute(),
  /** The documents route the client asked, whose guardrails run on the writer's turn too. */
  named?: ModelRoute,
): Promise<DocumentAnswer> {
  const documentText = result.pages.map((page) => page.text).join(PAGE_SEPARATOR);
  const offsets = pageOffsets(result);
  const ranked = rankPassages(chunkDocument(result), question, 3);
  const chat = writer;

  if (chat && ranked.length > 0) {
    const context = ranked
      .map((entry, index) => `[${index + 1}] (page ${entry.passage.page + 1}) ${entry.passage.text}`)
      .join('\n\n');
    const answer = await chatService.ask(
      chat,
      [
        {
          role: 'system',
          content:
            'Answer the question using only the numbered passages from a document. Cite the passages you used as [1], [2]. If they do not contain the answer, say so.',
        },
        { role: 'user', content: `Passages:\n${context}\n\nQuestion: ${question}` },
      ],
      { maxTokens: 512, named },
      meter,
      signal,
    );
    return {
      answer: answer.text,
      method: 'language_model',
      citations: ranked.map((entry) => citation(entry, offsets, result.pages)),
      documentText,
      usage: answer.usage,
      chatRoute: answer.route,
    };
  }

  const best = extractiveAnswer(question, ranked);
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  if (!best) {
    return {
      answer: 'The document does not appear to answer this question.',
      method: 'extractive',
      citations: [],
      documentText,
      usage,
    };
  }
  const pageNumber = result.pages.findIndex((page) => page.index === best.page);
  const base = offsets[Math.max(0, pageNumber)] ?? 0;
  return {
    answer: best.text.trim(),
    method: 'extractive',
    citations: [
      {
        page: best.page,
        text: best.text,
        start: base + best.start,
        end: base + best.end,
        score: Math.round(best.score * 1000) / 1000,
      },
    ],
    documentText,
    usage,
  };
}
