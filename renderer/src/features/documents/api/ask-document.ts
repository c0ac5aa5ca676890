import { useMutation } from '@tanstack/react-query';
import type { Citation } from '../../../../../gateway/src/wire/citation-schema';
import { postJson } from '../../../lib/gateway-client';

export interface DocumentQuestion {
  model: string;
  /** A data URL or an http(s) URL. */
  document: string;
  question: string;
}

export interface DocumentAnswer {
  id: string;
  object: 'chat.completion';
  model: string;
  choices: { index: number; message: { role: 'assistant'; content: string }; finish_reason: string | null }[];
  citations?: Citation[];
  document_text?: string;
}

export const askDocument = (question: DocumentQuestion): Promise<DocumentAnswer> => postJson('/v1/chat/completions', question);

export const useAskDocument = () => useMutation({ mutationFn: askDocument });
