import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SafeStorageLike } from '../../main/electron-surface.js';

/**
 * Electron's safeStorage as the operating system's key store would behave: AES-256-GCM under a key
 * this object holds (another instance, like another user's or machine's key store, cannot decrypt).
 */
export class FakeSafeStorage implements SafeStorageLike {
  available = true;
  backend = 'gnome_libsecret';
  /** What the next decryption reports, as Electron does after the store rotated its key. */
  shouldReEncrypt = false;
  encryptions = 0;
  /** Encryption throws although it is reported available (a locked keychain, say). */
  failEncryption = false;
  private readonly key = randomBytes(32);

  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available;
  }

  async encryptStringAsync(plainText: string): Promise<Buffer> {
    if (this.failEncryption) throw new Error('Error while encrypting the text provided to safeStorage.encryptString.');
    this.encryptions++;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  async decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }> {
    const decipher = createDecipheriv('aes-256-gcm', this.key, encrypted.subarray(0, 12));
    decipher.setAuthTag(encrypted.subarray(12, 28));
    const result = Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
    return { shouldReEncrypt: this.shouldReEncrypt, result };
  }

  getSelectedStorageBackend(): string {
    return this.backend;
  }
}

/** A key store that offers no encryption (a Linux session without a secret service, say). */
export function unavailableSafeStorage(): FakeSafeStorage {
  const storage = new FakeSafeStorage();
  storage.available = false;
  return storage;
}
