import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Length limits of the names, labels and metadata clients store here, the same on every route
 * (docs/security.md lists them): a longer value is a 422 naming the field.
 */
export const TEXT_LIMITS = {
  /** Key, agent, conversation, model and route names, aliases and ids a client chooses. */
  name: 200,
  /** Descriptions of agents, conversations and models. */
  description: 2000,
  /** Instructions of agents and conversations. */
  instructions: 100_000,
  /** An uploaded file's name. */
  filename: 255,
  /** Metadata, as OpenAI caps it: at most 16 pairs, keys up to 64 characters, values up to 512. */
  metadataPairs: 16,
  metadataKey: 64,
  metadataValue: 512,
} as const;

/** A name a client chooses (1 to 200 characters). */
export const NameText = (options: { minLength?: number; description?: string } = {}) =>
  Type.String({ minLength: 1, maxLength: TEXT_LIMITS.name, ...options });

/** A description (up to 2,000 characters). */
export const DescriptionText = () => Type.String({ maxLength: TEXT_LIMITS.description });

/** Metadata pairs with OpenAI's limits, each value of the schema `value`. */
export const MetadataOf = <T extends TSchema>(value: T, description?: string) =>
  Type.Record(Type.String(), value, {
    maxProperties: TEXT_LIMITS.metadataPairs,
    propertyNames: { maxLength: TEXT_LIMITS.metadataKey },
    description: `${description ? `${description} ` : ''}At most ${TEXT_LIMITS.metadataPairs} pairs; keys up to ${TEXT_LIMITS.metadataKey} characters, values up to ${TEXT_LIMITS.metadataValue}.`,
  });

/** A metadata value (up to 512 characters). */
export const MetadataValue = () => Type.String({ maxLength: TEXT_LIMITS.metadataValue });

/** Metadata of string values, with OpenAI's limits. */
export const Metadata = (description?: string) => MetadataOf(MetadataValue(), description);
