import type { Static } from '@sinclair/typebox';
import type { ChatCompletion } from '../../../../../gateway/src/api/chat/chat-schemas';
import { useMutation } from '@tanstack/react-query';
import type { Citation } from '../../../../../gateway/src/wire/citation-schema';
import { postJson } from '../../../lib/gateway-client';
import { useRefreshModelStates } from '../../../lib/models-query';

export interface DocumentQuestion {
  model: string;
  /** A data URL or an http(s) URL. */
  document: string;
  question: string;
}

/** A chat completion (the gateway's schema) with the citations and the document's text beside it. */
export type DocumentAnswer = Static<typeof ChatCompletion> & { citations?: Citation[]; document_text?: string };

export const askDocument = (question: DocumentQuestion): Promise<DocumentAnswer> =>
  postJson('/v1/chat/completions', question);

export function useAskDocument() {
  const refreshModels = useRefreshModelStates();
  return useMutation({ mutationFn: askDocument, onSettled: refreshModels });
}
