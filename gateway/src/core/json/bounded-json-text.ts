type Frame =
  { kind: 'array'; items: unknown[]; next: number } | { kind: 'object'; entries: [string, unknown][]; next: number };

/**
 * JSON text of a client's value, at most about `maxChars` long (the rest is dropped), written with an
 * explicit stack: a body nested a million levels deep costs no more than a flat one and cannot
 * overflow the call stack (JSON.stringify recurses and throws RangeError on deep nesting).
 */
export function boundedJsonText(value: unknown, maxChars: number): string {
  let out = '';
  const stack: Frame[] = [];
  const open = (item: unknown): void => {
    if (Array.isArray(item)) {
      out += '[';
      stack.push({ kind: 'array', items: item, next: 0 });
    } else if (item !== null && typeof item === 'object') {
      out += '{';
      stack.push({
        kind: 'object',
        entries: Object.entries(item).filter(([, entry]) => entry !== undefined && typeof entry !== 'function'),
        next: 0,
      });
    } else {
      out += JSON.stringify(item) ?? 'null';
    }
  };
  open(value);
  while (stack.length > 0 && out.length <= maxChars) {
    const frame = stack[stack.length - 1];
    const length = frame.kind === 'array' ? frame.items.length : frame.entries.length;
    if (frame.next >= length) {
      out += frame.kind === 'array' ? ']' : '}';
      stack.pop();
      continue;
    }
    if (frame.next > 0) out += ',';
    if (frame.kind === 'array') {
      open(frame.items[frame.next++]);
    } else {
      const [name, entry] = frame.entries[frame.next++];
      out += `${JSON.stringify(name)}:`;
      open(entry);
    }
  }
  return out;
}
