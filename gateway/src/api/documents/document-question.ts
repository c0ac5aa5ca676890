import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DocumentQuestion, DocumentService } from '../../core/documents/document-service.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { newId } from '../../core/ids/ids.js';
import type { ModelRoute } from '../../core/routing/model-registry.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { chatChunkFrames } from '../../streaming/chat-chunk-frame.js';
import { sendEventStream } from '../_shared/event-stream.js';
import { usageBody } from '../_shared/usage-body.js';
import type { ChatBodyType } from '../chat/chat-schemas.js';

/** The document and question: `document` + `question`, or the last user message's image_url (or document_url) part and text parts. */
function documentAndQuestion(body: ChatBodyType): DocumentQuestion {
  if (body.document || body.question) {
    if (!body.document)
      throw new GatewayError(
        422,
        'invalid_value',
        "Invalid request: 'document' is required with 'question' (base64 or a URL of the document).",
        { param: 'document' },
      );
    if (!body.question)
      throw new GatewayError(422, 'invalid_value', "Invalid request: 'question' is required with 'document'.", {
        param: 'question',
      });
    return { document: body.document, question: body.question };
  }
  const user = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user');
  const parts = Array.isArray(user?.content) ? user.content : [];
  const image = parts.find((part) => part.type === 'image_url' || part.type === 'document_url');
  const question = parts
    .filter((part) => part.type === 'text')
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join(' ')
    .trim();
  if (!image || (image.type !== 'image_url' && image.type !== 'document_url')) {
    throw new GatewayError(
      422,
      'invalid_value',
      'Invalid request: document questions need `document` + `question`, or a user message with an image_url part (the document) and a text part (the question).',
      { param: 'messages' },
    );
  }
  if (!question)
    throw new GatewayError(
      422,
      'invalid_value',
      'Invalid request: the user message has no text part with the question.',
      { param: 'messages' },
    );
  const source = image.type === 'image_url' ? image.image_url : image.document_url;
  return { document: typeof source === 'string' ? source : source.url, question };
}

/** Document question answering on an OCR (documents) model, answered like a chat completion with the citations beside it. */
export async function documentQuestion(
  documents: DocumentService,
  request: FastifyRequest,
  reply: FastifyReply,
  body: ChatBodyType,
  route: ModelRoute,
  writer?: ModelRoute,
) {
  const { answer, route: served } = await documents.answer(
    route,
    { ...documentAndQuestion(body), writer },
    request.apiKey?.id ?? null,
    request.billing,
    clientAbortSignal(reply),
  );
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const extras = { citations: answer.citations, document_text: answer.documentText, answer_method: answer.method };
  if (body.stream) {
    // Streaming clients get the answer as chunks like any chat stream; the citations ride on the last one.
    const frames = chatChunkFrames({ id, created, model: served.id });
    return sendEventStream(request, reply, served.provider.id, async (writer) => {
      await writer.sendJsonText(
        frames.chunk([{ index: 0, delta: { role: 'assistant', content: answer.answer }, finish_reason: null }]),
      );
      await writer.sendJsonText(frames.chunk([{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], extras));
      if (body.stream_options?.include_usage)
        await writer.sendJsonText(frames.chunk([], { usage: usageBody(answer.usage) }));
    });
  }
  return {
    id,
    object: 'chat.completion' as const,
    created,
    model: served.id,
    choices: [{ index: 0, message: { role: 'assistant' as const, content: answer.answer }, finish_reason: 'stop' }],
    usage: usageBody(answer.usage),
    ...extras,
  };
}
