import { formatBytes } from '../../lib/format';

/** Model sizes run to gigabytes; the shared formatter stops at megabytes. */
export function formatSize(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : formatBytes(bytes);
}
