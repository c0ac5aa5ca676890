import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileRecord, FilesRepository } from '../../store/files-repository.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';

/** Uploaded and generated files: bytes under `<dataDir>/files/<id>`, records in the database. */
export class FileStore {
  private readonly folder: string;

  constructor(
    private readonly files: FilesRepository,
    dataDir: string,
  ) {
    this.folder = join(dataDir, 'files');
    mkdirSync(this.folder, { recursive: true });
  }

  async save(content: Buffer, details: { purpose: string; filename: string; mimeType: string; keyId: string | null }): Promise<FileRecord> {
    const record: FileRecord = {
      id: newId('file-'),
      purpose: details.purpose,
      filename: details.filename,
      mime_type: details.mimeType,
      bytes: content.length,
      created_at: Math.floor(Date.now() / 1000),
      key_id: details.keyId,
    };
    await writeFile(join(this.folder, record.id), content);
    this.files.insert(record);
    return record;
  }

  /** The file's record; 404 when it does not exist or is outside `scope` (no scope: internal use, any file). */
  get(id: string, scope?: OwnerScope): FileRecord {
    const record = this.files.get(id, scope);
    if (!record) throw new GatewayError(404, 'file_not_found', `No file with id "${id}".`, { param: 'file_id' });
    return record;
  }

  async content(id: string, scope?: OwnerScope): Promise<{ record: FileRecord; content: Buffer }> {
    const record = this.get(id, scope);
    try {
      return { record, content: await readFile(join(this.folder, record.id)) };
    } catch {
      throw new GatewayError(404, 'file_content_missing', `The content of file "${id}" is missing from the data folder.`, { param: 'file_id' });
    }
  }

  list(options: { purpose?: string; limit: number; after?: string; scope?: OwnerScope }): FileRecord[] {
    return this.files.list(options);
  }

  async delete(id: string, scope?: OwnerScope): Promise<void> {
    this.get(id, scope);
    this.files.delete(id);
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
