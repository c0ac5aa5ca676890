import { open } from 'node:fs/promises';

/** Below this an .onnx file cannot hold a speech model's weights; it is a stub or a failed download. */
const MIN_MODEL_BYTES = 1024;

/**
 * Checks that `file` looks like a serialised ONNX ModelProto, so obviously broken files (truncated
 * downloads, HTML error pages, Git LFS pointers) are reported by name without touching the native
 * runtime. Protobuf writes fields in number order, so a model starts with field 1, `ir_version`,
 * as a varint: the byte 0x08 followed by a small version number.
 * Returns a problem description, or null when the file looks fine.
 */
export async function checkOnnxFile(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    return `cannot read ${file}: ${(error as Error).message}`;
  }
  try {
    const { size } = await handle.stat();
    if (size < MIN_MODEL_BYTES)
      return `${file} is only ${size} bytes: not an ONNX model (a truncated download or a Git LFS pointer?)`;
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    const irVersion = head[1];
    if (head[0] !== 0x08 || irVersion === 0 || irVersion > 20) {
      return `${file} is not an ONNX model (it does not start with an ONNX header); download the model again`;
    }
    return null;
  } finally {
    await handle.close();
  }
}
