import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { UsageMeter } from '../../core/billing/billing-service.js';
import type { ClassifierService } from '../../core/classifiers/classifier-service.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { newId } from '../../core/ids/ids.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ClassifierInput } from '../../providers/contracts/moderation.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import {
  ChatClassificationBody,
  ChatModerationBody,
  ClassificationAnswer,
  ModerationAnswer,
  TextClassifierBody,
  type ClassifierMessage,
} from './classifier-schemas.js';
import { categoryNamesFor, moderationAnswerResult } from './moderation-answer.js';

type Part = { type: string; text?: string };

/** The text of parts; anything but text is refused rather than left unjudged. */
function partsText(parts: Part[], param: string): string {
  const other = parts.find((part) => part.type !== 'text');
  if (other)
    throw new GatewayError(
      422,
      'unsupported_input',
      `Only text is moderated and classified here, not "${other.type}" parts.`,
      {
        param,
      },
    );
  return parts.map((part) => part.text ?? '').join('\n');
}

/** OpenAI's and Mistral's text inputs as a list of texts: a list of parts is one input. */
function texts(body: TextClassifierBody): string[] {
  const input = body.input ?? body.inputs;
  if (input === undefined)
    throw new GatewayError(422, 'invalid_value', "Invalid request: 'input' is required.", { param: 'input' });
  if (typeof input === 'string') return [input];
  if (input.every((item) => typeof item === 'string')) return input as string[];
  if (input.some((item) => typeof item === 'string'))
    throw new GatewayError(422, 'invalid_value', "'input' mixes strings and parts.", { param: 'input' });
  return [partsText(input as Part[], 'input')];
}

function toChatMessage(message: ClassifierMessage): ChatMessage {
  const content = message.content;
  return {
    role: message.role,
    content: typeof content === 'string' || content == null ? (content ?? null) : partsText(content, 'input'),
  };
}

/** One conversation, or a list of them (a list whose first item is a message is one conversation). */
function conversations(input: ClassifierMessage[] | ClassifierMessage[][] | undefined): ChatMessage[][] {
  if (input === undefined)
    throw new GatewayError(422, 'invalid_value', "Invalid request: 'input' is required.", { param: 'input' });
  const list = Array.isArray(input[0]) ? (input as ClassifierMessage[][]) : [input as ClassifierMessage[]];
  return list.map((conversation) => conversation.map(toChatMessage));
}

/**
 * OpenAI's and Mistral's moderation and Mistral's classifiers, on `moderation` and `classification`
 * routes: POST /v1/moderations (both shapes; Mistral's category names when a `mistral-` model is
 * named), /v1/chat/moderations (Mistral's names), /v1/classifications and /v1/chat/classifications.
 */
export const classifierRoutes: FastifyPluginAsyncTypebox<{ classifiers: ClassifierService }> = async (
  app,
  { classifiers },
) => {
  const tags = ['classifiers'];
  const moderationAnswers = { 200: ModerationAnswer, ...errorResponses };
  /** Moderation's answer, in the category names of the form asked (Mistral's chat form, or the model's). */
  const moderationAnswer = async (
    model: string | undefined,
    chatForm: boolean,
    input: ClassifierInput,
    meter: UsageMeter,
    reply: FastifyReply,
  ) => {
    const names = categoryNamesFor(model, chatForm);
    const { result, route } = await classifiers.moderate(model, input, names, meter, clientAbortSignal(reply));
    return {
      id: newId('modr-'),
      model: route.id,
      results: result.results.map((verdict) => moderationAnswerResult(verdict, names)),
    };
  };

  app.post(
    '/v1/moderations',
    {
      config: { billable: true },
      schema: {
        tags,
        operationId: 'createModeration',
        summary: 'Moderate texts',
        body: TextClassifierBody,
        response: moderationAnswers,
      },
    },
    (request, reply) =>
      moderationAnswer(request.body.model, false, { texts: texts(request.body) }, request.billing, reply),
  );

  app.post(
    '/v1/chat/moderations',
    {
      config: { billable: true },
      schema: {
        tags,
        operationId: 'createChatModeration',
        summary: 'Moderate conversations',
        body: ChatModerationBody,
        response: moderationAnswers,
      },
    },
    (request, reply) =>
      moderationAnswer(
        request.body.model,
        true,
        { conversations: conversations(request.body.input ?? request.body.inputs) },
        request.billing,
        reply,
      ),
  );

  app.post(
    '/v1/classifications',
    {
      config: { billable: true },
      schema: {
        tags,
        operationId: 'createClassification',
        summary: 'Classify texts',
        body: TextClassifierBody,
        response: { 200: ClassificationAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { result, route } = await classifiers.classify(
        request.body.model,
        { texts: texts(request.body) },
        request.billing,
        clientAbortSignal(reply),
      );
      return { id: newId('class-'), model: route.id, results: result.results };
    },
  );

  app.post(
    '/v1/chat/classifications',
    {
      config: { billable: true },
      schema: {
        tags,
        operationId: 'createChatClassification',
        summary: 'Classify conversations',
        body: ChatClassificationBody,
        response: { 200: ClassificationAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = request.body.input;
      const list = Array.isArray(input) ? input : [input];
      const { result, route } = await classifiers.classify(
        request.body.model,
        { conversations: list.map((instruct) => instruct.messages.map(toChatMessage)) },
        request.billing,
        clientAbortSignal(reply),
      );
      return { id: newId('class-'), model: route.id, results: result.results };
    },
  );
};
