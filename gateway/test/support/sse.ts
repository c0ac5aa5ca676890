/** Reads a whole SSE response into its `data:` payloads (parsed JSON, or the raw text for `[DONE]`). */
export async function readSse(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((frame) =>
      frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data.length > 0)
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
}
