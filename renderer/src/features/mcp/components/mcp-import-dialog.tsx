import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { FormActions } from '../../../components/form-actions';
import { useImportMcpJson } from '../api/import-mcp-json';

const EXAMPLE = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    }
  }
}`;

/** Paste an mcp.json as LM Studio or Claude Desktop keep it; its servers are added as they are. */
export function McpImportDialog({ onClose }: { onClose(): void }) {
  const [text, setText] = useState('');
  const [parseError, setParseError] = useState<string | null>(null);
  const importJson = useImportMcpJson();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      setParseError(`Not JSON: ${(error as Error).message}`);
      return;
    }
    setParseError(null);
    importJson.mutate(document, { onSuccess: onClose });
  };

  return (
    <Dialog title="Import mcp.json" onClose={onClose} wide>
      <form className="stack" onSubmit={submit} aria-label="Import mcp.json">
        <label className="field">
          <span>mcp.json</span>
          <textarea
            className="textarea mono"
            rows={12}
            required
            value={text}
            placeholder={EXAMPLE}
            onChange={(event) => setText(event.target.value)}
            autoFocus
          />
        </label>
        <p className="small muted field-note">
          The file LM Studio and Claude Desktop use, as it is: each server&apos;s name becomes its id, and a server with
          an id that exists replaces it. Only Owners may use imported servers until you allow keys.
        </p>
        {parseError && (
          <div className="notice notice-error" role="alert">
            {parseError}
          </div>
        )}
        {importJson.isError && <ErrorNotice error={importJson.error} title="The file could not be imported" />}
        <FormActions submitLabel="Import" onCancel={onClose} saving={importJson.isPending} disabled={!text.trim()} />
      </form>
    </Dialog>
  );
}
