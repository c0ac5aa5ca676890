/**
 * A rough token count for upstreams that report no usage: about four characters per token, plus a
 * few tokens of framing per text (chat messages carry role markers). Billing needs a number; an
 * honest estimate beats zero.
 */
export function approximateTokens(...texts: string[]): number {
  return texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
}
