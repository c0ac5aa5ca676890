import { getJson } from '../../../lib/gateway-client';
import type { StoredFile } from '../../../lib/gateway-types';

/** Stores the JSONL input with purpose=batch (multipart, so the browser sets the boundary). */
export function uploadBatchFile(content: Blob, filename: string): Promise<StoredFile> {
  const form = new FormData();
  form.append('purpose', 'batch');
  form.append('file', content, filename);
  return getJson('/v1/files', { method: 'POST', body: form });
}
