/**
 * A GGUF v3 file with metadata and no tensors: enough for code that reads a model's header
 * (architecture, context length, pooling) without loading it.
 */
type Value = string | number;

function encodeString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  return Buffer.concat([length, bytes]);
}

function encodeValue(value: Value): Buffer {
  if (typeof value === 'string') return Buffer.concat([Buffer.from([8, 0, 0, 0]), encodeString(value)]);
  const buffer = Buffer.alloc(8);
  buffer.writeUInt32LE(4); // UINT32
  buffer.writeUInt32LE(value, 4);
  return buffer;
}

export function ggufHeader(metadata: Record<string, Value>): Buffer {
  const head = Buffer.alloc(24);
  head.write('GGUF', 0, 'ascii');
  head.writeUInt32LE(3, 4);
  head.writeBigUInt64LE(0n, 8);
  head.writeBigUInt64LE(BigInt(Object.keys(metadata).length), 16);
  const entries = Object.entries(metadata).map(([key, value]) =>
    Buffer.concat([encodeString(key), encodeValue(value)]),
  );
  return Buffer.concat([head, ...entries]);
}
