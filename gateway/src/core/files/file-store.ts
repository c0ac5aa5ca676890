import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileRecord, FilesRepository } from '../../store/files-repository.js';

export type { FileRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newOrderedId } from '../ids/ids.js';
import { checkBatchFile } from '../batch/batch-file-check.js';
import { TEXT_LIMITS } from '../../wire/text-limits.js';

/**
 * Uploaded and generated files: bytes under `<filesDir>/<id>` (GATEWAY_FILES_DIR, default
 * `<dataDir>/files`), records in the database. In team mode every instance shares `filesDir`
 * (docs/team-mode.md says why a directory rather than the database).
 */
export class FileStore {
  constructor(
    private readonly files: FilesRepository,
    private readonly folder: string,
  ) {
    mkdirSync(this.folder, { recursive: true });
  }

  /** Stores a file; its name is at most 255 characters, and one with purpose `batch` must be a valid batch input file (422 naming its first bad line). */
  async save(content: Buffer, details: { purpose: string; filename: string; mimeType: string; keyId: string | null }): Promise<FileRecord> {
    if (details.filename.length > TEXT_LIMITS.filename) throw new GatewayError(422, 'invalid_value', `Invalid request: the file's name is longer than ${TEXT_LIMITS.filename} characters.`, { param: 'file' });
    if (details.purpose === 'batch') await checkBatchFile(content);
    const record: FileRecord = {
      id: newOrderedId('file-'),
      purpose: details.purpose,
      filename: details.filename,
      mime_type: details.mimeType,
      bytes: content.length,
      created_at: Math.floor(Date.now() / 1000),
      key_id: details.keyId,
    };
    // Written under a temporary name and renamed (atomic within one directory, also on NFS), so an
    // instance that lists the record never reads half a file; the record is inserted only after.
    const path = join(this.folder, record.id);
    const partial = `${path}.partial-${randomBytes(4).toString('hex')}`;
    await writeFile(partial, content);
    await rename(partial, path).catch(async (error: unknown) => {
      await rm(partial, { force: true });
      throw error;
    });
    await this.files.insert(record);
    return record;
  }

  /** The file's record; 404 when it does not exist or is outside `scope` (no scope: internal use, any file). */
  async get(id: string, scope?: OwnerScope): Promise<FileRecord> {
    const record = await this.files.get(id, scope);
    if (!record) throw new GatewayError(404, 'file_not_found', `No file with id "${id}".`, { param: 'file_id' });
    return record;
  }

  async content(id: string, scope?: OwnerScope): Promise<{ record: FileRecord; content: Buffer }> {
    const record = await this.get(id, scope);
    try {
      return { record, content: await readFile(join(this.folder, record.id)) };
    } catch {
      throw new GatewayError(404, 'file_content_missing', `The content of file "${id}" is missing from the files folder (GATEWAY_FILES_DIR).`, { param: 'file_id' });
    }
  }

  list(options: { purpose?: string; limit: number; after?: string; scope?: OwnerScope }): Promise<FileRecord[]> {
    return this.files.list(options);
  }

  async delete(id: string, scope?: OwnerScope): Promise<void> {
    await this.get(id, scope);
    await this.files.delete(id);
    await rm(join(this.folder, id), { force: true });
  }
}

export function toPublicFile(record: FileRecord) {
  return {
    id: record.id,
    object: 'file' as const,
    bytes: record.bytes,
    created_at: record.created_at,
    filename: record.filename,
    purpose: record.purpose,
    mime_type: record.mime_type,
    ...mistralFileFields(record),
  };
}

/** The fields Mistral's file schema requires besides OpenAI's. */
function mistralFileFields(record: FileRecord) {
  const sampleType = record.purpose === 'batch' ? 'batch_request' : record.purpose === 'batch_output' ? (record.filename.includes('error') ? 'batch_error' : 'batch_result') : record.purpose === 'fine-tune' ? 'instruct' : 'pretrain';
  return { sample_type: sampleType, source: 'upload' as const, deleted: false, num_lines: null, mimetype: record.mime_type, signature: null };
}
