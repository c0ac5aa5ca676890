import { hash } from 'node:crypto';
import type { ChatRequest } from '../../providers/contracts/chat.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ModelRoute } from '../routing/model-registry.js';

/** A chat turn as core's ChatService takes it (its ChatTurn): the request apart from the model. */
export type CachedTurn = Omit<ChatRequest, 'model' | 'signal'>;

/** The response cache's names for one request (docs/routing.md, "Cache"). */
export interface CacheKeys {
  /** The scope, route, answer form and whole normalised turn. */
  exact: string;
  /** Semantic lookups: the same with the last user message's text left out, the entries they compare ('' otherwise). */
  context: string;
  /** The last user message's text, compared by embedding; undefined when it has none. */
  fuzzyText: string | undefined;
}

/** Bumped when what goes into a key changes, so older entries are never read as newer ones. */
const KEY_VERSION = 1;

/**
 * JSON with object keys sorted and undefined fields left out: two turns that differ only in field
 * order or in fields not given name the same entry. Built in one string rather than through arrays
 * joined at every level (a hit computes it for its key); the text is the same either way.
 */
function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (index > 0) text += ',';
      text += item === undefined ? 'null' : canonical(item);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const names = definedNamesSorted(record);
  let text = '{';
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    if (index > 0) text += ',';
    text += `${JSON.stringify(name)}:${canonical(record[name])}`;
  }
  return `${text}}`;
}

/**
 * The record's own names whose values are defined, in the order `Array.prototype.sort` gives (by
 * UTF-16 code units), sorted as they are found: a turn has a dozen names, most undefined, and a
 * general sort of them all cost a hit more than the rest of its key.
 */
function definedNamesSorted(record: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const name of Object.keys(record)) {
    if (record[name] === undefined) continue;
    let at = names.length;
    while (at > 0 && names[at - 1]! > name) {
      names[at] = names[at - 1]!;
      at--;
    }
    names[at] = name;
  }
  return names;
}

const sha256 = (text: string): string => hash('sha256', text, 'base64url');

/** The text of a message's content (a string, or its text parts joined by newlines). */
function textOf(message: ChatMessage): string | undefined {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** The turn with the last user message's text parts blanked: what must match exactly for a semantic hit. */
function withoutLastUserText(turn: CachedTurn, last: number): CachedTurn {
  const message = turn.messages[last]!;
  const content = Array.isArray(message.content)
    ? message.content.map((part) => (part.type === 'text' ? { ...part, text: '' } : part))
    : '';
  return { ...turn, messages: turn.messages.map((each, index) => (index === last ? { ...message, content } : each)) };
}

/**
 * The route as its entries are named: its id and the provider models it sends to (each deployment's),
 * so an entry never answers for a route since pointed at another model.
 */
export function routeKeyOf(route: ModelRoute): string {
  const served = route.deployments
    ? route.deployments.members.map(({ deployment }) => deployment.id)
    : [`${route.provider.id}/${route.upstreamModel}`];
  return `${route.id}\u0000${served.join('\u0000')}`;
}

/**
 * The keys of a turn: the whole turn as core received it (messages, sampling parameters, stop, seed,
 * n, tools, tool_choice, parallel_tool_calls, response_format), never the client's `stream`,
 * `stream_options` or `user`, which the turn does not carry; `form` separates whole and streamed answers.
 * The semantic context also names the end user, when the client names one: an exact hit answers the
 * very request another user sent, but a close one may answer a question that carried another
 * person's details (a name, an account number) with what was said to them.
 */
export function cacheKeysOf(
  scope: string,
  routeId: string,
  form: 'json' | 'stream',
  turn: CachedTurn,
  { semantic = true, endUser }: { semantic?: boolean; endUser?: string } = {},
): CacheKeys {
  const head = `${KEY_VERSION}\u0000${scope}\u0000${routeId}\u0000${form}\u0000`;
  let last = -1;
  for (let index = turn.messages.length - 1; index >= 0; index--)
    if (turn.messages[index]!.role === 'user') {
      last = index;
      break;
    }
  const fuzzyText = last >= 0 ? textOf(turn.messages[last]!) : undefined;
  return {
    exact: sha256(head + canonical(turn)),
    context: semantic
      ? sha256(
          `${head}context\u0000${endUser === undefined ? '' : `user\u0000${endUser}\u0000`}${canonical(fuzzyText === undefined ? turn : withoutLastUserText(turn, last))}`,
        )
      : '',
    fuzzyText,
  };
}
