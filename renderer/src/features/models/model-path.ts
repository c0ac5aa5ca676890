/** Fine-tuned ids contain colons (`ft:base:org:id`), so they are encoded as one path segment. */
export const modelPath = (id: string): string => `/v1/models/${encodeURIComponent(id)}`;
