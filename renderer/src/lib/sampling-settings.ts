/** The sampling settings of the chat and completions playgrounds; null (or absent) is not sent. */
export interface SamplingSettings {
  temperature: number;
  topP: number;
  maxTokens: number | null;
  seed: number | null;
  /** Optional because chat settings saved before these existed lack them. */
  presencePenalty?: number | null;
  frequencyPenalty?: number | null;
  /** One stop sequence per line. */
  stop: string;
}

/** The settings as the request body's fields (those left empty are not sent). */
export function samplingBody(settings: SamplingSettings) {
  const stop = settings.stop.split('\n').filter((line) => line.length > 0);
  return {
    temperature: settings.temperature,
    top_p: settings.topP,
    ...(settings.maxTokens !== null ? { max_tokens: settings.maxTokens } : {}),
    ...(stop.length ? { stop } : {}),
    ...(settings.seed !== null ? { seed: settings.seed } : {}),
    ...(settings.presencePenalty != null ? { presence_penalty: settings.presencePenalty } : {}),
    ...(settings.frequencyPenalty != null ? { frequency_penalty: settings.frequencyPenalty } : {}),
  };
}
