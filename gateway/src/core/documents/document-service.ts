import type { UsageMeter } from '../billing/billing-service.js';
import type { ChatService } from '../chat/chat-service.js';
import type { ModelRoute } from '../routing/model-registry.js';
import { recogniseDocument, type RecogniseServices } from '../ocr/recognise-document.js';
import { answerQuestion, type DocumentAnswer } from './answer-question.js';

const NO_TOKENS = { prompt_tokens: 0, completion_tokens: 0 };

/** A question about a document: base64, a data URL or an http(s) URL. */
export interface DocumentQuestion {
  document: string;
  question: string;
  /** The chat route that writes the answer (the one the client named), else the default chat model. */
  writer?: ModelRoute;
}

/** Document question answering: the document read by an OCR (documents) route, the answer with the passages it rests on. */
export class DocumentService {
  constructor(private readonly services: RecogniseServices & { chat: ChatService }) {}

  /** `keyId`: the calling key, whose turn the local OCR engine waits for. */
  async answer(
    route: ModelRoute,
    { document, question, writer }: DocumentQuestion,
    keyId: string | null,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ answer: DocumentAnswer; route: ModelRoute }> {
    const { result, route: served } = await recogniseDocument(
      this.services,
      route,
      { source: document, param: 'document', keyId },
      signal,
    );
    // Reading the document is billed on its route; the chat turn that answers (if any) adds its own tokens.
    meter.charge(served, NO_TOKENS);
    const answer = await answerQuestion(this.services.chat, result, question, meter, signal, writer, route);
    return { answer, route: served };
  }
}
