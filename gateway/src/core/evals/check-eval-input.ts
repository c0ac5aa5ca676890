import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import {
  CompletionsRunDataSource,
  FileContentSource,
  FileIdSource,
  JsonlRunDataSource,
  LabelModelGrader,
  ScoreModelGrader,
  StringCheckGrader,
  TextSimilarityGrader,
  type EvalDataSourceConfig,
  type EvalGrader,
  type EvalRunDataSource,
} from '../../wire/eval-schemas.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import { isKnownReference, templateReferences } from './fill-template.js';

const invalid = (param: string, message: string, code = 'invalid_value') =>
  new GatewayError(422, code, message, { param });

/** `/input/0/content` as a field name below `prefix`: `prefix.input[0].content`. */
const fieldOf = (prefix: string, path: string) =>
  prefix +
  path
    .split('/')
    .filter(Boolean)
    .map((step) => (/^\d+$/.test(step) ? `[${step}]` : `.${step}`))
    .join('');

/** The value as `schema` types it, or a 422 naming the first field that does not match and why. */
export function checked<T extends TSchema>(
  schema: T,
  value: unknown,
  param: string,
): import('@sinclair/typebox').Static<T> {
  const problem = Value.Errors(schema, value).First();
  if (problem) throw invalid(fieldOf(param, problem.path), `${fieldOf(param, problem.path)}: ${problem.message}.`);
  return value as import('@sinclair/typebox').Static<T>;
}

const GRADER_SCHEMAS: Record<EvalGrader['type'], TSchema> = {
  string_check: StringCheckGrader,
  text_similarity: TextSimilarityGrader,
  label_model: LabelModelGrader,
  score_model: ScoreModelGrader,
};

/** A judge or sampled model must be one a chat route serves: a 422 naming the field otherwise. */
export function checkChatModel(models: ModelRegistry, model: string, param: string): void {
  try {
    models.find(model, 'chat');
  } catch (error) {
    if (error instanceof GatewayError) throw invalid(param, error.message, error.code);
    throw error;
  }
}

/** Every text of a grader that may hold template references, with its field name. */
export function graderTemplates(grader: EvalGrader, param: string): [string, string][] {
  if (grader.type === 'string_check' || grader.type === 'text_similarity')
    return [
      [grader.input, `${param}.input`],
      [grader.reference, `${param}.reference`],
    ];
  return grader.input.map((message, index) => [
    typeof message.content === 'string' ? message.content : message.content.text,
    `${param}.input[${index}].content`,
  ]);
}

/**
 * The testing criteria of a new eval, each checked against its grader type's schema (a bad
 * operation or metric is a 422 naming the field), names unique, passing labels among the labels,
 * template references in the `item` or `sample` namespace, judge models served by a chat route.
 * Python graders are refused: nothing here runs user code.
 */
export function checkTestingCriteria(criteria: unknown[], models: ModelRegistry): EvalGrader[] {
  if (criteria.length === 0) throw invalid('testing_criteria', 'testing_criteria must list at least one grader.');
  const names = new Set<string>();
  return criteria.map((criterion, index) => {
    const param = `testing_criteria[${index}]`;
    const type = (criterion as { type?: unknown } | null)?.type;
    if (type === 'python')
      throw invalid(
        `${param}.type`,
        'Python graders are not served: this gateway runs no user code. Use string_check, text_similarity, label_model or score_model.',
        'grader_not_served',
      );
    if (typeof type !== 'string' || !(type in GRADER_SCHEMAS))
      throw invalid(
        `${param}.type`,
        `${param}.type must be one of ${Object.keys(GRADER_SCHEMAS).join(', ')} (python graders are not served).`,
      );
    const grader = checked(GRADER_SCHEMAS[type as EvalGrader['type']], criterion, param) as EvalGrader;
    if (names.has(grader.name)) throw invalid(`${param}.name`, `Two testing criteria are named "${grader.name}".`);
    names.add(grader.name);
    if (grader.type === 'label_model') {
      const stray = grader.passing_labels.find((label) => !grader.labels.includes(label));
      if (stray !== undefined)
        throw invalid(`${param}.passing_labels`, `The passing label "${stray}" is not one of the labels.`);
    }
    if (grader.type === 'score_model' && grader.range && grader.range[0]! >= grader.range[1]!)
      throw invalid(`${param}.range`, 'range must be [low, high] with low below high.');
    for (const [text, field] of graderTemplates(grader, param))
      for (const reference of templateReferences(text))
        if (!isKnownReference(reference))
          throw invalid(
            field,
            `{{${reference}}} names no field of the item or sample namespace (write {{item.<field>}} or {{sample.output_text}}).`,
          );
    if (grader.type === 'label_model' || grader.type === 'score_model')
      checkChatModel(models, grader.model, `${param}.model`);
    return grader;
  });
}

/** What a completions run's sample holds for templates (`{{sample.output_text}}` …), as OpenAI's sample schema. */
const SAMPLE_SCHEMA = {
  type: 'object',
  properties: {
    model: { type: 'string' },
    choices: { type: 'array' },
    output_text: { type: 'string' },
    output_json: { type: 'object' },
    output_tools: { type: 'array' },
  },
  required: ['model', 'output_text'],
};

/** A new eval's `custom` data source config, as answered: the schema of its rows. Other kinds (logs, stored completions) are not served. */
export function dataSourceConfig(config: Record<string, unknown>): EvalDataSourceConfig {
  if (config.type !== 'custom')
    throw invalid(
      'data_source_config.type',
      `Only the custom data source config is served: this gateway keeps no stored completions or logs for evals. Give {"type": "custom", "item_schema": {...}}.`,
      'data_source_not_served',
    );
  const itemSchema = config.item_schema;
  if (itemSchema === null || typeof itemSchema !== 'object' || Array.isArray(itemSchema))
    throw invalid('data_source_config.item_schema', 'item_schema must be a JSON schema object.');
  const withSample = config.include_sample_schema === true;
  return {
    type: 'custom',
    schema: {
      type: 'object',
      properties: { item: itemSchema, ...(withSample ? { sample: SAMPLE_SCHEMA } : {}) },
      required: withSample ? ['item', 'sample'] : ['item'],
    },
  };
}

/** A run's data source checked against its kind's schema (jsonl or completions), naming the field; responses runs are not served. */
export function checkRunDataSource(dataSource: Record<string, unknown>, models: ModelRegistry): EvalRunDataSource {
  const source = dataSource.source as { type?: unknown } | undefined;
  if (source?.type === 'file_id') checked(FileIdSource, source, 'data_source.source');
  else if (source?.type === 'file_content') checked(FileContentSource, source, 'data_source.source');
  else
    throw invalid(
      'data_source.source.type',
      'data_source.source.type must be file_content or file_id (stored completions and responses are not kept here).',
    );
  if (dataSource.type === 'jsonl') return checked(JsonlRunDataSource, dataSource, 'data_source');
  if (dataSource.type !== 'completions')
    throw invalid(
      'data_source.type',
      'data_source.type must be jsonl or completions (responses runs are not served: use completions).',
      'data_source_not_served',
    );
  const completions = checked(CompletionsRunDataSource, dataSource, 'data_source');
  checkChatModel(models, completions.model, 'data_source.model');
  if (completions.input_messages.type === 'template')
    completions.input_messages.template.forEach((message, index) => {
      const text = typeof message.content === 'string' ? message.content : message.content.text;
      for (const reference of templateReferences(text))
        if (!reference.startsWith('item.') && !reference.startsWith('item['))
          throw invalid(
            `data_source.input_messages.template[${index}].content`,
            `{{${reference}}}: a run's input messages may name only the item namespace ({{item.<field>}}).`,
          );
    });
  return completions;
}
