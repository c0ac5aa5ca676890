import type { McpToolResult } from '../mcp-types';

const OUTCOME_LABEL: Record<McpToolResult['outcome'], string> = {
  ok: 'ok',
  tool_error: 'tool error',
  timeout: 'timed out',
  cancelled: 'cancelled',
  failed: 'failed',
};

/** A block's text when it has one; any other block (an image, a resource) as its JSON. */
function blockText(block: Record<string, unknown>): string {
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  const { data, ...rest } = block;
  return JSON.stringify(
    typeof data === 'string' ? { ...rest, data: `(${data.length} characters of base64)` } : block,
    null,
    2,
  );
}

/** A tool's result as plain text and JSON: what a tool returns is untrusted and is never rendered as HTML. */
export function ToolResultView({ result }: { result: McpToolResult }) {
  return (
    <div className="stack mcp-result" data-testid="tool-result">
      <div className="row">
        <span className={`badge ${result.is_error ? 'badge-error' : 'badge-ok'}`}>{OUTCOME_LABEL[result.outcome]}</span>
        <span className="small muted">{result.duration_ms} ms</span>
        {result.truncated && <span className="badge badge-warn">cut to the server&apos;s limit</span>}
      </div>
      {result.content.map((block, index) => (
        <pre className="code-block mcp-result-text" key={index}>
          {blockText(block)}
        </pre>
      ))}
      {result.structured_content && (
        <pre className="code-block mcp-result-text" aria-label="Structured content">
          {JSON.stringify(result.structured_content, null, 2)}
        </pre>
      )}
    </div>
  );
}
