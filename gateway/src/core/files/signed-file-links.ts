import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord } from '../../store/keys-repository.js';
import type { FileRecord } from '../../store/files-repository.js';
import { ownerScope } from '../account/resource-owner.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { FileStore } from './file-store.js';

/** What a signed link carries besides the file id: the key it was made for, when it ends, and the signature. */
export interface SignedFileLink {
  key_id: string;
  expires: number;
  signature: string;
}

const HOUR_MS = 3_600_000;

/**
 * Signed, expiring links to a file's content (Mistral's `files.getSignedUrl`), fetchable without an
 * API key. A link is signed with the stored hash of the key that asked for it, so it opens only the
 * files that key can see, works on every gateway sharing the database, and dies with the key.
 */
export class SignedFileLinks {
  constructor(
    private readonly files: Pick<FileStore, 'get' | 'content'>,
    private readonly keys: { get(id: string): Promise<ApiKeyRecord> },
    private readonly now: () => number = Date.now,
  ) {}

  /** A link to `fileId` valid for `hours`; 404 when the key cannot see the file. */
  async sign(fileId: string, key: ApiKeyRecord, hours: number): Promise<SignedFileLink> {
    await this.files.get(fileId, ownerScope(key));
    const expires = Math.floor((this.now() + hours * HOUR_MS) / 1000);
    return { key_id: key.id, expires, signature: signatureOf(key, fileId, expires) };
  }

  /** The file a link opens; 403 for a link that is forged, expired, or whose key is gone or revoked. */
  async open(fileId: string, link: Partial<SignedFileLink>): Promise<{ record: FileRecord; content: Buffer }> {
    const key = link.key_id ? await this.keyOf(link.key_id) : undefined;
    const given = Buffer.from(link.signature ?? '');
    const expected = Buffer.from(key && link.expires !== undefined ? signatureOf(key, fileId, link.expires) : '');
    if (
      !key ||
      key.revoked_at !== null ||
      expected.length === 0 ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      throw new GatewayError(
        403,
        'invalid_file_link',
        'This file link is not valid: ask for a new one with GET /v1/files/{file_id}/url.',
        { param: 'signature' },
      );
    }
    if (link.expires! * 1000 <= this.now()) {
      throw new GatewayError(
        403,
        'file_link_expired',
        'This file link has expired: ask for a new one with GET /v1/files/{file_id}/url.',
        { param: 'expires' },
      );
    }
    return this.files.content(fileId, ownerScope(key));
  }

  private keyOf(id: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.get(id).catch(() => undefined);
  }
}

function signatureOf(key: ApiKeyRecord, fileId: string, expires: number): string {
  return createHmac('sha256', key.hash).update(`file-content\n${fileId}\n${key.id}\n${expires}`).digest('base64url');
}
