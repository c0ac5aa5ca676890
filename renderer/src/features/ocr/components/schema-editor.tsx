import { useState } from 'react';

/** An invoice or receipt's usual fields; a field the document lacks comes back null with the reason. */
export const EXAMPLE_SCHEMA = `{
  "type": "object",
  "properties": {
    "invoice_number": { "type": "string" },
    "date": { "type": "string", "format": "date" },
    "total": { "type": "number", "description": "The total amount due" },
    "currency": { "type": "string", "description": "ISO 4217 code" }
  }
}`;

/** Parses the editor's text; the error message names what is wrong with it. */
export function parseSchema(text: string): { schema: Record<string, unknown> } | { error: string } {
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return { error: 'The schema must be a JSON object.' };
    return { schema: value as Record<string, unknown> };
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
}

interface Props {
  busy: boolean;
  disabled: boolean;
  onExtract(schema: Record<string, unknown>): void;
}

export function SchemaEditor({ busy, disabled, onExtract }: Props) {
  const [text, setText] = useState(EXAMPLE_SCHEMA);
  const parsed = parseSchema(text);
  return (
    <div className="stack">
      <label className="field">
        <span>JSON schema of the data to extract</span>
        <textarea
          className="textarea mono"
          rows={10}
          spellCheck={false}
          value={text}
          aria-invalid={'error' in parsed}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      {'error' in parsed && (
        <span className="small" role="alert" style={{ color: 'var(--danger)' }}>
          {parsed.error}
        </span>
      )}
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={disabled || busy || 'error' in parsed}
          onClick={() => 'schema' in parsed && onExtract(parsed.schema)}
        >
          {busy ? 'Extracting…' : 'Extract structured data'}
        </button>
      </div>
    </div>
  );
}
