import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileRecord, FilesRepository } from '../../store/files-repository.js';

export type { FileRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import type { StorageQuotas } from '../account/storage-quotas.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../../store/private-folder.js';
import { GatewayError } from '../errors/gateway-error.js';
import { megabytes } from '../errors/megabytes.js';
import { PerKeyLimit } from '../scheduling/per-key-limit.js';
import { newOrderedId } from '../ids/ids.js';
import { checkBatchFile } from '../batch/batch-file-check.js';
import { TEXT_LIMITS } from '../../wire/text-limits.js';

/**
 * Uploaded and generated files: bytes under `<filesDir>/<id>` (GATEWAY_FILES_DIR, default
 * `<dataDir>/files`), records in the database. In team mode every instance shares `filesDir`
 * (docs/team-mode.md says why a directory rather than the database).
 */
/** An upload written to a temporary file as it arrived: kept with `saveReceived`, read whole with `read`, removed with `discard`. */
export interface ReceivedFile {
  /** The id it is kept under. */
  readonly id: string;
  readonly path: string;
  readonly bytes: number;
  read(): Promise<Buffer>;
  discard(): Promise<void>;
}

/** A file's name is at most 255 characters, and one with purpose `batch` must be a valid batch input file (422 naming its first bad line). */
async function checkNewFile(
  details: { purpose: string; filename: string },
  content: () => Buffer | AsyncIterable<Uint8Array>,
): Promise<void> {
  if (details.filename.length > TEXT_LIMITS.filename)
    throw new GatewayError(
      422,
      'invalid_value',
      `Invalid request: the file's name is longer than ${TEXT_LIMITS.filename} characters.`,
      { param: 'file' },
    );
  if (details.purpose === 'batch') await checkBatchFile(content());
}

export class FileStore {
  private readonly uploads: PerKeyLimit;

  constructor(
    private readonly files: FilesRepository,
    private readonly folder: string,
    private readonly quotas: Pick<StorageQuotas, 'checkFile'>,
    private readonly uploadsPerKey: number,
  ) {
    mkdirSync(this.folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    this.uploads = new PerKeyLimit(uploadsPerKey);
  }

  /**
   * Starts receiving an upload of `keyId`; 429 when the key has `uploadsPerKey` uploads in flight
   * already, so one key's many slow uploads cannot hold every connection and buffer. Call the
   * returned function when the upload ends, whichever way.
   */
  beginUpload(keyId: string | null): () => void {
    const release = this.uploads.tryAcquire(keyId ?? '');
    if (!release) {
      throw new GatewayError(
        429,
        'too_many_uploads',
        `This key has ${this.uploadsPerKey} uploads in progress, the most one key may send at once (server.upload_concurrency_per_key in the config file). Wait for one to finish, then retry.`,
        {
          retryAfter: 1,
        },
      );
    }
    return release;
  }

  /** Refuses an upload of about `bytes` that would pass the key's file quotas (403 count, 413 bytes): before its body is read, from its Content-Length. */
  checkUploadQuota(keyId: string | null, bytes: number): Promise<void> {
    return this.quotas.checkFile(keyId, bytes);
  }

  /** A client's upload, received (see `receive`): kept unless it would pass the key's file quotas. Files the gateway makes (batch output, images) are saved as they are. */
  async saveUpload(
    received: ReceivedFile,
    details: { purpose: string; filename: string; mimeType: string; keyId: string | null },
  ): Promise<FileRecord> {
    await checkNewFile(details, () => createReadStream(received.path));
    await this.quotas.checkFile(details.keyId, received.bytes);
    return this.saveReceived(received, details);
  }

  /**
   * Streams an upload to a temporary file, never holding it in memory, and fails with 413 (stating
   * the limit) once it passes `maxBytes`; the file is removed when it fails or `signal` aborts. It is
   * written beside the files under a temporary name (as `save` does), so keeping it is a rename.
   */
  async receive(source: Readable, options: { maxBytes: number; signal?: AbortSignal }): Promise<ReceivedFile> {
    const id = newOrderedId('file-');
    const path = `${join(this.folder, id)}.partial-${randomBytes(4).toString('hex')}`;
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes <= options.maxBytes) return callback(null, chunk);
        callback(
          new GatewayError(
            413,
            'file_too_large',
            `The uploaded file is larger than the ${megabytes(options.maxBytes)} the gateway accepts (server.body_limit_mb in the config file).`,
            { param: 'file' },
          ),
        );
      },
    });
    try {
      await pipeline(source, counted, createWriteStream(path, { mode: 0o600 }), { signal: options.signal });
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { id, path, bytes, read: () => readFile(path), discard: () => rm(path, { force: true }) };
  }

  /** Keeps a received upload as a file (moved into place, then its record inserted). */
  async saveReceived(
    received: ReceivedFile,
    details: { purpose: string; filename: string; mimeType: string; keyId: string | null },
  ): Promise<FileRecord> {
    const record = this.newRecord(received.bytes, details, received.id);
    await rename(received.path, join(this.folder, record.id));
    await this.files.insert(record);
    return record;
  }

  private newRecord(
    bytes: number,
    details: { purpose: string; filename: string; mimeType: string; keyId: string | null },
    id = newOrderedId('file-'),
  ): FileRecord {
    return {
      id,
      purpose: details.purpose,
      filename: details.filename,
      mime_type: details.mimeType,
      bytes,
      created_at: Math.floor(Date.now() / 1000),
      key_id: details.keyId,
    };
  }

  async save(
    content: Buffer,
    details: { purpose: string; filename: string; mimeType: string; keyId: string | null },
  ): Promise<FileRecord> {
    await checkNewFile(details, () => content);
    const record = this.newRecord(content.length, details);
    // Written under a temporary name and renamed (atomic within one directory, also on NFS), so an
    // instance that lists the record never reads half a file; the record is inserted only after.
    const path = join(this.folder, record.id);
    const partial = `${path}.partial-${randomBytes(4).toString('hex')}`;
    await writeFile(partial, content, { mode: PRIVATE_FILE_MODE });
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
      throw new GatewayError(
        404,
        'file_content_missing',
        `The content of file "${id}" is missing from the files folder (GATEWAY_FILES_DIR).`,
        { param: 'file_id' },
      );
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
  const sampleType =
    record.purpose === 'batch'
      ? 'batch_request'
      : record.purpose === 'batch_output'
        ? record.filename.includes('error')
          ? 'batch_error'
          : 'batch_result'
        : record.purpose === 'fine-tune'
          ? 'instruct'
          : 'pretrain';
  return {
    sample_type: sampleType,
    source: 'upload' as const,
    deleted: false,
    num_lines: null,
    mimetype: record.mime_type,
    signature: null,
  };
}
