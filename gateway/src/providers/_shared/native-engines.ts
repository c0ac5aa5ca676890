/**
 * Native engines loaded once and shared by the provider instances that use them: llama.cpp's binding
 * takes seconds to load and is process-wide. Whoever owns their lifetime builds this: the gateway's
 * composition, one per gateway, unless the process's entry point hands several gateways the same one.
 */
export class NativeEngines {
  private readonly engines = new Map<string, unknown>();

  /** The engine under `key`, made by `make` on first use. */
  get<T>(key: string, make: () => T): T {
    if (!this.engines.has(key)) this.engines.set(key, make());
    return this.engines.get(key) as T;
  }

  /** Forgets the engine under `key` (its load failed), so the next `get` makes it again. */
  forget(key: string): void {
    this.engines.delete(key);
  }
}
