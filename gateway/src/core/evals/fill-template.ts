import { GatewayError } from '../errors/gateway-error.js';

/** The namespaces a template may name: the row's `item`, and the `sample` (the model's answer, or the row's given one). */
export interface TemplateNamespaces {
  item: Record<string, unknown>;
  sample?: Record<string, unknown>;
}

const REFERENCE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const STEP = /([^.[\]]+)|\[(\d+)\]/g;

/** The references a template names (`item.question`, `sample.output_text`, `item.tags[0]`), in order. */
export function templateReferences(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1]!);
}

/** The namespace and the steps below it of a reference; undefined when it names no namespace. */
function stepsOf(reference: string): { namespace: string; path: (string | number)[] } {
  const steps = [...reference.matchAll(STEP)].map((match) => (match[2] === undefined ? match[1]! : Number(match[2])));
  const [namespace = '', ...path] = steps;
  return { namespace: String(namespace), path };
}

/** Whether a reference is of a namespace a template may name (`item` or `sample`) with a field below it. */
export function isKnownReference(reference: string): boolean {
  const { namespace, path } = stepsOf(reference);
  return (namespace === 'item' || namespace === 'sample') && path.length > 0;
}

/** The value a reference names, or `missing` when the row has no such field. */
export function lookUp(reference: string, namespaces: TemplateNamespaces): { value: unknown } | 'missing' {
  const { namespace, path } = stepsOf(reference);
  let value: unknown = namespace === 'item' ? namespaces.item : namespace === 'sample' ? namespaces.sample : undefined;
  for (const step of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, step)) return 'missing';
    value = (value as Record<string | number, unknown>)[step];
  }
  return value === undefined ? 'missing' : { value };
}

/** A value as a template writes it: strings as they are, anything else as JSON. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The template with each `{{namespace.path}}` replaced by the row's value (OpenAI's grader
 * templating). A reference the row lacks is a 422 naming `param`; run creation checks every row
 * first, so this only fails on a sample the model did not give.
 */
export function fillTemplate(text: string, namespaces: TemplateNamespaces, param: string): string {
  return text.replace(REFERENCE, (_whole, reference: string) => {
    const found = lookUp(reference, namespaces);
    if (found === 'missing')
      throw new GatewayError(
        422,
        'template_field_missing',
        `The template names {{${reference}}}, which this row does not have.`,
        {
          param,
        },
      );
    return asText(found.value);
  });
}
