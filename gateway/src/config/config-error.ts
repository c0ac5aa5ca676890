/** A configuration problem found at start: the message names the source, the field and what is wrong. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
