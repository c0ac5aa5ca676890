import type { OwnerScope } from '../../store/owner-scope.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { FileStore } from '../files/file-store.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import { fetchClientUrl } from '../url-fetch/fetch-client-url.js';

const MAX_FETCHED_AUDIO_BYTES = 25 * 1024 * 1024;

export interface AudioSourceFields {
  /** A stored file's id (Mistral's `file_id`). */
  file_id?: string;
  /** An http(s) URL the gateway fetches, within server.url_fetch_allow (Mistral's `file_url`). */
  file_url?: string;
}

/**
 * The audio to transcribe: the uploaded part, or a stored file the key can see, or a URL fetched
 * under the same address policy as every client-given URL. Undefined when none was given.
 */
export async function audioSource(
  upload: { content: Buffer; filename: string } | undefined,
  fields: AudioSourceFields,
  deps: { files: Pick<FileStore, 'content'>; owner: OwnerScope; addresses: AddressPolicy },
): Promise<{ content: Buffer; filename: string } | undefined> {
  const given = [upload ? 'file' : '', fields.file_id ? 'file_id' : '', fields.file_url ? 'file_url' : ''].filter(
    Boolean,
  );
  if (given.length > 1)
    throw new GatewayError(
      422,
      'invalid_value',
      `Invalid request: give one of file, file_id or file_url, not ${given.join(' and ')}.`,
      { param: given[1] },
    );
  if (upload) return upload;
  if (fields.file_id) {
    const { record, content } = await deps.files.content(fields.file_id, deps.owner);
    return { content, filename: record.filename };
  }
  if (fields.file_url) {
    let url: URL;
    try {
      url = new URL(fields.file_url);
    } catch {
      throw new GatewayError(422, 'invalid_value', "Invalid request: 'file_url' is not a URL.", { param: 'file_url' });
    }
    const content = await fetchClientUrl(url, {
      policy: deps.addresses,
      maxBytes: MAX_FETCHED_AUDIO_BYTES,
      timeoutMs: 30_000,
      param: 'file_url',
    });
    return { content, filename: decodeURIComponent(url.pathname.split('/').pop() || 'audio') };
  }
  return undefined;
}
