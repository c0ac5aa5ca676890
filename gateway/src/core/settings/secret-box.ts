import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const SEALED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value could not be opened: it was sealed under another key, or it was altered. */
export class UnreadableSecretError extends Error {
  constructor() {
    super('it was encrypted with another secret key, or it was altered');
    this.name = 'UnreadableSecretError';
  }
}

/**
 * Encrypts secrets kept in the database (console-added providers' API keys) with AES-256-GCM under
 * a key kept outside it (see loadSecretKey). A sealed value is `enc:v1:` + base64(iv | tag |
 * ciphertext); anything else is a value stored in plain text before encryption at rest, which
 * `open` returns as it is so it can be sealed again.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64');
  }

  /** The plain text of a sealed value (a plain one as it is); throws UnreadableSecretError under the wrong key. */
  open(value: string): string {
    if (!SecretBox.isSealed(value)) return value;
    const packed = Buffer.from(value.slice(SEALED_PREFIX.length), 'base64');
    if (packed.length < IV_BYTES + TAG_BYTES) throw new UnreadableSecretError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, packed.subarray(0, IV_BYTES));
      decipher.setAuthTag(packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(packed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableSecretError();
    }
  }
}
